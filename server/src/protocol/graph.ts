import type { LspRange, Severity } from './common';

// A skill's graph as `skillgraph graph --format json` prints it, the server's `skillgraph/graph` returns it and the
// preview draws it (schemas/graph.schema.json). The kinds are the drawing's: each is drawn in its own shape.

/**
 * What a node is: AIP 0.3 steps are `step`, AIP 0.5, MetaSkill and skill+ kinds keep their own names;
 * `external-input` is a value no step produces, `missing` a step that is referenced but does not exist.
 */
export type GraphNodeKind =
  | 'step'
  | 'decision'
  | 'execution'
  | 'client_task'
  | 'router'
  | 'end'
  | 'external-input'
  | 'agent'
  | 'llm_chat'
  | 'llm_classify'
  | 'tool_call'
  | 'skill_exec'
  | 'user_input'
  | 'ask'
  | 'confirm'
  | 'branch'
  | 'loop'
  | 'fanout'
  | 'missing';

/** What an edge is: what runs next, a value passed, a router's branch, a fallback. */
export type GraphEdgeKind = 'control' | 'data' | 'branch' | 'fallback';

export interface GraphJsonPort {
  name: string;
  type?: string;
  nullable: boolean;
  description?: string;
  range: LspRange;
}

export interface GraphJsonNode {
  id: string;
  /** `missing` stands for a step that references name but that does not exist. */
  kind: GraphNodeKind;
  label: string;
  file: string;
  /** The step's name. */
  range: LspRange;
  /** The whole step, for finding the node under the editor's cursor. */
  extent: LspRange;
  script?: string;
  inputs: GraphJsonPort[];
  outputs: GraphJsonPort[];
  oneOf?: string[];
  parallel?: boolean;
  description?: string;
  /** MetaSkill: the composed skill, its SKILL.md, route cases and guard. */
  skill?: string;
  skillFile?: string;
  routes?: { when?: string; to: string; skillFile?: string }[];
  when?: string;
  /** skill+: the stage the node belongs to (a cluster of the drawing). */
  group?: string;
  /** skill+: the tips and rules that can fire at the node. */
  attachments?: { kind: 'tip' | 'rule'; id: string; file: string; soft?: boolean }[];
  /** The test cases (`evals/evals.json`) whose expectations name this step, each at its id. */
  evals?: { id: string; file: string; range: LspRange }[];
  /** What the step's script does that the security rules report (`pipes a download into a shell …`). */
  risks?: string[];
}

/** A cluster of nodes (a skill+ stage), where it is written. */
export interface GraphJsonGroup {
  id: string;
  label: string;
  description?: string;
  file: string;
  range: LspRange;
}

export interface GraphJsonEdge {
  from: string;
  to: string;
  kind: GraphEdgeKind;
  label?: string;
  /** The type the value carries (data edges). */
  type?: string;
  range?: LspRange;
  /** The file `range` is in, when it is not the skill's SKILL.md (skill+). */
  file?: string;
  /** Written in the source but pointing at nothing (a `depends_on` naming no step). */
  dangling?: boolean;
  /** The ports the edge joins, when `label` does not name them. */
  fromPort?: string;
  toPort?: string;
}

/**
 * The graph as `skillgraph graph --format json` prints it and the server's `skillgraph/graph` returns it
 * (schemas/graph.schema.json).
 */
export interface GraphJson {
  version: 1;
  skill: { name?: string; format: string; dir: string; file: string };
  nodes: GraphJsonNode[];
  edges: GraphJsonEdge[];
  /** skill+: the stages, drawn as clusters of their nodes. */
  groups?: GraphJsonGroup[];
  problems: GraphProblem[];
}

/** What a problem is about in the drawing. */
export type ProblemTarget =
  | { kind: 'node'; id: string }
  | { kind: 'port'; node: string; name: string; direction: 'input' | 'output' }
  | { kind: 'edge'; from: string; to: string };

export interface GraphProblem {
  /** The file the problem is in (a skill+ package spreads them over several). */
  file: string;
  code: string;
  severity: Severity;
  message: string;
  range: LspRange;
  /** Empty for problems about the skill as a whole (frontmatter, package). */
  targets: ProblemTarget[];
  /**
   * What a drawing of the graph marks it as, where it marks it specially (the preview and the Mermaid and DOT exports
   * alike): an edge on a dependency cycle, an input that likely misspells an upstream output.
   */
  mark?: 'cycle' | 'misspelt';
}
