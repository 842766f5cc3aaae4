import type { GraphEdge, GraphNode, NodeGroup, NodeKind, Port } from '../../../model/skillModel';
import { firstNotBefore } from '../../../parse/text/bisect';
import { parsePredicate, predicatePaths } from '../../../parse/predicate/predicate';
import { placeholdersOf } from './bindings';
import { nodesById, type Flow, type FlowNode, type FlowText } from './flow';
import { BUILTINS, textSpan } from './predicates';
import type { StateField, StateSchema } from './readState';
import type { Attachment } from './tipsRulesRules';
import { appendTo } from '../../../listMap';

export interface FlowGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  externalInputs: Port[];
  groups: NodeGroup[];
}

function port(
  name: string,
  direction: Port['direction'],
  nodeId: string,
  at: FlowText | { span: FlowText['span'] },
  whole = at.span,
): Port {
  return { name, direction, nodeId, nullable: false, span: whole, nameSpan: at.span };
}

/** The State paths a node reads: its placeholders, `on`, `over`, and the paths of its `until` predicates. */
function reads(node: FlowNode, fields: Map<string, StateField> | undefined): Port[] {
  const ports: Port[] = placeholdersOf(node).map((placeholder) => ({
    name: placeholder.path,
    direction: 'input',
    nodeId: node.id,
    nullable: false,
    span: placeholder.span,
    nameSpan: placeholder.span,
  }));
  for (const text of [node.on, node.over]) if (text) ports.push(port(text.value, 'input', node.id, text));
  for (const text of node.until) {
    const predicate = parsePredicate(text.value).predicate;
    for (const path of predicate ? predicatePaths(predicate) : []) {
      if (path.segments[0].name in BUILTINS) continue;
      const span = textSpan(text, path.start, path.end);
      ports.push({
        name: path.segments.map((segment) => segment.name).join('.'),
        direction: 'input',
        nodeId: node.id,
        nullable: false,
        span,
        nameSpan: span,
      });
    }
  }
  // Items of a fan-out are not State: they have no writer to connect to.
  return fields ? ports.filter((item) => fields.has(item.name.split('.')[0])) : ports;
}

/**
 * A flow node's part of the model. A node flow.py's reader kept from the
 * last reading (the same object, moved) keeps its model node while the
 * State is the same: every span in it is one of the node's own (moved with
 * it) or a placeholder's (moved by `placeholdersOf`); its stage (a kept
 * call may have moved to another) and the tips and rules that fire there
 * are set again. Like the reused node, it is current only until the next
 * reading. A node with `until` predicates is made again: the spans of the
 * paths they read are its model's own.
 */
const graphNodeCache = new WeakMap<FlowNode, { state: StateSchema | undefined; model: GraphNode }>();

function graphNodeOf(
  node: FlowNode,
  state: StateSchema | undefined,
  fields: Map<string, StateField> | undefined,
  attachments: NonNullable<GraphNode['attachments']>,
): GraphNode {
  const known = graphNodeCache.get(node);
  if (known && known.state === state) {
    placeholdersOf(node);
    const { model } = known;
    if (model.group !== node.stage) {
      if (node.stage) model.group = node.stage;
      else delete model.group;
    }
    model.attachments = attachments;
    return model;
  }
  const model: GraphNode = {
    id: node.id,
    kind: node.kind as NodeKind,
    label: node.id,
    span: node.span,
    nameSpan: node.idSpan,
    ...(node.text ? { description: { text: node.text.value, span: node.text.span } } : {}),
    inputs: reads(node, fields),
    outputs: node.into ? [port(node.into.value, 'output', node.id, node.into)] : [],
    links: node.tools
      .filter((tool) => tool.value.startsWith('scripts/'))
      .map((tool) => ({ path: tool.value, span: tool.span, role: 'script' as const })),
    controlRefs: [],
    ...(node.stage ? { group: node.stage } : {}),
    attachments,
  };
  if (node.until.length === 0) graphNodeCache.set(node, { state, model });
  return model;
}

/**
 * The model of a flow: a node per flow node (grouped by stage, with the
 * State fields it reads as inputs and the one it writes as output, the
 * tips and rules that can fire there), control edges in flow order (a
 * branch to each case, a loop to its body and back, a fan-out to its body,
 * stage to stage), and data edges from the nodes writing a field to the
 * nodes reading it (inputs of the skill: from outside).
 */
export function buildFlowGraph(flow: Flow, state: StateSchema | undefined, attachments: Attachment[]): FlowGraph {
  const byId = nodesById(flow);
  // The State's top-level fields by name, looked up for every read of every node.
  const fields = state?.root ? new Map(state.root.fields.map((field) => [field.name, field])) : undefined;
  // Tips and rules by the nodes where they fire (a rule without `when` fires at every node).
  const firing = new Map<string, NonNullable<GraphNode['attachments']>>();
  for (const { kind, id, file, soft, nodes } of attachments) {
    // One entry per tip or rule, shared by the nodes where it fires.
    const entry = { kind, id, file, ...(soft !== undefined ? { soft } : {}) };
    for (const node of nodes) appendTo(firing, node, entry);
  }
  const nodes: GraphNode[] = flow.nodes.map((node) => graphNodeOf(node, state, fields, firing.get(node.id) ?? []));
  const edges: GraphEdge[] = [];
  const edge = (from: string, to: string | undefined, kind: GraphEdge['kind'], label?: string) => {
    if (to !== undefined) edges.push({ from, to, kind, ...(label ? { label } : {}) });
  };

  /** Links a sequence of node ids, then leaves to `after`; returns nothing. */
  const sequence = (ids: string[], after: string | undefined) => {
    ids.forEach((id, index) => {
      const node = byId.get(id);
      if (!node) return;
      const next = index + 1 < ids.length ? ids[index + 1] : after;
      if (node.kind === 'branch') {
        for (const item of node.cases) {
          const label = item.desc
            ? shorten(item.desc.value)
            : item.values.map((value) => String(value.value)).join(' | ');
          if (item.nodes.length > 0) {
            edge(id, item.nodes[0], 'branch', label);
            sequence(item.nodes, next);
          } else edge(id, next, 'branch', label);
        }
        if (node.otherwise?.nodes.length) {
          edge(id, node.otherwise.nodes[0], 'branch', 'otherwise');
          sequence(node.otherwise.nodes, next);
        } else edge(id, next, 'branch', 'otherwise');
      } else if (node.kind === 'loop' || node.kind === 'fanout') {
        if (node.body.length > 0) {
          edge(
            id,
            node.body[0],
            'control',
            // A fan-out's edge into its body says what each run gets: `each s in stops`.
            node.kind === 'loop'
              ? 'round'
              : ['each', node.item?.value, node.over ? `in ${node.over.value}` : undefined].filter(Boolean).join(' '),
          );
          sequence(node.body, id);
        }
        edge(
          id,
          next,
          'control',
          node.kind === 'loop'
            ? node.until.length > 0
              ? `until ${shorten(node.until.map((text) => text.value).join(' or '))}`
              : 'done'
            : 'all done',
        );
      } else if (node.kind !== 'end') edge(id, next, 'control');
    });
  };
  flow.stages.forEach((stage, index) =>
    sequence(stage.nodes, flow.stages.slice(index + 1).find((later) => later.nodes.length > 0)?.nodes[0]),
  );

  // Data: each read from the latest earlier writer of its field (or the last writer, across a loop's back edge).
  // Writers of each field in flow order, with their places in it, so a read finds the latest earlier one by bisection.
  const writers = new Map<string, { node: GraphNode; index: number }[]>();
  nodes.forEach((node, index) => {
    for (const output of node.outputs) {
      appendTo(writers, output.name.split('.')[0], { node, index });
    }
  });
  const externalInputs: Port[] = [];
  nodes.forEach((node, index) => {
    for (const input of node.inputs) {
      const field = input.name.split('.')[0];
      const list = writers.get(field) ?? [];
      const earlier = firstNotBefore(list.length, (at) => list[at].index < index);
      // The latest writer before this node; else the last one other than itself (a loop's back edge).
      const last = list[list.length - 1]?.node === node ? list[list.length - 2] : list[list.length - 1];
      const producer = earlier > 0 ? list[earlier - 1].node : last?.node;
      if (producer)
        edges.push({
          from: producer.id,
          to: node.id,
          kind: 'data',
          label: input.name,
          span: input.nameSpan,
          consumer: input,
          producer: producer.outputs[0],
        });
      else if (fields?.get(field)?.input) externalInputs.push(input);
    }
  });
  const groups: NodeGroup[] = flow.stages.map((stage) => ({
    id: stage.id,
    label: stage.id,
    span: stage.idSpan,
    ...(stage.goal ? { description: stage.goal.value } : {}),
  }));
  return { nodes, edges, externalInputs, groups };
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
