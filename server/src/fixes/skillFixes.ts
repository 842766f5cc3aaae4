import { sourceOf, type SkillAnalysis } from '../analyze';
import type { Diagnostic } from '../checks/diagnostic';
import type { RuleCode } from '../checks/rules';
import { addDependencyFix } from './compositionEdits';
import { lineEndingsFix, removeMarkFix } from './fileFixes';
import { fixOf, textChange, type Fix } from './fix';
import { moveToMetadataFix } from './metadataFix';
import { packageFixes } from './packageFixes';
import { addAipMetadataFix, addOutputFixes, createStepScriptFix, restoreRuntimeBlockFix } from './procedureFixes';
import { suggestionFix } from './suggestionFix';
import { removeSuppressionFix } from './suppressionFixes';
import { blockCollectionFix, quoteValueFixes, quoteWrittenFix, removeListEntry } from './yamlFixes';

/** The findings whose `data.suggestion` names what was most likely meant. */
const SUGGESTING: ReadonlySet<RuleCode> = new Set<RuleCode>([
  'unknown_dependency',
  'unknown_step_reference',
  'input_name_typo',
  'unknown_type',
  'unknown_step_key',
  'unknown_skill',
  'unknown_output',
  'unknown_input',
  'unknown_filter',
  'invalid_substitute',
  'invalid_meta_step',
  'invalid_final_text_mode',
  'missing_file',
]);

/**
 * Every fix of one finding, the preferred first. Computed from the analysis
 * (its model, YAML nodes and texts), never guessed from the message; the
 * editor offers them as quick fixes and `skillgraph fix` applies them.
 */
export function fixesFor(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
  return [...commonFixes(analysis, item), ...packageFixes(analysis, item)];
}

/** The fixes of findings any format's files may have. */
function commonFixes(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
  const data = item.data ?? {};
  const text = sourceOf(analysis, item.file);
  if (item.code === 'unknown_frontmatter_key') {
    const renamed = suggestionFix(text, item);
    return [...renamed, ...moveToMetadataFix(text, analysis.frontmatter, item, renamed.length === 0)];
  }
  if (SUGGESTING.has(item.code)) return suggestionFix(text, item);
  switch (item.code) {
    case 'path_case_mismatch':
    case 'backslash_path':
      // The same file, named as every file system finds it.
      return typeof data.replacement === 'string'
        ? [
            fixOf(item, `Change to "${data.replacement}"`, 'safe', [
              textChange(item.file, item.span.start, item.span.end, data.replacement),
            ]),
          ]
        : [];
    case 'name_mismatch':
      return typeof data.expected === 'string'
        ? [
            fixOf(item, `Rename the skill to "${data.expected}" (its folder name)`, 'unsafe', [
              textChange(item.file, item.span.start, item.span.end, data.expected),
            ]),
          ]
        : [];
    case 'raw_user_message':
      return typeof data.insertAt === 'number'
        ? [
            fixOf(item, 'Escape it: insert "| xml_escape"', 'unsafe', [
              textChange(item.file, data.insertAt, data.insertAt, ' | xml_escape'),
            ]),
          ]
        : [];
    case 'placeholder_collision':
      // Claude Code keeps `\$1` as `$1`; other clients show the backslash, so it is offered, not applied unasked.
      return Array.isArray(data.escapes)
        ? [
            fixOf(
              item,
              `Write \\${text.slice(item.span.start, item.span.end)}${data.escapes.length > 1 ? ` (and the ${data.escapes.length - 1} more here)` : ''}`,
              'unsafe',
              data.escapes.map((at: number) => textChange(item.file, at, at, '\\')),
            ),
          ]
        : [];
    case 'unused_suppression':
      return removeSuppressionFix(text, item);
    case 'unquoted_colon':
      return quoteValueFixes(text, item);
    case 'portable_value':
      return quoteWrittenFix(item);
    case 'restricted_yaml':
      return blockCollectionFix(text, analysis.frontmatter, item);
    case 'utf8_bom':
      return removeMarkFix(item);
    case 'crlf_line_endings':
      return lineEndingsFix(text, item);
    case 'external_input':
      return addOutputFixes(analysis, item);
    case 'missing_script':
    case 'missing_resource':
      return item.file === analysis.file ? createStepScriptFix(analysis, item) : [];
    case 'aip_like_skill':
      return addAipMetadataFix(analysis, item);
    case 'runtime_block_modified':
      return restoreRuntimeBlockFix(item);
    case 'binding_out_of_scope':
      return addDependencyFix(analysis, item);
    case 'dependency_cycle':
      return typeof data.from === 'string'
        ? [
            fixOf(item, `Remove "${data.from}" from the dependencies of "${data.to}"`, 'unsafe', [
              removeListEntry(text, item.file, item.span),
            ]),
          ]
        : [];
    default:
      return [];
  }
}
