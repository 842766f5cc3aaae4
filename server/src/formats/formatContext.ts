import type { Diagnostic } from '../checks/diagnostic';
import type { Profile } from '../checks/profiles';
import type { GraphEdge, GraphNode, Port } from '../model/skillModel';
import type { Span } from '../parse/lineIndex';
import type { SkillFileSyntax } from '../parse/skillFile';
import type { YamlChunkCache } from '../parse/yamlChunks';
import type { YamlSyntax } from '../parse/yamlSyntax';
import type { ProcedureBlock } from './aip/procedureBlock';
import type { FileSystem } from '../workspace/fileSystem';

/** What a format loader gets: the parsed container and a way to look at the skill's other files. */
export interface FormatContext {
  fs: FileSystem;
  dir: string;
  file: string;
  syntax: SkillFileSyntax;
  frontmatter?: YamlSyntax;
  frontmatterValue?: Record<string, unknown>;
  /** The opening `---` (or the file start), where whole-skill diagnostics go. */
  frontmatterAnchor: Span;
  aipLike: boolean;
  profile: Profile;
  yamlCache?: YamlChunkCache;
}

/** What a format loader returns: the graph and its own diagnostics. */
export interface FormatResult {
  nodes: GraphNode[];
  edges: GraphEdge[];
  externalInputs?: Port[];
  /** The parsed procedure block, for features that work on its keys (hover, completion). */
  procedure?: ProcedureBlock;
  diagnostics: Diagnostic[];
}
