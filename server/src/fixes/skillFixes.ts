import { sourceOf, type SkillAnalysis } from '../analyze';
import type { Diagnostic } from '../checks/diagnostic';
import type { Fix } from '../checks/fix';
import { externalInput } from '../checks/graph/dataFlow';
import { aipLikeSkill } from '../formats/aip';
import { bindingOutOfScope } from '../formats/metaskill';
import { ruleOf } from '../rules';
import { addDependencyFix } from './compositionEdits';
import { packageFixes } from './packageFixes';
import { addAipMetadataFix, addOutputFixes } from './procedureFixes';

/** The fixes that edit a format's own structure: an AIP step's outputs, its metadata, a MetaSkill's `depends_on`. */
const STRUCTURE_FIXES: Record<string, (analysis: SkillAnalysis, item: Diagnostic) => Fix[]> = {
  [externalInput.code]: addOutputFixes,
  [aipLikeSkill.code]: addAipMetadataFix,
  [bindingOutOfScope.code]: addDependencyFix,
};

/**
 * Every fix of one finding, the preferred first: its rule's (from the text of the finding's file), then those that
 * edit the format's structure. Computed from the analysis (its model, YAML nodes and texts), never guessed from the
 * message; the editor offers them as quick fixes and `skillgraph fix` applies them.
 */
export function fixesFor(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
  const source = { text: sourceOf(analysis, item.file), frontmatter: analysis.frontmatter, model: analysis.model };
  return [
    ...(ruleOf(item.code)?.fix?.(item, source) ?? []),
    ...(STRUCTURE_FIXES[item.code]?.(analysis, item) ?? []),
    ...packageFixes(analysis, item),
  ];
}
