import type { Span } from '../parse/text/lineIndex';

/** Every format Skillgraph recognises; later formats load into the same model. */
export type FormatId = 'agent-skill' | 'aip-0.3' | 'aip-0.5' | 'metaskill' | 'metaskill-sop' | 'skillplus';

/** The format of a skill with no structured form: a plain Agent Skill (and of a SKILL.md that could not be read). */
export const PLAIN_FORMAT = 'agent-skill' satisfies FormatId;

/** What a node is. AIP 0.3 steps are `step`; AIP 0.5 and MetaSkill kinds keep their own names. */
export type NodeKind =
  | 'step'
  | 'decision'
  | 'execution'
  | 'client_task'
  | 'router'
  | 'end'
  | 'external-input'
  // MetaSkill step kinds
  | 'agent'
  | 'llm_chat'
  | 'llm_classify'
  | 'tool_call'
  | 'skill_exec'
  | 'user_input'
  // skill+ node kinds ('agent' and 'end' are shared)
  | 'ask'
  | 'confirm'
  | 'branch'
  | 'loop'
  | 'fanout';

/** A typed value a node consumes or produces. */
export interface Port {
  name: string;
  direction: 'input' | 'output';
  nodeId: string;
  type?: string;
  nullable: boolean;
  description?: string;
  /** The whole io item. */
  span: Span;
  /** The argument a reference feeds (MetaSkill: `with.task`), when the port stands for a reference. */
  feeds?: string;
  /** The value of its `name` key. */
  nameSpan: Span;
  /** The value of its `type` key. */
  typeSpan?: Span;
}

/** A path the skill names (a script, a template, an asset, a reference). */
export interface FileLink {
  path: string;
  span: Span;
  role: 'script' | 'template' | 'asset' | 'reference' | 'prose';
}

/**
 * A written reference to a step: `depends_on`, `inputs_to`, a router
 * branch; in a MetaSkill also `on_failure`, a binding (`outputs.x`) and
 * `final_text_mode: step:x`.
 */
export interface ControlRef {
  target: string;
  span: Span;
  via: 'depends_on' | 'inputs_to' | 'branch' | 'on_failure' | 'binding' | 'final_text_mode';
  /** The branch value for router branches. */
  label?: string;
}

/** A skill a step composes (MetaSkill `skill:`, or a `route` case's `to:`). */
export interface SkillRef {
  name: string;
  span: Span;
  via: 'skill' | 'route';
  /** For route cases: the condition that selects this skill. */
  when?: string;
  /** The composed skill's SKILL.md, when the catalog has it. */
  file?: string;
}

export interface GraphNode {
  id: string;
  kind: NodeKind;
  label: string;
  /** The whole step. */
  span: Span;
  /** The value of its `name` key (or the best available anchor). */
  nameSpan: Span;
  description?: { text: string; span: Span };
  inputs: Port[];
  outputs: Port[];
  script?: FileLink;
  links: FileLink[];
  controlRefs: ControlRef[];
  /** Alternative labels the agent picks one of (AIP 0.3 `one_of`). */
  oneOf?: string[];
  parallel?: boolean;
  /** Skills the step runs (MetaSkill). */
  skillRefs?: SkillRef[];
  /** A condition checked before the step runs; false skips it (MetaSkill `when`). */
  guard?: { text: string; span: Span };
  /** The group the node belongs to (a skill+ stage). */
  group?: string;
  /** Tips and rules that can apply at this node (skill+). */
  attachments?: { kind: 'tip' | 'rule'; id: string; file: string; soft?: boolean }[];
}

/** A named group of nodes drawn as one cluster (a skill+ stage). */
export interface NodeGroup {
  id: string;
  label: string;
  span: Span;
  /** What the group is for (a stage's goal). */
  description?: string;
}

/**
 * `fallback`: a substitute that runs when its primary fails (MetaSkill `on_failure`), from the primary to the
 * substitute.
 */
export type EdgeKind = 'control' | 'data' | 'branch' | 'fallback';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label?: string;
  /** Where the edge is written; absent for implicit edges (list order). */
  span?: Span;
  /** For data edges: the consuming port. */
  consumer?: Port;
  /** For data edges: the producing port (absent when the producer is an external input). */
  producer?: Port;
}

/**
 * The format-neutral graph of one skill. Every element has a span: in
 * `file`, the skill's SKILL.md, unless the span names another file of the
 * skill (a skill+ flow, state or tip), so every feature can point at its source.
 */
export interface SkillModel {
  dir: string;
  file: string;
  name?: string;
  format: FormatId;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Inputs no step produces: supplied by the user or the environment. */
  externalInputs: Port[];
  /** References to steps made by the skill as a whole, not by one step (MetaSkill `final_text_mode`). */
  refs?: ControlRef[];
  /** Clusters of nodes (skill+ stages). */
  groups?: NodeGroup[];
}
