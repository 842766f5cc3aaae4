import * as path from 'node:path';
import { isProfileId, type ProfileId } from '../checks/profiles';
import { isRuleCode } from '../checks/rules';
import { isSeverityChoice, type SeverityMap } from '../checks/severities';

/** The settings the analyses are made with, as the server understood what the editor sent. */
export interface Settings {
  /** The profile the user chose, if any. */
  profile?: ProfileId;
  /** The user's severity overrides, by rule. */
  rules: SeverityMap;
  /** Absolute folders of skill folders MetaSkills may compose, besides the skills next to each MetaSkill. */
  catalogRoots: string[];
}

export const DEFAULT_SETTINGS: Settings = { rules: {}, catalogRoots: [] };

/**
 * The settings in what an editor sent (`ServerSettings`, unchecked): unknown codes, severities and profiles, and
 * values of the wrong type, are left out. Relative catalog roots start at `base` (the first workspace folder), as
 * VS Code settings usually do.
 */
export function readSettings(raw: unknown, base: string): Settings {
  const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const rules: SeverityMap = {};
  const given = typeof value.rules === 'object' && value.rules !== null ? (value.rules as Record<string, unknown>) : {};
  for (const [code, severity] of Object.entries(given))
    if (isRuleCode(code) && isSeverityChoice(severity)) rules[code] = severity;
  const catalogRoots = (Array.isArray(value.catalogRoots) ? value.catalogRoots : [])
    .filter((root): root is string => typeof root === 'string' && root !== '')
    .map((root) => path.resolve(base, root));
  const profile = typeof value.profile === 'string' && isProfileId(value.profile) ? value.profile : undefined;
  return { ...(profile ? { profile } : {}), rules, catalogRoots };
}
