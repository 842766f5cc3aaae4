import type { SkillplusAnalysis } from '../read/analysis';
import { sourceOf } from '../../../analysis/skillAnalysis';
import type { Diagnostic } from '../../../checks/engine/diagnostic';
import { lineEndAt } from '../../../parse/text/lineIndex';
import { textOf as pythonText } from '../../../parse/python/python';
import { fixOf, textChange, type Fix } from '../../../checks/engine/fix';
import { createScriptFix } from '../../../checks/edits/scriptStub';
import { type SkillPlusPackage } from '../read/readPackage';

/** The default written for a field of each type the fix adds. */
const DEFAULTS: Record<string, string> = {
  str: '""',
  bool: 'False',
  float: '0.0',
  'list[str]': '[]',
  'str | None': 'None',
};

/** What a skill+ finding carries for its fixes. */
interface FixData {
  /** A State field to add, and the type its use asks for. */
  field?: string;
  fieldType?: string;
  /** A loop without `max_rounds`. */
  addMaxRounds?: boolean;
}

/** A missing top-level State field, added with the type its use asks for. */
export function addStateFieldFix(analysis: SkillplusAnalysis, item: Diagnostic): Fix[] {
  const { field, fieldType } = (item.data ?? {}) as FixData;
  const pkg = analysis.skillplus;
  return field && fieldType && pkg.state?.root ? addFieldFix(analysis, pkg, item, field, fieldType) : [];
}

/** A loop without a bound, given `max_rounds`. */
export function addMaxRoundsFix(analysis: SkillplusAnalysis, item: Diagnostic): Fix[] {
  return (item.data as FixData | undefined)?.addMaxRounds ? maxRoundsFix(analysis, analysis.skillplus, item) : [];
}

/** A stub for a `tool="scripts/…"` that does not exist. */
export function createToolScriptFix(analysis: SkillplusAnalysis, item: Diagnostic): Fix[] {
  const pkg = analysis.skillplus;
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

/** Adds `name: type = default` as the last field of the State class. */
function addFieldFix(analysis: SkillplusAnalysis, pkg: SkillPlusPackage, item: Diagnostic, name: string, type: string) {
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
function maxRoundsFix(analysis: SkillplusAnalysis, pkg: SkillPlusPackage, item: Diagnostic): Fix[] {
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
