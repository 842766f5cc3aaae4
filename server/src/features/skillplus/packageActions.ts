import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { Diagnostic } from '../../checks/diagnostic';
import type { SkillPlusPackage } from '../../formats/skillplus';
import type { Span } from '../../parse/lineIndex';
import { textOf as pythonText } from '../../parse/python';
import { toLspDiagnostic } from '../document/lspDiagnostics';
import { lineEndAt, locationOf, textOf, type DocumentView } from '../document/documentView';
import { scriptStub } from '../document/scriptStub';

/** The default written for a field of each type the quick fix adds. */
const DEFAULTS: Record<string, string> = {
  str: '""',
  bool: 'False',
  float: '0.0',
  'list[str]': '[]',
  'str | None': 'None',
};

/** The skill+ findings whose `data.suggestion` names the value meant. */
const SUGGESTING = new Set([
  'unknown_state_path',
  'unknown_placeholder',
  'unknown_predicate_path',
  'unknown_flow_id',
  'predicate_value',
  'unknown_rule',
  'invalid_on_fail',
  'spec_unknown_id',
]);

/** Quick fixes for the skill+ diagnostics of this document overlapping `span`. */
export function packageCodeActions(view: DocumentView, span: Span): CodeAction[] {
  const pkg = view.analysis.skillplus;
  if (!pkg) return [];
  return view.analysis.diagnostics
    .filter((item) => item.file === view.file && item.span.start <= span.end && span.start <= item.span.end)
    .flatMap((item) => fixesFor(view, pkg, item));
}

function fix(view: DocumentView, title: string, item: Diagnostic, edit: WorkspaceEdit, preferred = false): CodeAction {
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [toLspDiagnostic(view, item)],
    edit,
    ...(preferred ? { isPreferred: true } : {}),
  };
}

function edits(view: DocumentView, changes: { span: Span; newText: string }[]): WorkspaceEdit {
  const byUri: Record<string, { range: ReturnType<typeof locationOf>['range']; newText: string }[]> = {};
  for (const change of changes) {
    const location = locationOf(view, change.span);
    (byUri[location.uri] ??= []).push({ range: location.range, newText: change.newText });
  }
  return { changes: byUri };
}

function fixesFor(view: DocumentView, pkg: SkillPlusPackage, item: Diagnostic): CodeAction[] {
  const data = (item.data ?? {}) as {
    suggestion?: string;
    replacement?: string;
    field?: string;
    fieldType?: string;
    addMaxRounds?: boolean;
    quote?: { start: number; end: number };
  };
  const actions: CodeAction[] = [];
  if (typeof data.suggestion === 'string' && SUGGESTING.has(item.code)) {
    const written = textOf(view, item.file).slice(item.span.start, item.span.end);
    // A value written in quotes keeps them.
    const quote = /^["']/.test(written) && written.endsWith(written[0]) ? written[0] : '';
    const newText = `${quote}${data.replacement ?? data.suggestion}${quote}`;
    actions.push(
      fix(
        view,
        `Change to "${data.replacement ?? data.suggestion}"`,
        item,
        edits(view, [{ span: item.span, newText }]),
        true,
      ),
    );
  }
  if (data.field && data.fieldType && pkg.state?.root)
    actions.push(...addFieldFix(view, pkg, item, data.field, data.fieldType));
  if (item.code === 'invalid_loop' && data.addMaxRounds) actions.push(...maxRoundsFix(view, pkg, item));
  if (item.code === 'invalid_flow_yaml' && data.quote) {
    const text = textOf(view, item.file).slice(data.quote.start, data.quote.end);
    actions.push(
      fix(
        view,
        'Quote the text',
        item,
        edits(view, [{ span: { ...data.quote, file: item.file }, newText: JSON.stringify(text) }]),
        true,
      ),
    );
  }
  if (item.code === 'missing_script') actions.push(...createScriptFix(view, pkg, item));
  return actions;
}

/** Adds `name: type = default` as the last field of the State class. */
function addFieldFix(
  view: DocumentView,
  pkg: SkillPlusPackage,
  item: Diagnostic,
  name: string,
  type: string,
): CodeAction[] {
  const root = pkg.state!.root!;
  const stateText = textOf(view, pkg.state!.file);
  const last = root.fields[root.fields.length - 1];
  const indent = last ? ' '.repeat(last.span.start - (stateText.lastIndexOf('\n', last.span.start - 1) + 1)) : '    ';
  const after = lineEndAt(stateText, last ? last.span.end : root.nameSpan.end);
  const line = `\n${indent}${name}: ${type} = ${DEFAULTS[type] ?? 'None'}`;
  return [
    fix(
      view,
      `Add \`${name}: ${type}\` to ${root.name}`,
      item,
      edits(view, [{ span: { start: after, end: after, file: pkg.state!.file }, newText: line }]),
    ),
  ];
}

/** `max_rounds=3` for a loop that has none: in the call (`flow.py`) or as a key of its mapping (`flow.yaml`). */
function maxRoundsFix(view: DocumentView, pkg: SkillPlusPackage, item: Diagnostic): CodeAction[] {
  const node = pkg.flow?.nodes.find(
    (candidate) => candidate.kind === 'loop' && candidate.idSpan.start === item.span.start,
  );
  if (!node || !pkg.flow) return [];
  const text = textOf(view, pkg.flow.file);
  if (pkg.flow.front === 'py') {
    const py = pkg.python.get(pkg.flow.file);
    let call = py?.tree.resolveInner(node.idSpan.start, 1) ?? null;
    while (call && call.name !== 'CallExpression') call = call.parent;
    const args = call?.getChild('ArgList');
    if (!py || !args || !pythonText(py, args).endsWith(')')) return [];
    return [
      fix(
        view,
        'Add max_rounds=3',
        item,
        edits(view, [
          { span: { start: args.to - 1, end: args.to - 1, file: pkg.flow.file }, newText: ', max_rounds=3' },
        ]),
        true,
      ),
    ];
  }
  // flow.yaml: a key under the loop's `- loop: id` line, at the column of its other keys.
  const lineStart = text.lastIndexOf('\n', node.idSpan.start - 1) + 1;
  const keyColumn = /^\s*(-\s+)?/.exec(text.slice(lineStart))![0].length;
  const after = lineEndAt(text, node.idSpan.end);
  return [
    fix(
      view,
      'Add max_rounds: 3',
      item,
      edits(view, [
        { span: { start: after, end: after, file: pkg.flow.file }, newText: `\n${' '.repeat(keyColumn)}max_rounds: 3` },
      ]),
      true,
    ),
  ];
}

/** A stub for a `tool="scripts/…"` that does not exist; an existing file is never touched. */
function createScriptFix(view: DocumentView, pkg: SkillPlusPackage, item: Diagnostic): CodeAction[] {
  const node = pkg.flow?.nodes.find((candidate) =>
    candidate.tools.some((tool) => tool.span.start === item.span.start && tool.span.file === item.file),
  );
  const tool = node?.tools.find((candidate) => candidate.span.start === item.span.start);
  if (!node || !tool || !tool.value.startsWith('scripts/') || tool.value.includes('..')) return [];
  const uri = pathToFileURL(path.join(pkg.dir, tool.value)).href;
  const edit: WorkspaceEdit = {
    documentChanges: [
      { kind: 'create', uri, options: { overwrite: false, ignoreIfExists: true } },
      {
        textDocument: { uri, version: null },
        edits: [
          {
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            newText: scriptStub(tool.value, node.id, node.text?.value),
          },
        ],
      },
    ],
  };
  return [fix(view, `Create ${tool.value}`, item, edit, true)];
}
