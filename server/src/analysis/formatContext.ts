import type { Diagnostic } from '../checks/engine/diagnostic';
import type { LinkCheck } from '../checks/links/fileLinks';
import type { IncrementalState } from '../incremental/incrementalState';
import type { ControlRef, FormatId, GraphEdge, GraphNode, NodeGroup, Port } from '../model/skillModel';
import type { Span } from '../parse/text/lineIndex';
import type { SkillFileSyntax } from '../parse/markdown/skillFile';
import type { YamlSyntax } from '../parse/yaml/yamlSyntax';
import type { FileSystem } from '../workspace/fileSystem';
import type { SkillCatalog } from '../workspace/skillCatalog';

/** What a format loader gets: the parsed container and a way to look at the skill's other files. */
export interface FormatContext {
  fs: FileSystem;
  /** The format detected from the frontmatter. */
  format: FormatId;
  dir: string;
  file: string;
  syntax: SkillFileSyntax;
  frontmatter?: YamlSyntax;
  frontmatterValue?: Record<string, unknown>;
  /** The opening `---` (or the file start), where whole-skill diagnostics go. */
  frontmatterAnchor: Span;
  /** The skill was recognised from its shape alone: its format's marker is missing from the frontmatter. */
  unmarked: boolean;
  /** What earlier analyses of this skill left to reuse (the language server's); absent in a one-off analysis. */
  incremental?: IncrementalState;
  /** The skills a MetaSkill may compose. */
  catalog: SkillCatalog;
  /** Only the model is wanted (`AnalyzeOptions.modelOnly`): what only finds problems is not run. */
  modelOnly?: boolean;
}

/**
 * What a format loader returns: the graph and its own diagnostics. Each format adds what its features read besides the
 * model (an AIP procedure block, a MetaSkill's plan, a skill+ package).
 */
export interface FormatResult {
  nodes: GraphNode[];
  edges: GraphEdge[];
  externalInputs?: Port[];
  /** References the skill makes as a whole (MetaSkill `final_text_mode`). */
  refs?: ControlRef[];
  /** Clusters of nodes (skill+ stages). */
  groups?: NodeGroup[];
  /** The text of every other file the model's spans point into. */
  sources?: Map<string, string>;
  diagnostics: Diagnostic[];
}

/** How the paths the skill names are checked: in its folder, with the findings earlier analyses kept. */
export function linkCheckOf(context: FormatContext): LinkCheck {
  const { fs, dir, file, incremental } = context;
  const text = context.syntax.source;
  return incremental ? { fs, dir, file, text, reused: incremental.links } : { fs, dir, file, text };
}
