import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeSkill, type SkillAnalysis } from '../analyze';
import { createView, type DocumentView } from '../analysis/documentView';
import { IncrementalState } from '../incremental/incrementalState';
import type { SkillModel } from '../model/skillModel';
import { flatText, type TextLike } from '../parse/text/textLike';
import { AnalysisFileSystem } from '../workspace/diskSnapshot';
import { OverlayFileSystem } from '../workspace/overlayFileSystem';
import { type FileSystem } from '../workspace/fileSystem';
import type { SkillOptions } from '../config/runSettings';
import { formatOf } from '../formats';

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
  /** What each analysis of the skill leaves to the next. */
  incremental: IncrementalState;
  /** The skill's view of its folder, made at `made`, last found to match the disk at `since`. */
  folder?: { fs: AnalysisFileSystem; made: number; since: number };
  lastGood?: SkillModel;
}

/**
 * Analyses of the skills open documents belong to, keyed by the versions of
 * every open document in the skill folder and the settings, so every request
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
    /** How each skill is analysed (its settings and configuration), and a key that differs whenever that does. */
    private readonly optionsOf: (skillFile: string) => { options: SkillOptions; key: string },
  ) {}

  /**
   * The view of `document` in the skill whose SKILL.md is `skillFile`.
   * `open` are the open documents inside that skill's folder (the SKILL.md
   * among them when it is open): their unsaved text is what is analysed.
   */
  view(document: OpenDocument, skillFile: string, open: OpenDocument[]): DocumentView {
    const skill = open.find((item) => item.file === skillFile);
    const others = open.filter((item) => item.file !== skillFile).sort((a, b) => a.file.localeCompare(b.file));
    const { options, key: optionsKey } = this.optionsOf(skillFile);
    const key = `${optionsKey}|${skill?.version ?? 'disk'}|${others.map((item) => `${item.file}@${item.version}`).join(',')}`;
    let entry = this.skills.get(skillFile);
    if (!entry || entry.key !== key) {
      entry = this.analyze(skillFile, key, options, skill, others, entry);
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
    options: SkillOptions,
    skill: OpenDocument | undefined,
    others: OpenDocument[],
    previous: SkillEntry | undefined,
  ): SkillEntry {
    const incremental = previous?.incremental ?? new IncrementalState();
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
      ...options,
      incremental,
    });
    const lastGood = analysis.model.nodes.length > 0 ? analysis.model : previous?.lastGood;
    return { key, analysis, incremental, folder, ...(lastGood ? { lastGood } : {}) };
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

  /** Forgets the analyses that read the catalog (MetaSkills: the skills they compose changed); returns their URIs. */
  invalidateCatalogReaders(): string[] {
    return this.forget((skillFile) => {
      const analysis = this.skills.get(skillFile)?.analysis;
      return !!analysis && !!formatOf(analysis).readsCatalog;
    });
  }

  /** The open SKILL.md documents: what the library says of them may change with any skill (their analyses do not). */
  skillDocuments(): string[] {
    return [...this.views].filter(([uri, item]) => fileURLToPath(uri) === item.skillFile).map(([uri]) => uri);
  }

  /** Forgets every analysis (the settings or a configuration file changed); returns the URIs of their documents. */
  clear(): string[] {
    return this.forget(() => true);
  }

  private forget(affected: (skillFile: string) => boolean): string[] {
    const uris: string[] = [];
    for (const skillFile of [...this.skills.keys()].filter(affected)) {
      const entry = this.skills.get(skillFile)!;
      // What analyses reuse and the last good model outlive a change on disk; the folder view and the analysis do not.
      this.skills.set(skillFile, {
        key: '',
        analysis: entry.analysis,
        incremental: entry.incremental,
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
