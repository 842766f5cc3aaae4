// The `skillgraph/*` requests the language server answers beyond LSP, and the commands its code lenses run. The server
// (service/customRequests.ts) and the VS Code client both import these, so a change to one side fails the other's
// build.
import { CodeActionKind, RequestType } from 'vscode-languageserver-protocol';
import type { CompileAnswer, WireFile } from './compile';
import type { ContextRequest, ModelContext } from './context';
import type { GraphChanges } from './changes';
import type { GraphJson } from './graph';
import type { LibraryViewJson } from './library';
import type { LspRange } from './common';

/** The kind of the action that applies every safe fix of a document (on save, with `editor.codeActionsOnSave`). */
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.skillgraph`;

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
  /** Its format's id (`aip-0.5`, `metaskill`…). */
  format: string;
  /** Its runtime puts a context in front of the model at each node (skill+): the context view shows it. */
  context?: true;
  name: string | null;
  /** The SKILL.md of the skill the document belongs to (itself, or a skill+ package's). */
  skillFile: string;
  /** The profile its findings were made for, and why. */
  profile: {
    /** The profile's id (`agentskills`, `claude-code`…). */
    id: string;
    /**
     * Who chose it: the default, the editor's setting or the CLI's flag, the configuration file, the client folder the
     * skill is in, or the skill is a MetaSkill (only OpenSquilla reads one).
     */
    source: 'default' | 'setting' | 'config' | 'location' | 'metaskill';
  };
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

/** A paragraph of a skill to ask a language model about (the editor's command), with the message to send about it. */
export interface ModelQuestionWire {
  uri: string;
  range: LspRange;
  prompt: string;
}

/**
 * What to ask a language model about an open skill (the paragraphs `check --model` asks about) and the system prompt
 * to ask with; the client asks the editor's model, the server never talks to one.
 */
export const ModelQuestionsRequest = new RequestType<
  DocumentParams,
  { system: string; questions: ModelQuestionWire[] } | null,
  void
>('skillgraph/modelQuestions');

/** One answer as the server read it: a finding's severity and message, `benign`, or why it holds no verdict. */
export type ModelVerdictWire =
  { severity: 'error' | 'warning' | 'information' | 'hint'; message: string } | { benign: true } | { problem: string };

/** The model's answers (in the questions' order) read as `check --model` reads them, for the model named. */
export const ModelVerdictsRequest = new RequestType<{ model: string; answers: string[] }, ModelVerdictWire[], void>(
  'skillgraph/modelVerdicts',
);
