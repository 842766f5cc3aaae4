import { isSeq, type Node } from 'yaml';
import type { MetaAnalysis } from '../read/analysis';
import type { Diagnostic } from '../../../checks/engine/diagnostic';
import { lineEndAt } from '../../../parse/text/lineIndex';
import { nodeSpan, pairOf } from '../../../parse/yaml/yamlNodes';
import { fixOf, textChange, type Fix, type TextChange } from '../../../checks/engine/fix';
import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import type { MetaPlan } from '../read/metaPlan';

/**
 * The edit that adds `dependency` to the `depends_on` of MetaSkill step
 * `stepId` (composition form): into a flow list before its `]`, as a new
 * item of a block list, or as a new `depends_on` line after the step's `id`.
 * Undefined when the step cannot be found in the current text.
 */
export function addDependencyEdit(
  analysis: AnalysisBase & { metaPlan?: MetaPlan },
  stepId: string,
  dependency: string,
): TextChange | undefined {
  const { metaPlan, frontmatter, text, file } = analysis;
  const step =
    metaPlan?.form === 'composition' ? metaPlan.steps.find((candidate) => candidate.id === stepId) : undefined;
  if (!step?.node || !frontmatter) return undefined;
  const at = (offset: number, newText: string) => textChange(file, offset, offset, newText);
  const pair = pairOf(step.node, 'depends_on');
  const list = pair?.value as Node | null | undefined;
  if (isSeq(list)) {
    const span = nodeSpan(frontmatter, list)!;
    if ((list as { flow?: boolean }).flow) {
      const close = text.lastIndexOf(']', span.end);
      return at(close, list.items.length > 0 ? `, ${dependency}` : dependency);
    }
    const last = list.items[list.items.length - 1] as Node;
    const lastSpan = nodeSpan(frontmatter, last)!;
    const lineStart = text.lastIndexOf('\n', lastSpan.start - 1) + 1;
    const dash = /^\s*-\s*/.exec(text.slice(lineStart, lastSpan.start))?.[0] ?? '- ';
    return at(lineEndAt(text, lastSpan.start), `\n${dash}${dependency}`);
  }
  const idKey = nodeSpan(frontmatter, pairOf(step.node, 'id')?.key);
  if (!idKey) return undefined;
  const column = idKey.start - (text.lastIndexOf('\n', idKey.start - 1) + 1);
  if (pair) {
    // `depends_on:` with no value yet.
    const keyEnd = nodeSpan(frontmatter, pair.key)!.end;
    return at(lineEndAt(text, keyEnd), ` [${dependency}]`);
  }
  return at(lineEndAt(text, idKey.start), `\n${' '.repeat(column)}depends_on: [${dependency}]`);
}

/** A binding to a step that may not have run: add that step to the consumer's `depends_on`. */
export function addDependencyFix(analysis: MetaAnalysis, item: Diagnostic): Fix[] {
  const { producer, consumer } = (item.data ?? {}) as { producer?: string; consumer?: string };
  const edit = producer && consumer ? addDependencyEdit(analysis, consumer, producer) : undefined;
  return edit ? [fixOf(item, `Add "${producer}" to the depends_on of "${consumer}"`, 'unsafe', [edit])] : [];
}
