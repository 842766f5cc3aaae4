import type {
  CompletionItem,
  DocumentSymbol,
  Hover,
  Location,
  Range,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { Diagnostic } from '../checks/engine/diagnostic';
import type { Fix } from '../checks/engine/fix';
import type { Rule } from '../checks/engine/rule';
import type { ProfileChoice } from '../platforms/profiles';
import type { FormatId, GraphNode, SkillModel } from '../model/skillModel';
import type { Span } from '../parse/text/lineIndex';
import type { PythonSyntax } from '../parse/python/python';
import type { Fence, SkillFileSyntax } from '../parse/markdown/skillFile';
import type { YamlCursor } from '../parse/yaml/yamlCursor';
import type { YamlSyntax } from '../parse/yaml/yamlSyntax';
import type { FileSystem } from '../workspace/fileSystem';
import type { DocumentView } from './documentView';
import type { FormatContext, FormatResult } from './formatContext';
import type { AnalysisBase } from './skillAnalysis';
import type { CompletionRequest, SkillLens, Target } from './target';
import type { ContextRequest, ModelContext } from '../protocol';

/**
 * One format of skill, as a value: how a skill is recognised as one, read into its model and its own part of the
 * analysis, and what features, fixes and compile targets it adds. Each format's folder exports its formats; the
 * registry (formats/index.ts) lists them. Code outside `formats/` asks the skill's format, and never branches on its
 * id.
 *
 * `A` is the analysis of a skill of the format: `AnalysisBase` and the format's own part.
 */
export interface Format<A extends AnalysisBase = AnalysisBase> {
  id: FormatId;
  /** What a skill of the format is called in a sentence ("a skill+ package"). */
  title: string;
  /** Whether the frontmatter marks the skill as this format (`metadata.aip-version`, `kind: meta`, …). */
  marked(frontmatter: Record<string, unknown>): boolean;
  /**
   * Whether the skill reads as this format without its marker, from its shape alone (a lone fenced procedure). Asked
   * only when no format's marker is there; the loader is told, and may say what marker is missing.
   */
  shaped?(syntax: SkillFileSyntax): boolean;
  /**
   * The consumer that alone reads the format, when only one does: its YAML dialect and profile then apply whatever
   * profile was chosen (a MetaSkill is OpenSquilla's). `likely` guesses from the frontmatter's text, before it is read,
   * which dialect to read it with.
   */
  reader?: { dialect: 'pyyaml'; profile: ProfileChoice; likely(frontmatterText: string): boolean };
  /** Reads the skill: its graph, its findings, and its part of the analysis. */
  load(context: FormatContext): FormatResult & { part: Omit<A, keyof AnalysisBase> };
  /** The `metadata` keys the format reads itself: its own maps, which the specification's string rule leaves alone. */
  ownMetadata?: readonly string[];
  /** Its analyses read the skills beside it (the MetaSkill catalog): made again when one of those changes. */
  readsCatalog?: true;
  /** The fenced YAML block of SKILL.md the format reads as its own (an AIP procedure): its keys, its comments. */
  block?(analysis: A): { fence: Fence; yaml: YamlSyntax } | undefined;
  /** A Python file of the skill as the format parsed it (a skill+ package's `flow.py`, `state.py`, rules). */
  python?(analysis: A, file: string): PythonSyntax | undefined;
  /** The procedure document whose fields say when to use the skill (AIP's `purpose`, `trigger_when`, …). */
  procedureDocument?(analysis: A): Record<string, unknown> | undefined;
  /** The editor features it adds to those every skill has. */
  features?: FormatFeatures<A>;
  /**
   * The fixes that edit its own structure (an AIP step's outputs, a MetaSkill's `depends_on`, a skill+ State field),
   * by the rule whose findings they fix: offered after the rule's own fixes.
   */
  fixes?: ReadonlyMap<Rule, StructureFix<A>>;
  /** What a skill of the format compiles to, besides the graph's forms (IR, Mermaid, DOT) every skill has. */
  compile?: readonly Compiler<A>[];
  /** The compile targets that are this format: what `compile --to` may name to get a skill of it. */
  targets?: readonly CompileTarget[];
  /** The graph IR of a skill of the format, where it has one of its own (skill+'s flow IR). */
  ir?(analysis: A): object;
  /** What the format's runtime shows the model at a point of the skill (skill+'s context); absent: no such runtime. */
  context?(analysis: A, request: ContextRequest): ModelContext | { error: string };
}

/** A fix that edits a format's own structure, from the analysis of the skill. */
export type StructureFix<A extends AnalysisBase> = (analysis: A, item: Diagnostic) => Fix[];

/** The editor features a format adds: each is asked before, or instead of, what every skill gets. */
export interface FormatFeatures<A extends AnalysisBase> {
  /** Something at an offset inside a step that only this format knows (a MetaSkill's template filter). */
  locateInStep?(view: DocumentView<A>, node: GraphNode, offset: number): Target | undefined;
  /** The regions where paths in prose are looked for, when not the body outside code blocks (an AIP procedure's). */
  proseRegions?(analysis: A): Span[] | undefined;
  /** The hover of a target where the format says more than the graph does; undefined: the hover every skill gets. */
  hover?(view: DocumentView<A>, target: Target): string | undefined;
  /** The description of a key of the frontmatter or of its block, where the format's schema has one. */
  keyDescription?(
    view: DocumentView<A>,
    region: 'frontmatter' | 'procedure',
    path: (string | number)[],
  ): string | undefined;
  /**
   * Completion in the frontmatter or in its block; undefined: what every skill gets. Asked of the format of `model`,
   * the last model that loaded while the text does not parse: the document's analysis may then be of another format.
   */
  completion?(
    request: CompletionRequest,
    where: { region: 'frontmatter' | 'procedure'; cursor: YamlCursor; model: SkillModel },
  ): CompletionItem[] | undefined;
  /** Its ports are the runtime's (a MetaSkill's arguments and inputs), not names of the skill's own to rename. */
  fixedPorts?: true;
  /**
   * Its steps are written in files beside SKILL.md (skill+'s flow): SKILL.md's features see the skill without them, and
   * these are the features of those files.
   */
  packageFiles?: PackageFileFeatures<A>;
}

/** The features of the files beside SKILL.md where a format writes its steps. */
export interface PackageFileFeatures<A extends AnalysisBase> {
  definition(view: DocumentView<A>, offset: number): Location[];
  references(view: DocumentView<A>, offset: number, includeDeclaration: boolean): Location[];
  hover(view: DocumentView<A>, offset: number): Hover | null;
  completion(view: DocumentView<A>, offset: number): CompletionItem[];
  symbols(view: DocumentView<A>): DocumentSymbol[];
  prepareRename(view: DocumentView<A>, offset: number): { range: Range; placeholder: string } | null;
  /** Throws `RenameError` with the reason when the rename is refused. */
  rename(view: DocumentView<A>, offset: number, newName: string): WorkspaceEdit | null;
  lenses(view: DocumentView<A>): SkillLens[];
}

/** A form a skill compiles to that is a format's (a plain skill, an AIP package, a MetaSkill's other form). */
export interface CompileTarget {
  /** As `compile --to` names it. */
  id: string;
  title: string;
  /** The names earlier versions gave it, still accepted. */
  formerNames?: readonly string[];
  /** The file a one-file result is (a MetaSkill's SKILL.md), printed when no folder is given; absent: a folder. */
  singleFile?: string;
  /** Its result is an Agent Skill, whose folder name must be a valid skill name. */
  agentSkill?: true;
  /** The versions of the target it writes, the default first (AIP 0.5, then 0.3 for runtimes that only read that). */
  versions?: readonly { version: string; title: string }[];
}

/** How a skill of a format compiles to one target. */
export interface Compiler<A extends AnalysisBase> {
  /** The target's id (a format's `targets` declares it). */
  to: string;
  /** The versions it writes, when not all the target's (an AIP 0.3 skill only migrates to 0.5). */
  versions?: readonly { version: string; title: string }[];
  /** Why it cannot compile what is asked, before anything is read (asked for the version the skill already is). */
  refuses?(request: CompileRequest): string | undefined;
  /** Rules whose errors do not stop it: the compile leaves what they are about behind (AIP 0.3's packaging). */
  overlooks?: readonly Rule[];
  compile(analysis: A, request: CompileRequest): Compiled;
}

/** What a compile is given: the disk, the folder the result would be written to, and the version asked for. */
export interface CompileRequest {
  fs: FileSystem;
  outDir: string;
  version?: string;
}

/** One file of a result, by its path inside the output folder (`/`-separated). */
export interface CompiledFile {
  path: string;
  content: string | Uint8Array;
}

/**
 * What a compiler made: the files of the result (checked as the skill they claim to be before anything is written),
 * and findings about them or about the source; no files, and the findings say why nothing was compiled.
 */
export interface Compiled {
  files: CompiledFile[];
  findings: Diagnostic[];
}
