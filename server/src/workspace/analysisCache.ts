import * as path from 'node:path';
import { analyzeSkill, type SkillAnalysis } from '../analyze';
import type { ProfileId } from '../checks/profiles';
import { createView, type DocumentView } from '../features/documentView';
import { ModelCache } from '../model/modelCache';
import type { SkillModel } from '../model/skillModel';
import { ParseCache } from '../parse/parseCache';
import { flatText, type TextLike } from '../parse/textLike';
import { YamlChunkCache } from '../parse/yamlChunks';
import { AnalysisFileSystem, OverlayFileSystem, type FileSystem } from './fileSystem';
import type { SkillCatalog } from './skillCatalog';

/** How long a skill's view of its folder is trusted without a file event; then it is checked against the disk. */
const FOLDER_VIEW_MS = 2000;
/** How long a view that still matches the disk is kept: what it remembers of paths typed and gone does not pile up. */
const FOLDER_VIEW_MAX_MS = 60_000;

/** An open document: its URI, file, version and text (the server's pieces, or a string). */
export interface OpenDocument {
  uri: string;
  file: string;
  version: number;
  text: TextLike;
}

interface SkillEntry {
  key: string;
  analysis: SkillAnalysis;
  yamlCache: YamlChunkCache;
  parseCache: ParseCache;
  modelCache: ModelCache;
  /** The skill's view of its folder, made at `made`, last found to match the disk at `since`. */
  folder?: { fs: AnalysisFileSystem; made: number; since: number };
  lastGood?: SkillModel;
}

/**
 * Analyses of the skills open documents belong to, keyed by the versions of
 * every open document in the skill folder and the profile, so every request
 * on unchanged documents reuses one analysis. A skill+ package is one
 * analysis however many of its files are open; each open document gets its
 * own view of it. A change to any file in a skill folder (a script created,
 * a reference deleted) invalidates exactly the skills that can name it.
 */
export class AnalysisCache {
  private readonly skills = new Map<string, SkillEntry>();
  private readonly views = new Map<string, { key: string; skillFile: string; view: DocumentView }>();

  constructor(
    private readonly fs: FileSystem,
    private readonly catalog: SkillCatalog,
  ) {}

  /**
   * The view of `document` in the skill whose SKILL.md is `skillFile`.
   * `open` are the open documents inside that skill's folder (the SKILL.md
   * among them when it is open): their unsaved text is what is analysed.
   */
  view(document: OpenDocument, skillFile: string, open: OpenDocument[], profile: ProfileId): DocumentView {
    const skill = open.find((item) => item.file === skillFile);
    const others = open.filter((item) => item.file !== skillFile).sort((a, b) => a.file.localeCompare(b.file));
    const key = `${profile}|${skill?.version ?? 'disk'}|${others.map((item) => `${item.file}@${item.version}`).join(',')}`;
    let entry = this.skills.get(skillFile);
    if (!entry || entry.key !== key) {
      entry = this.analyze(skillFile, key, skill, others, profile, entry);
      this.skills.set(skillFile, entry);
    }
    const viewKey = `${key}|${document.version}`;
    const cached = this.views.get(document.uri);
    if (cached && cached.key === viewKey && cached.skillFile === skillFile) return cached.view;
    const view = createView(
      document.uri,
      document.version,
      entry.analysis,
      this.fs,
      document.file,
      document.file === skillFile ? entry.analysis.source : document.text,
      cached?.view,
    );
    this.views.set(document.uri, { key: viewKey, skillFile, view });
    return view;
  }

  private analyze(
    skillFile: string,
    key: string,
    skill: OpenDocument | undefined,
    others: OpenDocument[],
    profile: ProfileId,
    previous: SkillEntry | undefined,
  ): SkillEntry {
    const yamlCache = previous?.yamlCache ?? new YamlChunkCache();
    const parseCache = previous?.parseCache ?? new ParseCache();
    const modelCache = previous?.modelCache ?? new ModelCache();
    const now = Date.now();
    let folder = previous?.folder;
    // A view whose time is up is asked again of the disk, not made anew: while nothing changed, the findings kept on
    // its answers stand, and the keystroke that finds it expired costs a few listings, not every finding about the
    // disk.
    if (folder && now - folder.since > FOLDER_VIEW_MS)
      folder =
        now - folder.made <= FOLDER_VIEW_MAX_MS && folder.fs.matchesDisk() ? { ...folder, since: now } : undefined;
    folder ??= { fs: new AnalysisFileSystem(this.fs, true), made: now, since: now };
    const disk =
      others.length > 0
        ? new OverlayFileSystem(folder.fs, new Map(others.map((item) => [item.file, flatText(item.text)])))
        : folder.fs;
    const analysis = analyzeSkill(disk, skillFile, {
      ...(skill ? { text: skill.text } : {}),
      profile,
      yamlCache,
      parseCache,
      modelCache,
      catalog: this.catalog,
    });
    const lastGood = analysis.model.nodes.length > 0 ? analysis.model : previous?.lastGood;
    return { key, analysis, yamlCache, parseCache, modelCache, folder, ...(lastGood ? { lastGood } : {}) };
  }

  /**
   * The last model with steps of the skill a document belongs to, for completion while the current text does not parse.
   */
  lastGoodModel(uri: string): SkillModel | undefined {
    const view = this.views.get(uri);
    return view ? this.skills.get(view.skillFile)?.lastGood : undefined;
  }

  /** The open documents whose views belong to the skill `skillFile`. */
  urisOfSkill(skillFile: string): string[] {
    return [...this.views].filter(([, item]) => item.skillFile === skillFile).map(([uri]) => uri);
  }

  /** The SKILL.md the open document `uri` was last analysed with, if any. */
  skillOf(uri: string): string | undefined {
    return this.views.get(uri)?.skillFile;
  }

  /** Forgets the analyses of skills whose folder holds `changedFile`; returns the URIs of their open documents. */
  invalidateFolderOf(changedFile: string): string[] {
    return this.forget((skillFile) => {
      const relative = path.relative(path.dirname(skillFile), changedFile);
      return !relative.startsWith('..') && !path.isAbsolute(relative);
    });
  }

  /** Forgets the analyses of MetaSkills (the catalog they compose from changed); returns their URIs. */
  invalidateMetaSkills(): string[] {
    return this.forget((skillFile) => !!this.skills.get(skillFile)?.analysis.metaPlan);
  }

  /** Forgets every analysis (settings changed). */
  clear(): string[] {
    return this.forget(() => true);
  }

  private forget(affected: (skillFile: string) => boolean): string[] {
    const uris: string[] = [];
    for (const skillFile of [...this.skills.keys()].filter(affected)) {
      const entry = this.skills.get(skillFile)!;
      // The YAML chunks and the last good model outlive a change on disk; the folder view and the analysis do not.
      this.skills.set(skillFile, {
        key: '',
        analysis: entry.analysis,
        yamlCache: entry.yamlCache,
        parseCache: entry.parseCache,
        modelCache: entry.modelCache,
        ...(entry.lastGood ? { lastGood: entry.lastGood } : {}),
      });
      uris.push(...this.urisOfSkill(skillFile));
    }
    for (const uri of uris) this.views.delete(uri);
    return uris;
  }

  close(uri: string): void {
    const view = this.views.get(uri);
    this.views.delete(uri);
    if (view && this.urisOfSkill(view.skillFile).length === 0) this.skills.delete(view.skillFile);
  }
}
