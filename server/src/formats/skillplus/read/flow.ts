import type { Span } from '../../../parse/text/lineIndex';
import { defineRule } from '../../../checks/engine/rule';
import { invalidFlowYaml } from './readFlowYaml';

export const dynamicFlow = defineRule({
  code: 'dynamic_flow',
  category: 'skillplus',
  severity: 'error',
  summary: 'flow.py holds code outside the static subset the runtime reads.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const invalidFlowCall = defineRule({
  code: 'invalid_flow_call',
  category: 'skillplus',
  severity: 'error',
  summary: 'A flow call or key with a missing, unknown or non-literal argument.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const nestedStage = defineRule({
  code: 'nested_stage',
  category: 'skillplus',
  severity: 'error',
  summary: 'A stage inside a stage.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const nodeOutsideStage = defineRule({
  code: 'node_outside_stage',
  category: 'skillplus',
  severity: 'error',
  summary: 'A node outside every stage.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const invalidBranch = defineRule({
  code: 'invalid_branch',
  category: 'skillplus',
  severity: 'error',
  summary: 'A branch without cases, with mixed, empty or repeated cases, or case values of the wrong type.',
  stability: 'stable',
  formats: ['skillplus'],
});

/**
 * The flow of a skill+ package as both front ends (`flow.py`, `flow.yaml`)
 * read it, before checks: stages, nodes and their arguments, each with its
 * place in the flow file. The flow IR of the format note is made from it.
 */

/**
 * A literal text argument, with the file offset of each character (placeholders and predicates are located with them).
 */
export interface FlowText {
  value: string;
  span: Span;
  offsets: number[];
}

/** A literal value of a branch case (`case(False)`, `values: [damaged]`). */
export interface FlowValue {
  value: string | number | boolean | null;
  span: Span;
}

export type FlowNodeKind = 'agent' | 'ask' | 'confirm' | 'branch' | 'loop' | 'fanout' | 'end';
export const FLOW_NODE_KINDS: FlowNodeKind[] = ['agent', 'ask', 'confirm', 'branch', 'loop', 'fanout', 'end'];

/** The arguments each call takes (flow.py keywords, flow.yaml keys), after the id. */
export const FLOW_ARGUMENTS: Record<FlowNodeKind | 'stage', string[]> = {
  stage: ['goal'],
  agent: ['instruction', 'into', 'tool', 'rule', 'merge'],
  ask: ['question', 'into', 'choices', 'merge'],
  confirm: ['prompt', 'into'],
  branch: ['on'],
  loop: ['until', 'goal', 'max_rounds'],
  fanout: ['over', 'item', 'into', 'max_parallel', 'merge'],
  end: ['summary'],
};

/** The text argument of each kind that has one (its second positional argument in `flow.py`). */
export const TEXT_ARGUMENT: Partial<Record<FlowNodeKind, string>> = {
  agent: 'instruction',
  ask: 'question',
  confirm: 'prompt',
  end: 'summary',
};

/** Only these texts are templated with `{placeholders}`; a summary, a goal or a `desc` is read as written. */
export const TEMPLATED_KINDS = new Set<FlowNodeKind>(['agent', 'ask', 'confirm']);

export interface FlowCase {
  /** `case(*values)`: the values of the `on` field this case takes. */
  values: FlowValue[];
  /** `case(desc=…)`: a condition the model judges. */
  desc?: FlowText;
  /** Ids of the nodes run in this case, in order. */
  nodes: string[];
  span: Span;
}

export interface FlowNode {
  id: string;
  idSpan: Span;
  kind: FlowNodeKind;
  /** The whole call (or `with` block, or YAML mapping). */
  span: Span;
  stage?: string;
  /** The branch, loop or fan-out this node is inside, if any. */
  parent?: string;
  /** The instruction, question, prompt or summary. */
  text?: FlowText;
  into?: FlowText;
  tools: FlowText[];
  rules: FlowText[];
  choices: FlowValue[];
  merge?: FlowText;
  /** Branch: the State path switched on, the cases, the nodes of `otherwise`. */
  on?: FlowText;
  cases: FlowCase[];
  otherwise?: { nodes: string[]; span: Span };
  /** Loop: its exit predicates (several only in flow.yaml, where a list means any of them). */
  until: FlowText[];
  goal?: FlowText;
  maxRounds?: FlowValue;
  /** Fan-out. */
  over?: FlowText;
  item?: FlowText;
  maxParallel?: FlowValue;
  /** Loop and fan-out: the nodes of the body, in order. */
  body: string[];
}

export interface FlowStage {
  id: string;
  idSpan: Span;
  goal?: FlowText;
  /** Ids of the stage's top-level nodes, in order. */
  nodes: string[];
  span: Span;
}

/** What a front end found that is not part of the static flow, or breaks its shape. */
export interface FlowProblem {
  rule:
    | typeof dynamicFlow
    | typeof invalidFlowCall
    | typeof nestedStage
    | typeof nodeOutsideStage
    | typeof invalidFlowYaml
    | typeof invalidBranch;
  message: string;
  span: Span;
  /** For the quick fix: the text to quote in flow.yaml. */
  data?: { quote: { start: number; end: number } };
}

export interface Flow {
  file: string;
  front: 'py' | 'yaml';
  stages: FlowStage[];
  /** Every node, in the order it is written. */
  nodes: FlowNode[];
  problems: FlowProblem[];
}

export function emptyNode(id: string, idSpan: Span, kind: FlowNodeKind, span: Span): FlowNode {
  return { id, idSpan, kind, span, tools: [], rules: [], choices: [], cases: [], body: [], until: [] };
}

const byIdCache = new WeakMap<Flow, Map<string, FlowNode>>();

/** A flow's nodes by id, made once per flow read (asked for at every node). */
export function nodesById(flow: Flow): Map<string, FlowNode> {
  let byId = byIdCache.get(flow);
  if (!byId) {
    byId = new Map(flow.nodes.map((item) => [item.id, item]));
    byIdCache.set(flow, byId);
  }
  return byId;
}

/**
 * Visits the flow as it nests: each stage, then its nodes depth-first (cases, otherwise and bodies one level deeper).
 */
export function walkFlow(
  flow: Flow,
  onStage: (stage: FlowStage) => void,
  onNode: (node: FlowNode, depth: number) => void,
): void {
  const byId = nodesById(flow);
  const visit = (node: FlowNode, depth: number) => {
    onNode(node, depth);
    // A malformed flow can nest a node inside itself: the depth bound stops the walk.
    if (depth >= 20) return;
    for (const id of [...node.body, ...node.cases.flatMap((item) => item.nodes), ...(node.otherwise?.nodes ?? [])]) {
      const child = byId.get(id);
      if (child) visit(child, depth + 1);
    }
  };
  for (const stage of flow.stages) {
    onStage(stage);
    for (const id of stage.nodes) {
      const node = byId.get(id);
      if (node) visit(node, 1);
    }
  }
}
