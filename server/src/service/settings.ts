import * as path from 'node:path';
import { isProfileId, PROFILE_IDS, type ProfileId } from '../platforms/profiles';
import { isRuleCode, RULE_CODES, type RuleCode } from '../rules';
import { closestName } from '../checks/match/nameDistance';
import { isSeverityChoice, SEVERITY_CHOICES, type SeverityMap } from '../checks/engine/severities';

/** The settings the analyses are made with, as the server understood what the editor sent. */
export interface Settings {
  /** The profile the user chose, if any. */
  profile?: ProfileId;
  /** The user's severity overrides, by rule. */
  rules: SeverityMap;
  /** Absolute folders of skill folders MetaSkills may compose, besides the skills next to each MetaSkill. */
  catalogRoots: string[];
  /** The clients' user-level skill folders join the library (`~/.claude/skills`, `~/.agents/skills`). */
  userSkillFolders?: boolean;
}

export const DEFAULT_SETTINGS: Settings = { rules: {}, catalogRoots: [] };

/**
 * Where an editor puts settings: `initializationOptions` once at start, and the `skillgraph` section it answers
 * `workspace/configuration` with (or pushes in `workspace/didChangeConfiguration` when it cannot be asked).
 */
export type SettingsSource = 'initializationOptions' | 'workspace configuration';

/** What one place gave, as sent (unchecked); `undefined` or `null` when it gave nothing. */
export interface SettingsLayer {
  source: SettingsSource;
  raw: unknown;
}

/** One place's settings: only the keys it gave, each valid; what it gave that is not valid, in words. */
interface ReadLayer {
  profile?: ProfileId;
  rules?: SeverityMap;
  catalogRoots?: string[];
  userSkillFolders?: boolean;
  ignored: string[];
}

/** The valid value a refused one was most likely meant to be, said as a suggestion; nothing when none is close. */
function meant(value: unknown, valid: Iterable<string>): string {
  const closest = typeof value === 'string' ? closestName(value, valid) : undefined;
  return closest ? `; did you mean ${closest}?` : '';
}

function readLayer(raw: unknown, base: string): ReadLayer {
  const layer: ReadLayer = { ignored: [] };
  if (typeof raw !== 'object' || raw === null) return layer;
  const value = raw as Record<string, unknown>;
  if (value.profile !== undefined && value.profile !== null) {
    if (typeof value.profile === 'string' && isProfileId(value.profile)) layer.profile = value.profile;
    else
      layer.ignored.push(
        `profile ${JSON.stringify(value.profile)} (not a profile${meant(value.profile, PROFILE_IDS)})`,
      );
  }
  if (value.rules !== undefined && value.rules !== null) {
    if (typeof value.rules !== 'object' || Array.isArray(value.rules))
      layer.ignored.push('rules (not a map of codes to severities)');
    else {
      layer.rules = {};
      for (const [code, severity] of Object.entries(value.rules as Record<string, unknown>)) {
        if (!isRuleCode(code)) layer.ignored.push(`rules.${code} (no such rule${meant(code, RULE_CODES)})`);
        else if (!isSeverityChoice(severity))
          layer.ignored.push(`rules.${code} (not one of ${SEVERITY_CHOICES.join(', ')})`);
        else layer.rules[code] = severity;
      }
    }
  }
  if (value.catalogRoots !== undefined && value.catalogRoots !== null) {
    if (!Array.isArray(value.catalogRoots)) layer.ignored.push('catalogRoots (not a list of folders)');
    else
      layer.catalogRoots = value.catalogRoots
        .filter((root): root is string => typeof root === 'string' && root !== '')
        .map((root) => path.resolve(base, root));
  }
  if (value.userSkillFolders !== undefined && value.userSkillFolders !== null) {
    if (typeof value.userSkillFolders === 'boolean') layer.userSkillFolders = value.userSkillFolders;
    else layer.ignored.push('userSkillFolders (not true or false)');
  }
  return layer;
}

/** The settings an editor gave, and a line saying what they are and where each came from. */
export interface EditorSettings {
  settings: Settings;
  description: string;
  /** What the editor gave that could not be used, each in words with where it came from (and what was meant). */
  ignored: string[];
}

/**
 * The settings from every place an editor gave them (`ServerSettings`, unchecked: unknown codes, severities and
 * profiles, and values of the wrong type, are left out and named in the description), later layers winning key by
 * key (and rule by rule): editors differ in where they put them (VS Code and Neovim in the workspace configuration,
 * eglot and Helix often in `initializationOptions` with no `skillgraph` section), and a place that gives nothing
 * must not erase another. What no layer gives is left to the configuration file, then the defaults.
 */
export function editorSettings(layers: readonly SettingsLayer[], base: string): EditorSettings {
  const settings: Settings = { rules: {}, catalogRoots: [] };
  // Relative catalog roots start at `base` (the first workspace folder), as VS Code settings usually do.
  let profileFrom: SettingsSource | undefined;
  let rootsFrom: SettingsSource | undefined;
  let userFoldersFrom: SettingsSource | undefined;
  const rulesFrom: Partial<Record<RuleCode, SettingsSource>> = {};
  const ignored: string[] = [];
  for (const { source, raw } of layers) {
    const layer = readLayer(raw, base);
    if (layer.profile) [settings.profile, profileFrom] = [layer.profile, source];
    if (layer.catalogRoots) [settings.catalogRoots, rootsFrom] = [layer.catalogRoots, source];
    if (layer.userSkillFolders !== undefined)
      [settings.userSkillFolders, userFoldersFrom] = [layer.userSkillFolders, source];
    for (const [code, severity] of Object.entries(layer.rules ?? {}) as [RuleCode, SeverityMap[RuleCode]][]) {
      settings.rules[code] = severity;
      rulesFrom[code] = source;
    }
    ignored.push(...layer.ignored.map((what) => `${what} in ${source}`));
  }
  const rules = Object.entries(settings.rules).map(
    ([code, severity]) => `${code} ${severity} (${rulesFrom[code as RuleCode]})`,
  );
  const description = [
    `profile ${settings.profile ? `${settings.profile} (${profileFrom})` : 'not set'}`,
    `rules ${rules.length > 0 ? rules.join(', ') : 'not set'}`,
    `catalogRoots ${rootsFrom ? `${settings.catalogRoots.join(', ') || 'none'} (${rootsFrom})` : 'not set'}`,
    `userSkillFolders ${userFoldersFrom ? `${settings.userSkillFolders ? 'on' : 'off'} (${userFoldersFrom})` : 'not set'}`,
    ...(ignored.length > 0 ? [`ignored: ${ignored.join('; ')}`] : []),
  ].join('; ');
  return { settings, description, ignored };
}

/** The editor's settings as the settings given where Skillgraph runs: they win over the configuration files. */
export function explicitOf(settings: Settings) {
  return {
    ...(settings.profile ? { profile: settings.profile } : {}),
    rules: settings.rules,
    catalogs: settings.catalogRoots,
  };
}
