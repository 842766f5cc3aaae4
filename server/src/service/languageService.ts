import { homedir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  type Diagnostic as LspDiagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type Location,
  type Position,
  type Range,
  type SelectionRange,
  type SymbolInformation,
  type WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { DocumentView } from '../analysis/documentView';
import { documentDiagnostics } from '../features/lspDiagnostics';
import { RenameError } from '../document/renameError';
import { featuresOf, type DocumentFeatures } from '../features/documentFeatures';
import type { FileSystem } from '../workspace/fileSystem';
import { CONFIG_FILE_NAMES } from '../config/configFile';
import { RunSettings } from '../config/runSettings';
import { configDiagnostics, isConfigDocument } from './configDocument';
import { AnalysisCache } from './analysisCache';
import { baselinedFindings } from './baselinedFindings';
import type { Cancellation, FileChange, OpenDocuments } from './editorTypes';
import { DEFAULT_SETTINGS, explicitOf, type Settings } from './settings';
import { LibraryIndex } from './libraryIndex';
import { Revisions } from './revisions';
import { SkillIndex } from './skillIndex';
import { codeLensesOf } from './codeLenses';
import type { RequestContext } from './customRequests';
import { DocumentViews } from './documentViews';

/** An open document's findings, and the version of its text they are about. */
export interface DiagnosticsReport {
  version: number | null;
  items: LspDiagnostic[];
  /** The library is still being read (see readLibrary): its findings are not among these yet. */
  libraryUnread?: true;
}

/**
 * The language server's state and its one entry per feature: the open documents' analyses, the workspace's skills and
 * the settings. Each request names a document (and a position or range in it): the service finds the skill it belongs
 * to, analyses it (or reuses the analysis of the same versions), picks the features of that kind of document once (a
 * SKILL.md, or another file of a skill+ package: `featuresOf`) and answers. A request on a document of no skill, or one
 * cancelled, gets the empty answer; an exception is logged and gets it too, never reaching the editor as a crash,
 * except a refused rename (`RenameError`), whose reason the editor shows.
 */
export class LanguageService {
  private readonly cache: AnalysisCache;
  /** The analysed view of each open document (documentViews.ts). */
  private readonly views: DocumentViews;
  private readonly index: SkillIndex;
  /** The workspace's skills as one library: what a skill says of the others. */
  private readonly library: LibraryIndex;
  /** The open skills as they were at git revisions (the preview's changes since one). */
  private readonly revisions = new Revisions();
  private current: Settings = DEFAULT_SETTINGS;
  /** What each skill is analysed with: the editor's settings over the configuration files. */
  private bySkill: RunSettings;
  /** Counts the settings and configurations analyses were made with: a new one makes every analysis again. */
  private generation = 0;

  constructor(
    private readonly fs: FileSystem,
    private readonly documents: OpenDocuments,
    private readonly logError: (message: string) => void,
    /** Where each diagnostic code's docs page is (`<docsBase>/<code>.md`), linked from every diagnostic. */
    private readonly docsBase?: string,
  ) {
    this.bySkill = new RunSettings(fs, explicitOf(DEFAULT_SETTINGS));
    this.cache = new AnalysisCache(fs, (skillFile) => this.optionsOf(skillFile));
    this.views = new DocumentViews(fs, documents, this.cache);
    this.index = new SkillIndex(fs);
    this.library = new LibraryIndex(fs, homedir());
  }

  /** The settings analyses are made with. */
  get settings(): Settings {
    return this.current;
  }

  /** The workspace folders, whose skills workspace symbols list. */
  setWorkspaceFolders(roots: string[]): void {
    this.index.setRoots(roots);
    this.library.setRoots(roots);
  }

  /** Analyses from now on use `settings`; returns the open documents whose findings may have changed. */
  configure(settings: Settings): string[] {
    this.current = settings;
    this.bySkill = new RunSettings(this.fs, explicitOf(settings));
    this.generation++;
    this.index.invalidate();
    this.library.clear(settings.userSkillFolders === true);
    return this.cache.clear();
  }

  /** How a skill is analysed, and a key that differs whenever that does. */
  private optionsOf(skillFile: string) {
    const { profile, severities, strict, preview, catalogs } = this.bySkill.forSkill(skillFile);
    return {
      options: this.bySkill.analyzeOptions(skillFile),
      key: `${this.generation}|${JSON.stringify([profile, severities, strict, preview, catalogs])}`,
    };
  }

  /**
   * The findings in an open document, and the version of the text they are about: a skill's file (none when its
   * configuration ignores the skill), or a configuration file; null for any other document.
   */
  diagnostics(uri: string, token?: Cancellation): DiagnosticsReport | null {
    const document = this.documents.get(uri);
    if (document && isConfigDocument(uri) && !token?.isCancellationRequested)
      return { version: document.version, items: configDiagnostics(this.fs, uri, document.text, this.docsBase) };
    return this.run(uri, token, null, (view) => {
      const version = view.version;
      if (this.bySkill.forSkill(view.analysis.file).ignored) return { version, items: [] };
      const own = documentDiagnostics(view, this.docsBase, baselinedFindings(this.bySkill, view.analysis));
      const library = this.library.diagnostics(view, this.bySkill, this.docsBase);
      return library ? { version, items: [...own, ...library] } : { version, items: own, libraryUnread: true };
    });
  }

  /**
   * Reads up to `count` more skills of a library too large to read before a document's findings (`libraryUnread`);
   * once it is read, the open skill documents, which may have findings of the library (undefined until then).
   */
  readLibrary(count: number): string[] | undefined {
    return this.guarded([], () => (this.library.readSome(count) ? this.cache.skillDocuments() : undefined));
  }

  definition(uri: string, position: Position, token?: Cancellation): Location[] {
    return this.run(uri, token, [], (view, features) => {
      const offset = offsetOf(view, position);
      const own = features.definition(view, offset);
      return own.length > 0 ? own : this.library.definition(view, offset);
    });
  }

  references(uri: string, position: Position, includeDeclaration: boolean, token?: Cancellation): Location[] {
    return this.run(uri, token, [], (view, features) => {
      const offset = offsetOf(view, position);
      return [...features.references(view, offset, includeDeclaration), ...this.library.references(view, offset)];
    });
  }

  hover(uri: string, position: Position, token?: Cancellation): Hover | null {
    return this.run(uri, token, null, (view, features) => {
      const offset = offsetOf(view, position);
      return features.hover(view, offset) ?? this.library.hover(view, offset);
    });
  }

  completion(uri: string, position: Position, token?: Cancellation): CompletionItem[] {
    return this.run(uri, token, [], (view, features) => {
      const lastGoodModel = this.cache.lastGoodModel(uri);
      const context = {
        ...(lastGoodModel ? { lastGoodModel } : {}),
        catalog: this.bySkill.analyzeOptions(view.analysis.file).catalog.forSkill(view.analysis.dir),
      };
      const offset = offsetOf(view, position);
      return [...features.completion(view, offset, context), ...this.library.completion(view, offset)];
    });
  }

  /** The code actions at `range`, of the kinds `only` (none: every kind). */
  codeActions(uri: string, range: Range, only?: readonly string[], token?: Cancellation): CodeAction[] {
    return this.run(uri, token, [], (view, features) =>
      features.codeActions(view, { start: offsetOf(view, range.start), end: offsetOf(view, range.end) }, only),
    );
  }

  documentSymbols(uri: string, token?: Cancellation): DocumentSymbol[] {
    return this.run(uri, token, [], (view, features) => features.symbols(view));
  }

  prepareRename(uri: string, position: Position, token?: Cancellation): { range: Range; placeholder: string } | null {
    return this.run(uri, token, null, (view, features) => {
      const offset = offsetOf(view, position);
      return this.library.prepareRename(view, offset) ?? features.prepareRename(view, offset);
    });
  }

  /** A skill renamed across the library, or a step or a value in its skill; `RenameError` when refused. */
  rename(uri: string, position: Position, newName: string, token?: Cancellation): WorkspaceEdit | null {
    return this.run(uri, token, null, (view, features) => {
      const offset = offsetOf(view, position);
      return this.library.rename(view, offset, newName) ?? features.rename(view, offset, newName);
    });
  }

  /** What renaming files and folders (old → new URIs) changes in the workspace's skills: a skill's folder. */
  willRenameFiles(files: { oldUri: string; newUri: string }[]): WorkspaceEdit | null {
    return this.guarded(null, () => this.library.willRenameFiles(files));
  }

  foldingRanges(uri: string, token?: Cancellation): FoldingRange[] {
    return this.run(uri, token, [], (view, features) => features.foldingRanges(view));
  }

  selectionRanges(uri: string, positions: Position[], token?: Cancellation): SelectionRange[] {
    return this.run(uri, token, [], (view, features) =>
      features.selectionRanges(
        view,
        positions.map((position) => offsetOf(view, position)),
      ),
    );
  }

  /** The lenses of a document, each with the client command that does what it says (protocol's `LensCommands`). */
  codeLenses(uri: string, token?: Cancellation): CodeLens[] {
    return this.run(uri, token, [], (view, features) => codeLensesOf(uri, features.lenses(view)));
  }

  /** The skills of the workspace folders and their steps whose names hold `query`. */
  workspaceSymbols(query: string, token?: Cancellation): SymbolInformation[] {
    return token?.isCancellationRequested ? [] : this.index.search(query);
  }

  /**
   * What the `skillgraph/*` requests are answered from (customRequests.ts): the views of open documents and the
   * state they need.
   */
  get requests(): RequestContext {
    return {
      fs: this.fs,
      bySkill: this.bySkill,
      explicit: explicitOf(this.current),
      revisions: this.revisions,
      library: this.library,
      onView: (uri, empty, answer) => this.run(uri, undefined, empty, answer),
      guarded: (empty, answer) => this.guarded(empty, answer),
      openViews: () => this.documents.all().flatMap((document) => this.views.viewOf(document.uri) ?? []),
      analysisKey: (view) => this.optionsOf(view.analysis.file).key,
    };
  }

  /** An open document changed (or opened): the open documents of its skill, whose findings may have changed with it. */
  documentChanged(uri: string): string[] {
    if (isConfigDocument(uri)) return [uri];
    const view = this.views.viewOf(uri);
    return view ? this.cache.urisOfSkill(view.analysis.file) : [];
  }

  /**
   * The other open SKILL.md documents whose library findings are no longer those last given for them (an edit of
   * `uri` made or ended a collision with them): an editor that does not pull diagnostics is sent theirs again.
   */
  libraryChangedElsewhere(uri: string): string[] {
    return this.guarded([], () =>
      this.cache
        .skillDocuments()
        .filter((other) => other !== uri && this.library.changedSinceGiven(fileURLToPath(other))),
    );
  }

  /**
   * An open document closed: its unsaved text no longer counts, so the rest of its skill is checked against the file
   * on disk. Returns whether it belonged to a skill, and the other open documents of that skill (of every skill, for a
   * SKILL.md: the library's findings in them may change).
   */
  documentClosed(uri: string): { belonged: boolean; others: string[] } {
    const skillFile = this.cache.skillOf(uri);
    this.cache.close(uri);
    // Its unsaved text no longer counts in the library either.
    if (skillFile && fileURLToPath(uri) === skillFile) {
      this.library.fileChanged(skillFile, false);
      this.library.closed(skillFile);
      // The library's findings in every open skill may change with it (an unsaved collision is gone).
      return { belonged: true, others: this.cache.skillDocuments() };
    }
    return { belonged: skillFile !== undefined, others: skillFile ? this.cache.urisOfSkill(skillFile) : [] };
  }

  /** Files changed on disk: the open documents whose findings may have changed. */
  filesChanged(changes: FileChange[]): string[] {
    const affected = new Set<string>();
    const governs = (file: string) =>
      (CONFIG_FILE_NAMES as readonly string[]).includes(path.basename(file)) || this.bySkill.isBaseline(file);
    if (changes.some((change) => governs(change.file))) {
      // A configuration may change how every skill under it is checked (a file it extends is not told apart); a
      // baseline, which of their findings are shown.
      this.bySkill.forgetConfigs();
      this.generation++;
      for (const uri of this.cache.clear()) affected.add(uri);
    }
    for (const change of changes) {
      if (path.basename(change.file) === 'SKILL.md' || change.kind !== 'changed') {
        this.index.invalidate();
        this.library.fileChanged(change.file, change.kind !== 'changed');
        for (const uri of this.cache.skillDocuments()) affected.add(uri);
        // A skill created, renamed, changed or deleted may be one a MetaSkill composes.
        for (const catalog of this.bySkill.allCatalogs()) catalog.invalidate(change.file, change.kind);
        for (const uri of this.cache.invalidateCatalogReaders()) affected.add(uri);
      }
      for (const uri of this.cache.invalidateFolderOf(change.file)) affected.add(uri);
    }
    return [...affected];
  }

  /** Runs a feature on an open document's view, with the features of its kind; the empty answer when there is none. */
  private run<T>(
    uri: string,
    token: Cancellation | undefined,
    empty: T,
    feature: (view: DocumentView, features: DocumentFeatures) => T,
  ): T {
    if (token?.isCancellationRequested) return empty;
    return this.guarded(empty, () => {
      const view = this.views.viewOf(uri);
      return view ? feature(view, featuresOf(view)) : empty;
    });
  }

  /** A feature's answer, or the empty answer (the error logged) when it fails; a refused rename is thrown on. */
  private guarded<T>(empty: T, feature: () => T): T {
    try {
      return feature();
    } catch (error) {
      if (error instanceof RenameError) throw error;
      this.logError(`skillgraph: ${(error as Error).stack ?? String(error)}`);
      return empty;
    }
  }
}

function offsetOf(view: DocumentView, position: Position): number {
  return view.lines.offsetAt(position);
}
