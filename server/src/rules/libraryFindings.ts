import type { Diagnostic } from '../checks/engine/diagnostic';
import { applySeverities } from '../checks/engine/severities';
import { applySuppressions, type SuppressionPass } from '../checks/engine/suppressions';
import type { TextLike } from '../parse/text/textLike';
import { RULE_CODES, RULES, settingsSeverityMaps } from './index';

// The library's findings are made after each skill's analysis, from all the skills at once; in a skill they are
// reported as its own are: silenced by its suppression comments, with its settings' severities.

/** The codes of the library's rules. */
export const LIBRARY_CODES: ReadonlySet<string> = new Set(
  RULES.filter((rule) => rule.category === 'library').map((rule) => rule.code),
);

/** A skill's analysis judges every suppression but those naming a library code, which the library's pass judges. */
export const SKILL_SUPPRESSIONS: SuppressionPass = {
  judges: (code) => !LIBRARY_CODES.has(code),
  judgesEveryCode: true,
};

const LIBRARY_SUPPRESSIONS: SuppressionPass = { judges: (code) => LIBRARY_CODES.has(code), judgesEveryCode: false };

/**
 * The library's findings in one SKILL.md (`file`, whose text is `text`) as the skill reports them: without those its
 * comments silence, with an `unused_suppression` for each comment naming a library code that silences none, at the
 * severities of its settings (`off` drops one).
 */
export function libraryFindingsIn(
  file: string,
  text: TextLike,
  findings: Diagnostic[],
  settings: Parameters<typeof settingsSeverityMaps>[0],
): Diagnostic[] {
  const kept = applySuppressions(findings, new Map([[file, text]]), RULE_CODES, LIBRARY_SUPPRESSIONS);
  return applySeverities(kept, ...settingsSeverityMaps(settings));
}
