import type { Diagnostic } from '../checks/diagnostic';
import type { Profile } from '../checks/profiles';
import type { ModelCache } from '../model/modelCache';
import type { ControlRef, FormatId, GraphEdge, GraphNode, NodeGroup, Port } from '../model/skillModel';
import type { Span } from '../parse/lineIndex';
import type { SkillFileSyntax } from '../parse/skillFile';
import type { ParseCache } from '../parse/parseCache';
import type { YamlChunkCache } from '../parse/yamlChunks';
import type { YamlSyntax } from '../parse/yamlSyntax';
import type { ProcedureBlock } from './aip/procedureBlock';
import type { FileSystem } from '../workspace/fileSystem';
import type { SkillCatalog } from '../workspace/skillCatalog';
import type { MetaPlan } from './metaskill/metaPlan';
import type { SkillPlusPackage } from './skillplus/readPackage';

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
  aipLike: boolean;
  profile: Profile;
  yamlCache?: YamlChunkCache;
  /** What earlier analyses read from the skill's other files (skill+ packages). */
  parseCache?: ParseCache;
  /** Steps and graph findings of earlier analyses of this skill, reused where the text did not change them. */
  modelCache?: ModelCache;
  /** The skills a MetaSkill may compose. */
  catalog: SkillCatalog;
}

/** What a format loader returns: the graph and its own diagnostics. */
export interface FormatResult {
  nodes: GraphNode[];
  edges: GraphEdge[];
  externalInputs?: Port[];
  /** References the skill makes as a whole (MetaSkill `final_text_mode`). */
  refs?: ControlRef[];
  /** A MetaSkill's plan, for features that work on its templates. */
  metaPlan?: MetaPlan;
  /** Clusters of nodes (skill+ stages). */
  groups?: NodeGroup[];
  /** The text of every other file the model's spans point into. */
  sources?: Map<string, string>;
  /** A skill+ package as read, for features that work across its files. */
  skillplus?: SkillPlusPackage;
  /** The parsed procedure block, for features that work on its keys (hover, completion). */
  procedure?: ProcedureBlock;
  diagnostics: Diagnostic[];
}
