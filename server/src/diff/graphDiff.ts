import {
  edgeCore,
  type GraphJson,
  type GraphJsonEdge,
  type GraphJsonNode,
  type GraphJsonPort,
} from '../compile/graphJson';
import type { GraphProblem } from '../compile/graphProblems';
import { appendTo } from '../listMap';

// What a change does to a skill's graph: two revisions' graphs (any format: the graph JSON is the same for all) in,
// the steps, ports, edges, scripts, guards, tips and rules added, removed, renamed or changed out, with what follows
// from them (an input left without its producer, findings introduced and fixed). Pure and deterministic.

export interface PortChange {
  direction: 'input' | 'output';
  name: string;
  change: 'added' | 'removed' | 'retyped';
  /** The type before and after (retyped), or the type of the port added or removed. */
  before?: string;
  after?: string;
}

export interface NodeChange {
  change: 'added' | 'removed' | 'renamed' | 'changed';
  /** The node's id after the change (before it, for one removed). */
  id: string;
  /** A renamed node's id before the change. */
  from?: string;
  kind: GraphJsonNode['kind'];
  /** Each change to the node's own fields, in words: `script scripts/a.py → scripts/b.py`. */
  details: string[];
  ports: PortChange[];
}

export interface EdgeChange {
  change: 'added' | 'removed' | 'retyped';
  from: string;
  to: string;
  kind: GraphJsonEdge['kind'];
  label?: string;
  /** The value's type (after; before, for one removed). */
  type?: string;
  /** A retyped edge's type before. */
  before?: string;
}

/** An input that had a producer before the change and has none after it. */
export interface OrphanedInput {
  node: string;
  input: string;
  /** The step that produced it before. */
  producer: string;
}

export interface FindingChange {
  change: 'introduced' | 'fixed';
  problem: GraphProblem;
}

export interface GraphDiff {
  skill: GraphJson['skill'];
  /** The format before, when the change moved the skill to another. */
  formatBefore?: string;
  nodes: NodeChange[];
  edges: EdgeChange[];
  orphaned: OrphanedInput[];
  findings: FindingChange[];
  /** Whether the change introduces an error finding (the CLI's exit status). */
  introducesErrors: boolean;
}

/** Nodes the drawing adds for a reference to no step: a consequence, reported through the findings. */
const drawn = (graph: GraphJson) => graph.nodes.filter((node) => node.kind !== 'missing');

const portKey = (port: GraphJsonPort) => `${port.name}:${port.type ?? ''}`;

/** What a step is apart from its name: two steps with the same content under different names are one renamed. */
function content(node: GraphJsonNode): string {
  return JSON.stringify([
    node.kind,
    node.script ?? '',
    node.skill ?? '',
    node.inputs.map(portKey),
    node.outputs.map(portKey),
    node.description ?? '',
    node.when ?? '',
  ]);
}

function listChange(what: string, before: string[] = [], after: string[] = []): string[] {
  return [
    ...after.filter((item) => !before.includes(item)).map((item) => `${what} ${item} added`),
    ...before.filter((item) => !after.includes(item)).map((item) => `${what} ${item} removed`),
  ];
}

function fieldChange(what: string, before: string | undefined, after: string | undefined): string[] {
  if (before === after) return [];
  if (before === undefined) return [`${what} ${after} added`];
  if (after === undefined) return [`${what} ${before} removed`];
  return [`${what} ${before} → ${after}`];
}

/** The changes to a node's own fields and ports between two revisions of it. */
function nodeDetails(before: GraphJsonNode, after: GraphJsonNode): { details: string[]; ports: PortChange[] } {
  const details = [
    ...fieldChange('kind', before.kind, after.kind),
    ...fieldChange('script', before.script, after.script),
    ...fieldChange('skill', before.skill, after.skill),
    ...fieldChange('guard', before.when, after.when),
    ...fieldChange('stage', before.group, after.group),
    ...(before.description !== after.description ? ['description changed'] : []),
    ...listChange(
      'route to',
      before.routes?.map((route) => route.to),
      after.routes?.map((route) => route.to),
    ),
    ...listChange('one of', before.oneOf, after.oneOf),
    ...(Boolean(before.parallel) !== Boolean(after.parallel)
      ? [after.parallel ? 'now parallel' : 'no longer parallel']
      : []),
    ...listChange(
      'tip',
      before.attachments?.filter((item) => item.kind === 'tip').map((item) => item.id),
      after.attachments?.filter((item) => item.kind === 'tip').map((item) => item.id),
    ),
    ...listChange(
      'rule',
      before.attachments?.filter((item) => item.kind === 'rule').map((item) => item.id),
      after.attachments?.filter((item) => item.kind === 'rule').map((item) => item.id),
    ),
    ...listChange('risk', before.risks, after.risks),
  ];
  const ports: PortChange[] = [];
  for (const direction of ['input', 'output'] as const) {
    const old = direction === 'input' ? before.inputs : before.outputs;
    const now = direction === 'input' ? after.inputs : after.outputs;
    for (const port of now) {
      const previous = old.find((item) => item.name === port.name);
      if (!previous)
        ports.push({ direction, name: port.name, change: 'added', ...(port.type ? { after: port.type } : {}) });
      else if ((previous.type ?? '') !== (port.type ?? ''))
        ports.push({
          direction,
          name: port.name,
          change: 'retyped',
          ...(previous.type ? { before: previous.type } : {}),
          ...(port.type ? { after: port.type } : {}),
        });
    }
    for (const port of old)
      if (!now.some((item) => item.name === port.name))
        ports.push({ direction, name: port.name, change: 'removed', ...(port.type ? { before: port.type } : {}) });
  }
  return { details, ports };
}

/**
 * Pairs the nodes removed with the nodes added that have the same content: a step renamed, not one removed and
 * another added. Each pairs at most once, in the order written.
 */
function renames(removed: GraphJsonNode[], added: GraphJsonNode[]): Map<string, string> {
  const pairs = new Map<string, string>();
  // The nodes added by content, each list in the order written; a pair takes the first.
  const byContent = new Map<string, GraphJsonNode[]>();
  for (const node of added) appendTo(byContent, content(node), node);
  for (const old of removed) {
    const match = byContent.get(content(old))?.shift();
    if (match) pairs.set(old.id, match.id);
  }
  return pairs;
}

/** An edge by its ends, kind and label: the same edge in two revisions (its type may differ). */
export const edgeKey = (edge: { from: string; to: string; kind: string; label?: string }) =>
  `${edge.from}>${edge.to}:${edge.kind}:${edge.label ?? ''}`;

/** Each item of `list` not matched, one for one, by an item of `other` with the same key. */
function unmatched<T>(list: T[], other: T[], key: (item: T) => string): T[] {
  const counts = new Map<string, number>();
  for (const item of other) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return list.filter((item) => {
    const left = counts.get(key(item)) ?? 0;
    if (left === 0) return true;
    counts.set(key(item), left - 1);
    return false;
  });
}

/** Each step's inputs that a step (not a value given from outside) produces, by `node\0input`: the producer. */
function producers(graph: GraphJson): Map<string, string> {
  const kinds = new Map(graph.nodes.map((item) => [item.id, item.kind]));
  const found = new Map<string, string>();
  for (const edge of graph.edges) {
    const kind = kinds.get(edge.from);
    if (edge.kind !== 'data' || kind === 'external-input' || kind === 'missing') continue;
    const key = `${edge.to}\0${edge.toPort ?? edge.label}`;
    if (!found.has(key)) found.set(key, edge.from);
  }
  return found;
}

/** Compares two revisions of one skill's graph. */
export function diffGraphs(before: GraphJson, after: GraphJson): GraphDiff {
  const oldNodes = drawn(before);
  const newNodes = drawn(after);
  const oldById = new Map(oldNodes.map((node) => [node.id, node]));
  const newIds = new Set(newNodes.map((node) => node.id));
  const renamed = renames(
    oldNodes.filter((node) => !newIds.has(node.id)),
    newNodes.filter((node) => !oldById.has(node.id)),
  );
  const renamedTo = new Set(renamed.values());
  // Each node after the change, by its id before it.
  const previousOf = new Map<string, GraphJsonNode>();
  for (const node of oldNodes) previousOf.set(renamed.get(node.id) ?? node.id, node);

  const nodes: NodeChange[] = [];
  for (const node of newNodes) {
    const previous = previousOf.get(node.id);
    if (!previous) {
      nodes.push({ change: 'added', id: node.id, kind: node.kind, details: [], ports: [] });
      continue;
    }
    const { details, ports } = nodeDetails(previous, node);
    if (renamedTo.has(node.id))
      nodes.push({ change: 'renamed', id: node.id, from: previous.id, kind: node.kind, details, ports });
    else if (details.length > 0 || ports.length > 0)
      nodes.push({ change: 'changed', id: node.id, kind: node.kind, details, ports });
  }
  for (const node of oldNodes)
    if (!renamed.has(node.id) && !newIds.has(node.id))
      nodes.push({ change: 'removed', id: node.id, kind: node.kind, details: [], ports: [] });

  // Edges before the change, their ends named as after it.
  const rename = (id: string) => renamed.get(id) ?? id;
  const oldEdges = before.edges.map((edge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) }));
  const edges: EdgeChange[] = [];
  const describe = (edge: GraphJsonEdge, change: EdgeChange['change']): EdgeChange => ({ change, ...edgeCore(edge) });
  for (const edge of unmatched(after.edges, oldEdges, edgeKey)) edges.push(describe(edge, 'added'));
  for (const edge of unmatched(oldEdges, after.edges, edgeKey)) edges.push(describe(edge, 'removed'));
  const oldByKey = new Map<string, GraphJsonEdge>();
  for (const edge of oldEdges) if (!oldByKey.has(edgeKey(edge))) oldByKey.set(edgeKey(edge), edge);
  for (const edge of after.edges) {
    const previous = oldByKey.get(edgeKey(edge));
    if (previous && (previous.type ?? '') !== (edge.type ?? ''))
      edges.push({ ...describe(edge, 'retyped'), ...(previous.type ? { before: previous.type } : {}) });
  }
  edges.sort((a, b) => edgeKey(a).localeCompare(edgeKey(b)) || a.change.localeCompare(b.change));

  const orphaned: OrphanedInput[] = [];
  const [producedBefore, producedAfter] = [producers(before), producers(after)];
  for (const node of newNodes) {
    const previous = previousOf.get(node.id);
    if (!previous) continue;
    for (const input of node.inputs) {
      const was = producedBefore.get(`${previous.id}\0${input.name}`);
      if (was && !producedAfter.has(`${node.id}\0${input.name}`))
        orphaned.push({ node: node.id, input: input.name, producer: rename(was) });
    }
  }

  const findingKey = (problem: GraphProblem) => `${problem.severity}|${problem.code}|${problem.message}`;
  const findings: FindingChange[] = [
    ...unmatched(after.problems, before.problems, findingKey).map((problem) => ({
      change: 'introduced' as const,
      problem,
    })),
    ...unmatched(before.problems, after.problems, findingKey).map((problem) => ({ change: 'fixed' as const, problem })),
  ];
  return {
    skill: after.skill,
    ...(before.skill.format !== after.skill.format ? { formatBefore: before.skill.format } : {}),
    nodes,
    edges,
    orphaned,
    findings,
    introducesErrors: findings.some((item) => item.change === 'introduced' && item.problem.severity === 'error'),
  };
}

/** Whether the change does anything to the graph or its findings. */
export function isEmptyDiff(diff: GraphDiff): boolean {
  return diff.nodes.length === 0 && diff.edges.length === 0 && diff.findings.length === 0 && !diff.formatBefore;
}
