import * as path from 'node:path';
import type { ProfileChoice, ProfileId } from '../platforms/profiles';
import type { SeverityMap } from '../checks/engine/severities';
import type { FileSystem } from '../workspace/fileSystem';
import { configFileIn, readConfig, type ModelEndpoint, type SkillgraphConfig } from './configFile';
import { Globs } from './globs';
import { profileFromLocation } from '../platforms/clients';

/** What the configuration says of one skill. */
export interface SkillConfig {
  /** The configuration file that governs the skill (the nearest one), if any. */
  file?: string;
  /** The profile the configuration or the skill's location chose; none when neither did. */
  profile?: ProfileChoice;
  strict: boolean;
  preview: boolean;
  /** The configuration's severities, then its overrides' for this skill. */
  severities: SeverityMap;
  /** An `ignore` glob matches the skill: it is not checked. */
  ignored: boolean;
  catalogs: string[];
  baseline?: string;
  model?: ModelEndpoint;
}

/** What `config` (the configuration nearest the skill, if any) says of the skill whose SKILL.md is `skillFile`. */
export function configForSkill(config: SkillgraphConfig | undefined, skillFile: string): SkillConfig {
  const located = profileFromLocation(skillFile);
  const fromLocation: ProfileChoice | undefined = located ? { id: located, source: 'location' } : undefined;
  if (!config)
    return {
      ...(fromLocation ? { profile: fromLocation } : {}),
      strict: false,
      preview: false,
      severities: {},
      ignored: false,
      catalogs: [],
    };
  const relativeTo = (base: string) => path.relative(base, path.resolve(skillFile)).split(path.sep).join('/');
  const ignored = config.ignore.some(({ base, glob }) => new Globs([glob]).matches(relativeTo(base)));
  let profile = config.profile;
  let strict = config.strict ?? false;
  let preview = config.preview ?? false;
  let severities: SeverityMap = { ...config.rules };
  for (const override of config.overrides) {
    if (!new Globs(override.files).matches(relativeTo(override.base))) continue;
    profile = override.profile ?? profile;
    strict = override.strict ?? strict;
    preview = override.preview ?? preview;
    severities = { ...severities, ...override.rules };
  }
  const chosen: ProfileChoice | undefined = profile ? { id: profile, source: 'config' } : fromLocation;
  return {
    file: config.file,
    ...(chosen ? { profile: chosen } : {}),
    strict,
    preview,
    severities,
    ignored,
    catalogs: config.catalogs,
    ...(config.baseline ? { baseline: config.baseline } : {}),
    ...(config.model ? { model: config.model } : {}),
  };
}

/**
 * The configurations of a tree of skills, each read once: the CLI keeps one
 * for a run, the language server one for its life, forgetting every
 * configuration when a configuration file changes.
 */
export class ConfigStore {
  private readonly nearest = new Map<string, string | undefined>();
  private readonly configs = new Map<string, SkillgraphConfig>();

  constructor(private readonly fs: FileSystem) {}

  /** The configuration file nearest to `dir`, each folder on the way up looked in once (skills share their parents). */
  private nearestFile(dir: string): string | undefined {
    if (this.nearest.has(dir)) return this.nearest.get(dir);
    const parent = path.dirname(dir);
    const file = configFileIn(this.fs, dir) ?? (parent === dir ? undefined : this.nearestFile(parent));
    this.nearest.set(dir, file);
    return file;
  }

  /** The configuration nearest to `dir`, read (and extended) once. */
  configOf(dir: string): SkillgraphConfig | undefined {
    const file = this.nearestFile(path.resolve(dir));
    if (!file) return undefined;
    let config = this.configs.get(file);
    if (!config) this.configs.set(file, (config = readConfig(this.fs, file)));
    return config;
  }

  /** What the nearest configuration says of the skill whose SKILL.md is `skillFile`. */
  forSkill(skillFile: string): SkillConfig {
    return configForSkill(this.configOf(path.dirname(path.resolve(skillFile))), skillFile);
  }

  /** The configurations read so far. */
  read(): SkillgraphConfig[] {
    return [...this.configs.values()];
  }

  /** Forgets everything read: a configuration file was created, changed or deleted. */
  clear(): void {
    this.nearest.clear();
    this.configs.clear();
  }
}

/** Settings given where the user runs Skillgraph (the CLI's flags, the editor's settings): they win over the file. */
export interface ExplicitSettings {
  profile?: ProfileId;
  strict?: boolean;
  preview?: boolean;
  rules?: SeverityMap;
  catalogs?: string[];
}

/** What one skill is checked with: explicit settings over its configuration over its location over the defaults. */
export interface EffectiveSettings {
  profile?: ProfileChoice;
  severities: SeverityMap;
  strict: boolean;
  /** The preview rules run (checks/engine/rule.ts): the configuration or `--preview` turned them on. */
  preview: boolean;
  /** Absolute folders of skill folders its MetaSkills may compose. */
  catalogs: string[];
  ignored: boolean;
  baseline?: string;
  configFile?: string;
  /** The language model `check --model` asks about this skill. */
  model?: ModelEndpoint;
}

export function effectiveSettings(explicit: ExplicitSettings, skill: SkillConfig): EffectiveSettings {
  const profile: ProfileChoice | undefined = explicit.profile
    ? { id: explicit.profile, source: 'setting' }
    : skill.profile;
  return {
    ...(profile ? { profile } : {}),
    severities: { ...skill.severities, ...explicit.rules },
    strict: explicit.strict ?? skill.strict,
    preview: explicit.preview ?? skill.preview,
    catalogs: [...(explicit.catalogs ?? []), ...skill.catalogs],
    ignored: skill.ignored,
    ...(skill.baseline ? { baseline: skill.baseline } : {}),
    ...(skill.file ? { configFile: skill.file } : {}),
    ...(skill.model ? { model: skill.model } : {}),
  };
}
