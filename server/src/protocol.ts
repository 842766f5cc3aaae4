// What the language server and its editors say to each other beyond LSP: the `skillgraph/*` requests, the commands
// the server's code lenses run, and the settings the server reads. The server (server.ts) and the VS Code client both
// import these, so a change to one side fails the other's build.
import { RequestType } from 'vscode-languageserver-protocol';
import type { Severity } from './checks/diagnostic';
import type { ProfileChoice, ProfileId } from './platforms/profiles';
import type { CompileAnswer, WireFile } from './forms/compiled';
import type { GraphJson } from './forms/graphJson';
import type { ContextRequest, ModelContext } from './analysis/modelContext';
import type { GraphChanges } from './diff/changeView';
import type { LibraryViewJson } from './library/libraryView';
import type { FormatId } from './model/skillModel';

export type { CompileAnswer, WireFile } from './forms/compiled';
export type { GraphJson, GraphJsonEdge, GraphJsonGroup, GraphJsonNode, GraphJsonPort } from './forms/graphJson';
export type { GraphProblem } from './forms/graphProblems';
export type { ChangeLine, EdgeMark, GraphChanges } from './diff/changeView';
export type { ContextRequest, ModelContext } from './analysis/modelContext';
export type { LspRange } from './parse/lineIndex';
export type {
  LibraryViewEdge,
  LibraryViewJson,
  LibraryViewProblem,
  LibraryViewSkill,
  SkillList,
  SkillListEntry,
} from './library/libraryView';
/** The code action kind that applies every safe fix of a document (`editor.codeActionsOnSave`). */
export { FIX_ALL_KIND } from './features/codeActions';

/** A request about one open document (a SKILL.md or a file of a skill+ package), by its URI. */
export interface DocumentParams {
  uri: string;
}

/** A request the server refused, with the reason to show. */
export interface Refusal {
  error: string;
}

/** The graph of an open skill, as `skillgraph graph --format json` prints it (the graph preview draws it). */
export const GraphRequest = new RequestType<DocumentParams, GraphJson | null, void>('skillgraph/graph');

/**
 * What changed in an open skill since a git revision (`HEAD`, a branch, a commit), read from git without checking it
 * out: the graph to draw with what the change removed put back, and a mark on each node and edge it touched.
 */
export const GraphChangesRequest = new RequestType<
  DocumentParams & { revision: string },
  GraphChanges | Refusal | null,
  void
>('skillgraph/graphChanges');

/** A file of an open skill as it was at a git revision (the left side of the diff editor a removed step opens). */
export const FileAtRevisionRequest = new RequestType<
  DocumentParams & { file: string; revision: string },
  { text: string } | Refusal | null,
  void
>('skillgraph/fileAtRevision');

/** What the skill's runtime (skill+'s) puts in front of the model at a node for a State (the context view). */
export const ContextViewRequest = new RequestType<DocumentParams & ContextRequest, ModelContext | Refusal | null, void>(
  'skillgraph/context',
);

/** A compile target that fits a skill: its title, default output folder, and file name when the result is one file. */
export interface CompileTargetInfo {
  /** The target's id, as `compile --to` names it. */
  id: string;
  /** For a target written in several versions (`aip`): the version this entry writes (the current one, 0.3). */
  aipVersion?: string;
  title: string;
  outDir: string;
  singleFile: string | null;
}

/** The compile targets that fit an open skill (the Compile Skill command offers them). */
export const CompileTargetsRequest = new RequestType<
  DocumentParams,
  { skillFile: string; targets: CompileTargetInfo[] } | null,
  void
>('skillgraph/compileTargets');

export interface CompileParams extends DocumentParams {
  /** The target's id. */
  target: string;
  /** An absolute folder: the compiled skill's files are placed in it. */
  outDir: string;
  /** For a target written in several versions (`aip`): the version to write (default: the current, 0.5). */
  aipVersion?: string;
}

/** A compile of an open skill, written by nobody: the client shows the files as an edit to confirm. */
export const CompileRequest = new RequestType<CompileParams, CompileAnswer | Refusal | null, void>(
  'skillgraph/compile',
);

/**
 * A revision of a compile's files (a language model refining an `aip` scaffold), checked as a compile checks its own.
 */
export const CheckCompiledRequest = new RequestType<
  CompileParams & { files: WireFile[] },
  CompileAnswer | Refusal | null,
  void
>('skillgraph/checkCompiled');

/** Format and problem counts of an open skill, for the status bar. */
export interface SkillInfo {
  format: FormatId;
  /** Its runtime puts a context in front of the model at each node (skill+): the context view shows it. */
  context?: true;
  name: string | null;
  /** The SKILL.md of the skill the document belongs to (itself, or a skill+ package's). */
  skillFile: string;
  /** The profile its findings were made for, and why. */
  profile: ProfileChoice;
  /** Checked with the reference validator's verdict. */
  strict?: true;
  /** The configuration file that governs the skill (its URI), if any. */
  configFile?: string;
  /** The configuration ignores the skill: nothing is reported. */
  ignored?: true;
  /** The errors and warnings shown (a baseline's not counted). */
  errors: number;
  warnings: number;
  /** Findings the baseline accepts, not shown. */
  baselined: number;
}

export const SkillInfoRequest = new RequestType<DocumentParams, SkillInfo | null, void>('skillgraph/skillInfo');

/**
 * The workspace's skills as one library (the library view draws it): the skills under the workspace folders with their
 * library findings, the edges between them, and the skill list each client gives the agent.
 */
export const LibraryViewRequest = new RequestType<Record<string, never>, LibraryViewJson | null, void>(
  'skillgraph/library',
);

/**
 * The client commands the server's code lenses run: open the graph preview beside a document, compile a skill (both
 * with the document's URI), show the references of the step at a position (with the URI and the position).
 */
export const LensCommands = {
  openPreviewToSide: 'skillgraph.openPreviewToSide',
  compileSkill: 'skillgraph.compileSkill',
  showReferences: 'skillgraph.showReferences',
} as const;

/** The section of the editor's settings the server reads (VS Code's `skillgraph.*`). */
export const SETTINGS_SECTION = 'skillgraph';

/**
 * The settings the server reads, as an editor sends them (`workspace/configuration` for the section, or
 * `initializationOptions`). Anything else, or a value of the wrong type, is ignored.
 */
export interface ServerSettings {
  /** Which consumer the skills target. */
  profile?: ProfileId;
  /** Severity overrides by diagnostic code. */
  rules?: Record<string, Severity | 'off'>;
  /** Folders of skill folders MetaSkills may compose; relative ones start at the first workspace folder. */
  catalogRoots?: string[];
  /** The clients' user-level skill folders (`~/.claude/skills`, `~/.agents/skills`) join the workspace's library. */
  userSkillFolders?: boolean;
}

/** The keys of `ServerSettings`, each a `skillgraph.<key>` setting in the extension's manifest. */
export const SERVER_SETTING_KEYS = [
  'profile',
  'rules',
  'catalogRoots',
  'userSkillFolders',
] as const satisfies readonly (keyof ServerSettings)[];
