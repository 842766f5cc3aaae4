import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { Diagnostic } from '../checks/diagnostic';
import { ControlOrder } from '../model/controlFlow';
import type { GraphNode } from '../model/skillModel';
import type { Span } from '../parse/lineIndex';
import { nodeAtPath, nodeSpan, pairOf } from '../parse/yamlSyntax';
import { lineEndAt, rangeOf, type DocumentView } from './document/documentView';
import { addDependencyEdit } from './metaskill/metaEdits';
import { scriptStub } from './document/scriptStub';
import { toLspDiagnostic } from './document/lspDiagnostics';

/** The AIP 0.3 metadata a quick fix adds to an AIP-like skill. */
const AIP_SPEC = 'https://github.com/zach-blumenfeld/aip/tree/v0.3a3';
const AIP_SCHEMA_ID =
  'https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json';

/**
 * Quick fixes for the diagnostics overlapping `span`. Every edit is computed from the model, never guessed from text.
 */
export function codeActions(view: DocumentView, span: Span): CodeAction[] {
  const overlapping = view.analysis.diagnostics.filter(
    (item) => item.file === view.file && item.span.start <= span.end && span.start <= item.span.end,
  );
  return overlapping.flatMap((item) => fixesFor(view, item));
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

function replace(view: DocumentView, span: Span, newText: string): WorkspaceEdit {
  return { changes: { [view.uri]: [{ range: rangeOf(view, span), newText }] } };
}

function fixesFor(view: DocumentView, item: Diagnostic): CodeAction[] {
  const data = item.data ?? {};
  switch (item.code) {
    case 'unknown_dependency':
    case 'unknown_step_reference':
    case 'input_name_typo':
    case 'unknown_type':
    case 'unknown_frontmatter_key':
    case 'unknown_step_key':
    case 'unknown_skill':
    case 'unknown_output':
    case 'unknown_input':
    case 'unknown_filter':
    case 'invalid_substitute':
    case 'invalid_meta_step':
    case 'invalid_final_text_mode':
      return typeof data.suggestion === 'string'
        ? [fix(view, `Change to "${data.suggestion}"`, item, replace(view, item.span, data.suggestion), true)]
        : [];
    case 'binding_out_of_scope':
      return addDependencyFix(view, item);
    case 'raw_user_message':
      return typeof data.insertAt === 'number'
        ? [
            fix(
              view,
              'Escape it: insert "| xml_escape"',
              item,
              replace(view, { start: data.insertAt, end: data.insertAt }, ' | xml_escape'),
              true,
            ),
          ]
        : [];
    case 'path_case_mismatch':
    case 'backslash_path':
      return typeof data.replacement === 'string'
        ? [fix(view, `Change to "${data.replacement}"`, item, replace(view, item.span, data.replacement), true)]
        : [];
    case 'name_mismatch':
      return typeof data.expected === 'string'
        ? [
            fix(
              view,
              `Rename the skill to "${data.expected}" (its folder name)`,
              item,
              replace(view, item.span, data.expected),
              true,
            ),
          ]
        : [];
    case 'unquoted_colon':
      return quoteFixes(view, item);
    case 'external_input':
      return addOutputFixes(view, item);
    case 'missing_script':
    case 'missing_resource':
      return createScriptFix(view, item);
    case 'aip_like_skill':
      return addAipMetadataFix(view, item);
    case 'dependency_cycle':
      return typeof data.from === 'string'
        ? [
            fix(
              view,
              `Remove "${data.from}" from the dependencies of "${data.to}"`,
              item,
              { changes: { [view.uri]: [removeListEntry(view, item.span)] } },
              true,
            ),
          ]
        : [];
    default:
      return [];
  }
}

/** A binding to a step that may not have run: add that step to the consumer's `depends_on`. */
function addDependencyFix(view: DocumentView, item: Diagnostic): CodeAction[] {
  const { producer, consumer } = (item.data ?? {}) as { producer?: string; consumer?: string };
  const edit = producer && consumer ? addDependencyEdit(view, consumer, producer) : undefined;
  return edit
    ? [
        fix(
          view,
          `Add "${producer}" to the depends_on of "${consumer}"`,
          item,
          { changes: { [view.uri]: [edit] } },
          true,
        ),
      ]
    : [];
}

function quoteFixes(view: DocumentView, item: Diagnostic): CodeAction[] {
  const { value, valueStart, valueEnd, key } = item.data as {
    value: string;
    valueStart: number;
    valueEnd: number;
    key: string;
  };
  const span = { start: valueStart, end: valueEnd };
  const lineStart = view.analysis.text.lastIndexOf('\n', valueStart - 1) + 1;
  const indent = /^\s*/.exec(view.analysis.text.slice(lineStart, valueStart))![0];
  return [
    fix(view, `Quote the value of "${key}"`, item, replace(view, span, JSON.stringify(value)), true),
    fix(view, `Make "${key}" a folded block scalar`, item, replace(view, span, `>-\n${indent}  ${value}`)),
  ];
}

/** The YAML item of a step, by its position among the steps. */
function stepItem(view: DocumentView, node: GraphNode) {
  const index = view.analysis.model.nodes.indexOf(node);
  return view.analysis.procedure ? nodeAtPath(view.analysis.procedure.yaml, ['steps', index]) : undefined;
}

/** The column of a step's keys, read from where its `name` key starts. */
function keyIndent(view: DocumentView, node: GraphNode): number | undefined {
  const item = stepItem(view, node);
  const key =
    view.analysis.procedure && item
      ? nodeSpan(view.analysis.procedure.yaml, pairOf(item.node, 'name')?.key)
      : undefined;
  return key ? view.lines.positionAt(key.start).character : undefined;
}

/** For an external input: add it as an output of each step that runs right before its consumer. */
function addOutputFixes(view: DocumentView, item: Diagnostic): CodeAction[] {
  const { model, procedure } = view.analysis;
  const input = model.externalInputs.find((port) => port.nameSpan.start === item.span.start);
  if (!input || !procedure) return [];
  const order = new ControlOrder(model.nodes, model.edges);
  const direct = model.edges
    .filter((edge) => edge.kind !== 'data' && edge.to === input.nodeId)
    .map((edge) => edge.from);
  const producers = model.nodes.filter((node) => direct.includes(node.id) && order.isAncestor(node.id, input.nodeId));
  return producers.flatMap((node) => {
    const indent = keyIndent(view, node);
    if (indent === undefined) return [];
    const pad = ' '.repeat(indent);
    const type = input.type ? `\n${pad}    type: ${input.type}` : '';
    const outputs = nodeAtPath(procedure.yaml, ['steps', model.nodes.indexOf(node), 'outputs']);
    const last = node.outputs[node.outputs.length - 1];
    const after = lineEndAt(
      view.analysis.text,
      contentEnd(view, outputs.depth === 3 && last ? last.span.end : node.span.end),
    );
    const edit: TextEdit =
      outputs.depth === 3 && last
        ? { range: rangeOf(view, { start: after, end: after }), newText: `\n${pad}  - name: ${input.name}${type}` }
        : {
            range: rangeOf(view, { start: after, end: after }),
            newText: `\n${pad}outputs:\n${pad}  - name: ${input.name}${type}`,
          };
    return [fix(view, `Add output "${input.name}" to step "${node.id}"`, item, { changes: { [view.uri]: [edit] } })];
  });
}

/**
 * The offset just after the last non-blank character before `end` (YAML node ranges run on over trailing blank lines).
 */
function contentEnd(view: DocumentView, end: number): number {
  let at = end;
  while (at > 0 && /\s/.test(view.analysis.text[at - 1])) at--;
  return Math.max(0, at - 1);
}

/** Creates a missing script as a stub in its language; `ignoreIfExists` means an existing file is never touched. */
function createScriptFix(view: DocumentView, item: Diagnostic): CodeAction[] {
  const node = view.analysis.model.nodes.find(
    (candidate) => candidate.script && candidate.script.span.start === item.span.start,
  );
  if (!node?.script || !node.script.path.startsWith('scripts/')) return [];
  const uri = pathToFileURL(path.join(view.analysis.dir, node.script.path)).href;
  const edit: WorkspaceEdit = {
    documentChanges: [
      { kind: 'create', uri, options: { overwrite: false, ignoreIfExists: true } },
      {
        textDocument: { uri, version: null },
        edits: [
          {
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            newText: scriptStub(node.script.path, node.id, node.description?.text),
          },
        ],
      },
    ],
  };
  return [fix(view, `Create ${node.script.path}`, item, edit, true)];
}

function addAipMetadataFix(view: DocumentView, item: Diagnostic): CodeAction[] {
  const frontmatter = view.analysis.frontmatter;
  const close = view.analysis.syntax?.frontmatter?.close;
  if (!frontmatter || !close) return [];
  const metadata = pairOf(frontmatter.doc.contents, 'metadata');
  const aipLines = (pad: string) => `${pad}aip:\n${pad}  spec: ${AIP_SPEC}\n${pad}  schemaId: ${AIP_SCHEMA_ID}\n`;
  const metadataKey = metadata ? nodeSpan(frontmatter, metadata.key) : undefined;
  const edit: TextEdit = metadataKey
    ? {
        range: rangeOf(view, {
          start: view.lines.offsetAt({ line: view.lines.positionAt(metadataKey.start).line + 1, character: 0 }),
          end: view.lines.offsetAt({ line: view.lines.positionAt(metadataKey.start).line + 1, character: 0 }),
        }),
        newText: aipLines('  '),
      }
    : { range: rangeOf(view, { start: close.start, end: close.start }), newText: `metadata:\n${aipLines('  ')}` };
  return [fix(view, 'Add the AIP 0.3 metadata', item, { changes: { [view.uri]: [edit] } }, true)];
}

/** Removes one entry of a YAML list: from a flow list with its comma, or a block list item with its line. */
function removeListEntry(view: DocumentView, span: Span): TextEdit {
  const text = view.analysis.text;
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  const before = text.slice(lineStart, span.start);
  if (/^\s*-\s*$/.test(before)) {
    const lineEnd = text.indexOf('\n', span.end);
    return { range: rangeOf(view, { start: lineStart, end: lineEnd === -1 ? text.length : lineEnd + 1 }), newText: '' };
  }
  const after = /^\s*,\s*/.exec(text.slice(span.end));
  if (after) return { range: rangeOf(view, { start: span.start, end: span.end + after[0].length }), newText: '' };
  const comma = /,\s*$/.exec(text.slice(lineStart, span.start));
  const start = comma ? lineStart + comma.index : span.start;
  return { range: rangeOf(view, { start, end: span.end }), newText: '' };
}
