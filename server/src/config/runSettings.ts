import * as path from 'node:path';
import type { ProfileChoice } from '../platforms/profiles';
import type { SeverityMap } from '../checks/engine/severities';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { readBaseline, type Baseline } from './baseline';
import { ConfigStore, effectiveSettings, type EffectiveSettings, type ExplicitSettings } from './skillConfig';
import type { FileSystem } from '../workspace/fileSystem';
import { SkillCatalog } from '../workspace/skillCatalog';

/** How one skill is analysed: what `analyzeSkill` takes of the settings. */
export interface SkillOptions {
  profile?: ProfileChoice;
  severities: SeverityMap;
  strict: boolean;
  /** Run the preview rules; absent: only the stable ones (and the preview rules the severities name). */
  preview?: boolean;
  catalog: SkillCatalog;
}

/**
 * What each skill is checked with: the settings given where Skillgraph runs
 * (the CLI's flags, the editor's settings), over the configuration file
 * nearest the skill (each read once), over the profile of the folder it is
 * in. The CLI makes one per thread of a run, the language server one per
 * version of its settings.
 */
export class RunSettings {
  private readonly configs: ConfigStore;
  private readonly catalogs = new Map<string, SkillCatalog>();
  private readonly baselines = new Map<string, Baseline | undefined>();

  constructor(
    private readonly fs: FileSystem,
    private readonly explicit: ExplicitSettings,
  ) {
    this.configs = new ConfigStore(fs);
  }

  forSkill(skillFile: string): EffectiveSettings {
    return effectiveSettings(this.explicit, this.configs.forSkill(skillFile));
  }

  /** How to analyse the skill: its profile, severities and strictness, and the catalog its MetaSkills compose from. */
  analyzeOptions(skillFile: string): SkillOptions {
    const settings = this.forSkill(skillFile);
    return {
      ...(settings.profile ? { profile: settings.profile } : {}),
      severities: settings.severities,
      strict: settings.strict,
      preview: settings.preview,
      catalog: this.catalogOf(settings.catalogs),
    };
  }

  /** One catalog per set of roots for the whole run: each folder of skills is listed and read once. */
  private catalogOf(roots: string[]): SkillCatalog {
    const key = roots.map((root) => path.resolve(root)).join('\0');
    let catalog = this.catalogs.get(key);
    if (!catalog) this.catalogs.set(key, (catalog = new SkillCatalog(this.fs, roots)));
    return catalog;
  }

  /** Every catalog in use, so a skill created or deleted reaches each. */
  allCatalogs(): SkillCatalog[] {
    return [...this.catalogs.values()];
  }

  /**
   * The baseline of the skill's configuration, read once; none when it names none, or names a file that is not a
   * baseline (the CLI says why; the editor then shows every finding).
   */
  baselineFor(skillFile: string): Baseline | undefined {
    const file = this.forSkill(skillFile).baseline;
    if (file === undefined) return undefined;
    if (!this.baselines.has(file)) {
      const read = readBaseline(this.fs, file);
      this.baselines.set(file, 'error' in read ? undefined : read);
    }
    return this.baselines.get(file);
  }

  /** Whether `file` is a baseline read so far. */
  isBaseline(file: string): boolean {
    return this.baselines.has(file);
  }

  /** Forgets the configurations and baselines read (one was created, changed or deleted). */
  forgetConfigs(): void {
    this.configs.clear();
    this.baselines.clear();
  }

  /** The mistakes in the configuration files read so far, each in its file. */
  configDiagnostics(): Diagnostic[] {
    // A file two configurations extend is read by each: its mistakes are reported once.
    const unique = new Map<string, Diagnostic>();
    for (const config of this.configs.read())
      for (const item of config.diagnostics) unique.set(`${item.file}:${item.span.start}:${item.message}`, item);
    return [...unique.values()];
  }
}
