import { sourceOf, type AnalysisBase } from '../analysis/skillAnalysis';
import type { Diagnostic } from '../checks/engine/diagnostic';
import type { Fix } from '../checks/engine/fix';
import { formatOf } from '../formats';
import { ruleOf } from '../rules';

/**
 * Every fix of one finding, the preferred first: its rule's (from the text of the finding's file), then those its
 * format makes by editing its own structure. Computed from the analysis (its model, YAML nodes and texts), never
 * guessed from the message; the editor offers them as quick fixes and `skillgraph fix` applies them.
 */
export function fixesFor(analysis: AnalysisBase, item: Diagnostic): Fix[] {
  const rule = ruleOf(item.code);
  if (!rule) return [];
  const source = { text: sourceOf(analysis, item.file), frontmatter: analysis.frontmatter, model: analysis.model };
  return [...(rule.fix?.(item, source) ?? []), ...(formatOf(analysis).fixes?.get(rule)?.(analysis, item) ?? [])];
}
