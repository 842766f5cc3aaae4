import { sourceOf, type SkillAnalysis } from '../analyze';
import type { Diagnostic } from '../checks/diagnostic';
import { lineEndAt } from '../parse/lineIndex';
import { textOf as pythonText } from '../parse/python';
import { fixOf, textChange, type Fix } from '../checks/fix';
import { createScriptFix } from '../checks/scriptStub';
import { invalidFlowYaml, invalidLoop, type SkillPlusPackage } from '../formats/skillplus';
import { missingScript } from '../checks/fileLinks';

/** The default written for a field of each type the fix adds. */
const DEFAULTS: Record<string, string> = {
  str: '""',
  bool: 'False',
  float: '0.0',
  'list[str]': '[]',
  'str | None': 'None',
};

/** The fixes of a skill+ finding. */
export function packageFixes(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
  const pkg = analysis.skillplus;
  if (!pkg) return [];
  const data = (item.data ?? {}) as {
    field?: string;
    fieldType?: string;
    addMaxRounds?: boolean;
    quote?: { start: number; end: number };
  };
  const fixes: Fix[] = [];
  if (data.field && data.fieldType && pkg.state?.root)
    fixes.push(...addFieldFix(analysis, pkg, item, data.field, data.fieldType));
  if (item.code === invalidLoop.code && data.addMaxRounds) fixes.push(...maxRoundsFix(analysis, pkg, item));
  if (item.code === invalidFlowYaml.code && data.quote) {
    const text = sourceOf(analysis, item.file).slice(data.quote.start, data.quote.end);
    // The text YAML misread, as the string it was meant to be.
    fixes.push(
      fixOf(item, 'Quote the text', 'safe', [
        textChange(item.file, data.quote.start, data.quote.end, JSON.stringify(text)),
      ]),
    );
  }
  if (item.code === missingScript.code) fixes.push(...createToolScriptFix(pkg, item));
  return fixes;
}

/** Adds `name: type = default` as the last field of the State class. */
function addFieldFix(analysis: SkillAnalysis, pkg: SkillPlusPackage, item: Diagnostic, name: string, type: string) {
  const state = pkg.state!;
  const root = state.root!;
  const stateText = sourceOf(analysis, state.file);
  const last = root.fields[root.fields.length - 1];
  const indent = last ? ' '.repeat(last.span.start - (stateText.lastIndexOf('\n', last.span.start - 1) + 1)) : '    ';
  const after = lineEndAt(stateText, last ? last.span.end : root.nameSpan.end);
  const line = `\n${indent}${name}: ${type} = ${DEFAULTS[type] ?? 'None'}`;
  return [
    fixOf(item, `Add \`${name}: ${type}\` to ${root.name}`, 'unsafe', [textChange(state.file, after, after, line)], {
      preferred: false,
    }),
  ];
}

/** `max_rounds=3` for a loop that has none: in the call (`flow.py`) or as a key of its mapping (`flow.yaml`). */
function maxRoundsFix(analysis: SkillAnalysis, pkg: SkillPlusPackage, item: Diagnostic): Fix[] {
  const flow = pkg.flow;
  const node = flow?.nodes.find((candidate) => candidate.kind === 'loop' && candidate.idSpan.start === item.span.start);
  if (!node || !flow) return [];
  if (flow.front === 'py') {
    const py = pkg.python.get(flow.file);
    let call = py?.tree.resolveInner(node.idSpan.start, 1) ?? null;
    while (call && call.name !== 'CallExpression') call = call.parent;
    const args = call?.getChild('ArgList');
    if (!py || !args || !pythonText(py, args).endsWith(')')) return [];
    return [
      fixOf(item, 'Add max_rounds=3', 'unsafe', [textChange(flow.file, args.to - 1, args.to - 1, ', max_rounds=3')]),
    ];
  }
  // flow.yaml: a key under the loop's `- loop: id` line, at the column of its other keys.
  const text = sourceOf(analysis, flow.file);
  const lineStart = text.lastIndexOf('\n', node.idSpan.start - 1) + 1;
  const keyColumn = /^\s*(-\s+)?/.exec(text.slice(lineStart))![0].length;
  const after = lineEndAt(text, node.idSpan.end);
  return [
    fixOf(item, 'Add max_rounds: 3', 'unsafe', [
      textChange(flow.file, after, after, `\n${' '.repeat(keyColumn)}max_rounds: 3`),
    ]),
  ];
}

/** A stub for a `tool="scripts/…"` that does not exist. */
function createToolScriptFix(pkg: SkillPlusPackage, item: Diagnostic): Fix[] {
  const node = pkg.flow?.nodes.find((candidate) =>
    candidate.tools.some((tool) => tool.span.start === item.span.start && tool.span.file === item.file),
  );
  const tool = node?.tools.find((candidate) => candidate.span.start === item.span.start);
  if (!node || !tool) return [];
  return createScriptFix(pkg.dir, item, {
    path: tool.value,
    step: node.id,
    ...(node.text?.value ? { description: node.text.value } : {}),
  });
}
