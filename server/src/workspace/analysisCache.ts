import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeSkill } from '../analyze';
import type { ProfileId } from '../checks/profiles';
import { createView, type DocumentView } from '../features/documentView';
import type { SkillModel } from '../model/skillModel';
import { AnalysisFileSystem, type FileSystem } from './fileSystem';
import type { SkillCatalog } from './skillCatalog';
import { YamlChunkCache } from '../parse/yamlChunks';

/** How long a document's view of its folder is trusted without a file event. */
const FOLDER_VIEW_MS = 2000;

interface Entry {
  key: string;
  view: DocumentView;
}


/**
 * Analyses of open SKILL.md documents, keyed by document version and
 * profile, so every request on an unchanged document reuses one analysis.
 * Knows which skill folder each document owns, so a change to any file in
 * that folder (a script created, a reference deleted) invalidates exactly
 * the skills that can name it.
 */
export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();
  private readonly lastGood = new Map<string, SkillModel>();
  /** Parsed YAML chunks per document, reused across its versions. */
  private readonly yamlCaches = new Map<string, YamlChunkCache>();
  /**
   * Folder listings and link targets per document, reused across its
   * versions while the user types: dropped when a watched file in its folder
   * changes, and after a few seconds anyway, for clients that do not watch files.
   */
  private readonly folderViews = new Map<string, { fs: AnalysisFileSystem; since: number }>();

  constructor(private readonly fs: FileSystem, private readonly catalog: SkillCatalog) {}

  /** The analysis of `text` at `version`, reusing the cached one when nothing changed. */
  view(uri: string, version: number, text: string, profile: ProfileId): DocumentView {
    const key = `${version}:${profile}`;
    const cached = this.entries.get(uri);
    if (cached && cached.key === key) return cached.view;
    let yamlCache = this.yamlCaches.get(uri);
    if (!yamlCache) {
      yamlCache = new YamlChunkCache();
      this.yamlCaches.set(uri, yamlCache);
    }
    let folder = this.folderViews.get(uri);
    if (!folder || Date.now() - folder.since > FOLDER_VIEW_MS) {
      folder = { fs: new AnalysisFileSystem(this.fs), since: Date.now() };
      this.folderViews.set(uri, folder);
    }
    const analysis = analyzeSkill(folder.fs, fileURLToPath(uri), { text, profile, yamlCache, catalog: this.catalog });
    const view = createView(uri, version, analysis, this.fs);
    this.entries.set(uri, { key, view });
    if (analysis.model.nodes.length > 0) this.lastGood.set(uri, analysis.model);
    return view;
  }

  /** The last model with steps, for completion while the current text does not parse. */
  lastGoodModel(uri: string): SkillModel | undefined {
    return this.lastGood.get(uri);
  }

  /** Forgets the analyses of skills whose folder holds `changedFile`; returns their URIs. */
  invalidateFolderOf(changedFile: string): string[] {
    const affected: string[] = [];
    for (const uri of this.entries.keys()) {
      const dir = path.dirname(fileURLToPath(uri));
      const relative = path.relative(dir, changedFile);
      if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
        this.entries.delete(uri);
        this.folderViews.delete(uri);
        affected.push(uri);
      }
    }
    return affected;
  }

  /** Forgets the analyses of MetaSkills (the catalog they compose from changed); returns their URIs. */
  invalidateMetaSkills(): string[] {
    const affected = [...this.entries].filter(([, entry]) => entry.view.analysis.metaPlan).map(([uri]) => uri);
    for (const uri of affected) this.entries.delete(uri);
    return affected;
  }

  /** Forgets every analysis (settings changed). */
  clear(): string[] {
    const uris = [...this.entries.keys()];
    this.entries.clear();
    this.folderViews.clear();
    return uris;
  }

  close(uri: string): void {
    this.entries.delete(uri);
    this.lastGood.delete(uri);
    this.yamlCaches.delete(uri);
    this.folderViews.delete(uri);
  }
}
