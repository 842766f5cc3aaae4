import { fileURLToPath } from 'node:url';
import type {
  CompletionItem,
  Diagnostic as LspDiagnostic,
  Hover,
  Location,
  Range,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { applySeverities } from '../checks/engine/severities';
import type { RunSettings } from '../config/runSettings';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { toLspDiagnostic } from '../features/lspDiagnostics';
import { libraryCompletion, libraryDefinition, libraryHover, libraryReferences } from '../features/libraryFeatures';
import { folderRenameEdits, renameSkill, skillToRename } from '../features/libraryRename';
import { checkLibrary } from '../library/libraryChecks';
import { profilesFrom, type LibraryCheckOptions } from '../library/skillListBudget';
import { libraryView } from '../library/libraryView';
import {
  librarySkillOf,
  linkLibrary,
  readLibrarySkill,
  type Library,
  type LibrarySkill,
} from '../library/libraryModel';
import type { SkillFileSyntax } from '../parse/markdown/skillFile';
import type { TextLike } from '../parse/text/textLike';
import { discoverSkills } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { userSkillFolders } from '../workspace/userSkillFolders';
import { appendTo } from '../listMap';
import { settingsSeverityMaps } from '../rules';
import { libraryFindingsIn } from '../rules/libraryFindings';
import { GivenFindings } from './givenFindings';
import type { LibraryViewJson } from '../protocol';

/** How long a rename's own folder move is expected back from the editor (it waits for a preview to be applied). */
const OWN_MOVE_MS = 10 * 60 * 1000;

/**
 * Skills left to read that an open SKILL.md's findings wait for (about 0.15 s of reading): a larger library is read a
 * slice at a time between the editor's messages (readSome), and its findings follow the document's own.
 */
const READ_AT_ONCE = 500;

/** A SKILL.md open in the editor, as its analysis read it. */
export interface OpenSkill {
  file: string;
  source: TextLike;
  syntax: SkillFileSyntax;
}

/**
 * The workspace's skills as one library, for what one skill says of others in the editor: the skills under the
 * workspace folders, each read once and again only when its SKILL.md changes (on disk, or in the editor: an open
 * SKILL.md counts with its unsaved text). The list of skills is found again when a SKILL.md is created or deleted.
 */
export class LibraryIndex {
  private files: string[] | undefined;
  /** The SKILL.md files whose frontmatter decided which SKILL.md files below them are skills (see discoverSkills). */
  private enclosing = new Set<string>();
  private readonly read = new Map<string, { source?: TextLike; skill: LibrarySkill | undefined }>();
  /** The listed skills not read yet (none until they are listed). */
  private readonly unread = new Set<string>();
  /** The library was too large to read at once: its findings wait until readSome has read every skill. */
  private readingInSlices = false;
  private linked: { library: Library; findings?: Diagnostic[] } | undefined;
  private options: LibraryCheckOptions | undefined;
  private userFolders = false;
  private readonly given = new GivenFindings();
  /** The folder moves this server's renames asked for (`oldUri newUri`), and when. */
  private readonly ownMoves = new Map<string, number>();

  constructor(
    private readonly fs: FileSystem,
    private readonly home: string,
    private roots: string[] = [],
  ) {}

  setRoots(roots: string[]): void {
    this.roots = roots;
    this.files = undefined;
    this.linked = undefined;
  }

  /**
   * A SKILL.md changed on disk (`listChanged`: created or deleted). The list of skills is found again then, and when
   * the file is one whose frontmatter decided which SKILL.md files below it are skills.
   */
  fileChanged(file: string, listChanged: boolean): void {
    if (listChanged || this.enclosing.has(file)) this.files = undefined;
    this.read.delete(file);
    if (this.files?.includes(file)) this.unread.add(file);
    this.linked = undefined;
  }

  /** Every skill read again (the settings changed), the clients' user-level folders with them when `userFolders`. */
  clear(userFolders: boolean): void {
    this.userFolders = userFolders;
    this.files = undefined;
    this.read.clear();
    this.options = undefined;
    this.linked = undefined;
  }

  /**
   * The library, with `open` (a SKILL.md the editor holds, as its analysis read it) in place of the disk's; it is in
   * the library even outside the roots. Each version of its text is read once.
   */
  library(open?: OpenSkill): Library {
    if (open) {
      const known = this.read.get(open.file);
      if (known?.source !== open.source) {
        const skill = librarySkillOf(this.fs, open.file, open.source, open.syntax, this.home);
        this.read.set(open.file, { source: open.source, skill });
        this.unread.delete(open.file);
        this.linked = undefined;
      }
    }
    if (this.linked) return this.linked.library;
    const listed = this.listed();
    const files = open && !listed.includes(open.file) ? [...listed, open.file] : listed;
    const skills = files.flatMap((file) => (this.read.get(file) ?? this.readSkill(file)).skill ?? []);
    this.linked = { library: linkLibrary(skills) };
    return this.linked.library;
  }

  /** The SKILL.md files under the roots, found once (again when one is created or deleted, or the roots change). */
  private listed(): string[] {
    if (this.files) return this.files;
    const roots = [...this.roots, ...(this.userFolders ? userSkillFolders(this.fs, this.home) : [])];
    const discovery = discoverSkills(
      this.fs,
      roots.filter((root) => this.fs.stat(root)),
      '/',
    );
    this.files = discovery.skills.map((found) => found.file);
    this.enclosing = new Set(discovery.enclosing);
    this.unread.clear();
    for (const file of this.files) if (!this.read.has(file)) this.unread.add(file);
    return this.files;
  }

  private readSkill(file: string) {
    const entry = { skill: readLibrarySkill(this.fs, file, this.home) };
    this.read.set(file, entry);
    this.unread.delete(file);
    this.linked = undefined;
    return entry;
  }

  /** Reads up to `count` skills not read yet; whether every skill of the library is read. */
  readSome(count: number): boolean {
    this.listed();
    for (const file of this.unread) {
      if (count-- <= 0) break;
      this.readSkill(file);
    }
    if (this.unread.size > 0) return false;
    this.readingInSlices = false;
    return true;
  }

  /** The library's findings in `file`, with `open` as in `library`. */
  findingsIn(file: string, options: LibraryCheckOptions, open?: OpenSkill): Diagnostic[] {
    const library = this.library(open);
    this.linked!.findings ??= checkLibrary(library, options);
    return this.linked!.findings.filter((item) => item.file === file);
  }

  /**
   * The library's findings in an open SKILL.md (a mention a letter off, a collision), with its skill's severities;
   * undefined while a library too large to read at once (more than READ_AT_ONCE skills left) is read in slices (see
   * readSome).
   */
  diagnostics(view: DocumentView, settings: RunSettings, docsBase?: string): LspDiagnostic[] | undefined {
    const open = openSkill(view);
    if (!open) return [];
    this.listed();
    // Once the library is read in slices, the last slices too: a keystroke does not read hundreds of skills.
    if (this.unread.size > READ_AT_ONCE) this.readingInSlices = true;
    if (this.readingInSlices) return undefined;
    // Each skill's profile is looked up once (its configuration, its folder): a change of settings clears them.
    this.options ??= profilesFrom(settings);
    const findings = this.findingsIn(open.file, this.options, open);
    this.given.record(open.file, findings);
    // Its suppression comments read as its analysis reads them, and its severities.
    const found = libraryFindingsIn(open.file, open.source, findings, settings.forSkill(open.file));
    return found.map((item) => toLspDiagnostic(view, item, docsBase));
  }

  /** Whether another skill's change made or ended a library finding in `file` (an open SKILL.md) since it was given. */
  changedSinceGiven(file: string): boolean {
    return this.given.changed(file, this.linked?.findings);
  }

  /** An open SKILL.md was closed: nothing is given for it any more. */
  closed(file: string): void {
    this.given.forget(file);
  }

  /** What the library view draws: every skill with its findings (with its skill's severities), edges and lists. */
  view(settings: RunSettings, open: DocumentView[]): LibraryViewJson {
    for (const view of open) this.library(openSkill(view));
    const library = this.library();
    this.options ??= profilesFrom(settings);
    this.linked!.findings ??= checkLibrary(library, this.options);
    const byFile = new Map<string, Diagnostic[]>();
    for (const item of this.linked!.findings) appendTo(byFile, item.file, item);
    return libraryView({
      library,
      findings: [...byFile].flatMap(([file, items]) =>
        applySeverities(items, ...settingsSeverityMaps(settings.forSkill(file))),
      ),
      roots: this.roots,
      home: this.home,
      textOf: (file) => {
        const open = this.read.get(file)?.source;
        if (open) return open;
        const read = readText(this.fs, file);
        return read.kind === 'text' ? read.text : undefined;
      },
      options: this.options,
    });
  }

  definition(view: DocumentView, offset: number): Location[] {
    return this.withSkill(view, [], (library, skill) => libraryDefinition(library, skill, offset));
  }

  references(view: DocumentView, offset: number): Location[] {
    return this.withSkill(view, [], (library, skill) => libraryReferences(library, skill, offset));
  }

  hover(view: DocumentView, offset: number): Hover | null {
    return this.withSkill(view, null, (library, skill) => libraryHover(library, skill, offset));
  }

  completion(view: DocumentView, offset: number): CompletionItem[] {
    return this.withSkill(view, [], (library, skill) =>
      libraryCompletion(library, skill, view.analysis.source, view.lines, offset),
    );
  }

  /** The name a rename at `offset` changes, when it is a skill's (its `name`, or a mention of another skill). */
  prepareRename(view: DocumentView, offset: number): { range: Range; placeholder: string } | null {
    return this.withSkill(view, null, (library, skill) => {
      const found = skillToRename(library, skill, offset);
      return found ? { range: rangeOf(view, found.span), placeholder: found.target.name } : null;
    });
  }

  /** The skill renamed across the library, or null when `offset` is on no skill's name (RenameError: refused). */
  rename(view: DocumentView, offset: number, newName: string): WorkspaceEdit | null {
    return this.withSkill(view, null, (library, skill) => {
      const found = skillToRename(library, skill, offset);
      if (!found) return null;
      const edit = renameSkill(this.fs, library, found.target, newName);
      for (const change of edit.documentChanges ?? [])
        if ('kind' in change && change.kind === 'rename')
          this.ownMoves.set(`${fileURLToPath(change.oldUri)}\0${fileURLToPath(change.newUri)}`, Date.now());
      return edit;
    });
  }

  /**
   * What renaming files and folders (old → new URIs) changes in the library's skills: a skill folder's. A move this
   * server's own rename made is asked about too, as the editor applies it: its edits are in that rename already.
   */
  willRenameFiles(files: { oldUri: string; newUri: string }[]): WorkspaceEdit | null {
    const renames = files.flatMap((file) =>
      file.oldUri.startsWith('file:') && file.newUri.startsWith('file:')
        ? [{ from: fileURLToPath(file.oldUri), to: fileURLToPath(file.newUri) }]
        : [],
    );
    const now = Date.now();
    for (const [move, at] of this.ownMoves) if (now - at > OWN_MOVE_MS) this.ownMoves.delete(move);
    const asked = renames.filter((rename) => !this.ownMoves.delete(`${rename.from}\0${rename.to}`));
    return asked.length > 0 ? folderRenameEdits(this.fs, this.library(), asked) : null;
  }

  /** A library feature on an open SKILL.md: the library with its text, and the skill it is; `empty` elsewhere. */
  private withSkill<T>(view: DocumentView, empty: T, feature: (library: Library, skill: LibrarySkill) => T): T {
    const open = openSkill(view);
    if (!open) return empty;
    const library = this.library(open);
    const skill = library.skills.find((item) => item.file === open.file);
    return skill ? feature(library, skill) : empty;
  }
}

/** A SKILL.md document as the library reads it; undefined for any other document of a skill. */
function openSkill(view: DocumentView): OpenSkill | undefined {
  const { analysis } = view;
  return view.file === analysis.file && analysis.syntax
    ? { file: analysis.file, source: analysis.source, syntax: analysis.syntax }
    : undefined;
}
