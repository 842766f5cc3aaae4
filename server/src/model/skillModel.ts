import type { Span } from '../parse/lineIndex';

/** Every format Skillgraph recognises; later formats load into the same model. */
export type FormatId = 'agent-skill' | 'aip-0.3' | 'aip-0.5' | 'metaskill' | 'metaskill-sop' | 'skillplus';

/** What a node is. AIP 0.3 steps are `step`; AIP 0.5 kinds keep their own names. */
export type NodeKind = 'step' | 'decision' | 'execution' | 'client_task' | 'router' | 'end' | 'external-input';

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

/** An outgoing control reference written in the source (`depends_on`, `inputs_to`, a router branch). */
export interface ControlRef {
  target: string;
  span: Span;
  via: 'depends_on' | 'inputs_to' | 'branch';
  /** The branch value for router branches. */
  label?: string;
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
}

export type EdgeKind = 'control' | 'data' | 'branch';

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
 * The format-neutral graph of one skill. Every element has a span in
 * `file`, the skill's SKILL.md, so every feature can point at its source.
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
}
