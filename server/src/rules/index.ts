import type { ProfileId } from '../platforms/profiles';
import type { Rule } from '../checks/engine/rule';
import type { SeverityMap } from '../checks/engine/severities';
import { RULES } from './catalog.generated';

// The catalog: every rule, read from the declarations beside the checks (catalog.generated.ts). Everything that needs
// rules as a set asks here: SARIF's rule list, the docs index, profiles, strict and preview severities, the codes a
// command line or a suppression may name.

export { RULES };

/** A diagnostic code: the code of a rule of the catalog. */
export type RuleCode = (typeof RULES)[number]['code'];

const BY_CODE: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.code, rule]));

/** Every code of the catalog: what a suppression comment may name. */
export const RULE_CODES: ReadonlySet<string> = new Set(BY_CODE.keys());

export function isRuleCode(code: string): code is RuleCode {
  return BY_CODE.has(code);
}

/** The rule of a code, when there is one. */
export function ruleOf(code: string): Rule | undefined {
  return BY_CODE.get(code);
}

/** The security rules: `check --only security` shows their findings, SARIF ranks them. */
export const SECURITY_RULES: readonly Rule[] = RULES.filter((rule) => rule.security !== undefined);

export function isSecurityCode(code: string): boolean {
  return BY_CODE.get(code)?.security !== undefined;
}

/** How an analysis's severities are decided: its profile, `--strict`, previews turned on, the user's choices. */
export interface SeverityChoices {
  strict?: boolean;
  /** Every preview rule on (the configuration's `preview: true`, `--preview`). */
  preview?: boolean;
  /** The user's severity for each rule they set (the configuration's and the editor's `rules`). */
  user?: SeverityMap;
}

/**
 * The severity maps of a set of rules, applied to findings in order (applySeverities): the profile's (each rule's
 * `profiles`), strict's, the preview rules off unless previews are on, then the user's, so that a rule the user names
 * is as they say, a preview rule included.
 */
export function severityMapsOf(
  rules: readonly Rule[],
): (profile: ProfileId, choices: SeverityChoices) => (SeverityMap | undefined)[] {
  const bySeverity = (pick: (rule: Rule) => SeverityMap[string]): SeverityMap =>
    Object.fromEntries(rules.flatMap((rule) => (pick(rule) ? [[rule.code, pick(rule)]] : [])));
  const strict = bySeverity((rule) => rule.strict);
  const previewOff = bySeverity((rule) => (rule.stability === 'preview' ? 'off' : undefined));
  const profiles = new Map<ProfileId, SeverityMap>();
  return (profile, choices) => {
    let ofProfile = profiles.get(profile);
    if (!ofProfile) profiles.set(profile, (ofProfile = bySeverity((rule) => rule.profiles?.[profile])));
    return [ofProfile, choices.strict ? strict : undefined, choices.preview ? undefined : previewOff, choices.user];
  };
}

/** The severity maps of the catalog's rules. */
export const severityMaps = severityMapsOf(RULES);

/** The severity maps of a skill's settings, for findings made outside its analysis (the library's). */
export function settingsSeverityMaps(settings: {
  profile?: { id: ProfileId };
  strict: boolean;
  preview: boolean;
  severities: SeverityMap;
}): (SeverityMap | undefined)[] {
  return severityMaps(settings.profile?.id ?? 'agentskills', { ...settings, user: settings.severities });
}
