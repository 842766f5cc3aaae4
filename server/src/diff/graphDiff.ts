import { appendTo } from '../listMap';
import type { GraphJson, GraphJsonNode, GraphJsonPort, GraphProblem } from '../protocol';
import {
  edgeKey,
  incoming,
  incomingChanges,
  nonProducers,
  producerOf,
  unmatched,
  type EdgeChange,
} from './edgeChanges';

// What a change does to a skill's graph: two revisions' graphs (any format: the graph JSON is the same for all) in,
// the steps, ports, edges, scripts, guards, tips and rules added, removed, renamed or changed out, with what follows
// from them (an input left without its producer, findings introduced and fixed). Pure and deterministic.
// Steps are paired across renames and compared here; the edges into each, in edgeChanges.ts.

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

/** Adds to `details` each item of `after` not in `before` and each of `before` not in `after`. */
function listChange(
  details: string[],
  what: string,
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
): void {
  // Most steps have neither list.
  if (!before?.length && !after?.length) return;
  for (const item of after ?? []) if (!before?.includes(item)) details.push(`${what} ${item} added`);
  for (const item of before ?? []) if (!after?.includes(item)) details.push(`${what} ${item} removed`);
}

function fieldChange(details: string[], what: string, before: string | undefined, after: string | undefined): void {
  if (before === after) return;
  if (before === undefined) details.push(`${what} ${after} added`);
  else if (after === undefined) details.push(`${what} ${before} removed`);
  else details.push(`${what} ${before} → ${after}`);
}

/** The ids of a node's tips or rules. */
const attached = (node: GraphJsonNode, kind: 'tip' | 'rule') =>
  node.attachments?.filter((item) => item.kind === kind).map((item) => item.id);

/** The ports of one direction added, removed or retyped between two revisions of a node. */
function portChanges(
  direction: PortChange['direction'],
  old: GraphJsonPort[],
  now: GraphJsonPort[],
  ports: PortChange[],
): void {
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

/** The changes to a node's own fields and ports between two revisions of it. */
function nodeDetails(before: GraphJsonNode, after: GraphJsonNode): { details: string[]; ports: PortChange[] } {
  // Pushed into one list: this runs for every step the two revisions share, most of them unchanged.
  const details: string[] = [];
  fieldChange(details, 'kind', before.kind, after.kind);
  fieldChange(details, 'script', before.script, after.script);
  fieldChange(details, 'skill', before.skill, after.skill);
  fieldChange(details, 'guard', before.when, after.when);
  fieldChange(details, 'stage', before.group, after.group);
  if (before.description !== after.description) details.push('description changed');
  listChange(
    details,
    'route to',
    before.routes?.map((route) => route.to),
    after.routes?.map((route) => route.to),
  );
  listChange(details, 'one of', before.oneOf, after.oneOf);
  if (Boolean(before.parallel) !== Boolean(after.parallel))
    details.push(after.parallel ? 'now parallel' : 'no longer parallel');
  listChange(details, 'tip', attached(before, 'tip'), attached(after, 'tip'));
  listChange(details, 'rule', attached(before, 'rule'), attached(after, 'rule'));
  listChange(details, 'risk', before.risks, after.risks);
  const ports: PortChange[] = [];
  portChanges('input', before.inputs, after.inputs, ports);
  portChanges('output', before.outputs, after.outputs, ports);
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

  // Edges are compared node by node, by the node they end at (named as after the change): an edge's key holds its end,
  // so no two nodes' edges match each other.
  const rename = (id: string) => renamed.get(id) ?? id;
  const [oldIn, newIn] = [incoming(before.edges, rename), incoming(after.edges)];
  const edges: EdgeChange[] = [];
  for (const [target, into] of newIn) incomingChanges(oldIn.get(target) ?? [], into, rename, edges);
  for (const [target, into] of oldIn) if (!newIn.has(target)) incomingChanges(into, [], rename, edges);
  edges.sort((a, b) => edgeKey(a).localeCompare(edgeKey(b)) || a.change.localeCompare(b.change));

  const orphaned: OrphanedInput[] = [];
  const [oldSources, newSources] = [nonProducers(before), nonProducers(after)];
  for (const node of newNodes) {
    const previous = previousOf.get(node.id);
    if (!previous) continue;
    for (const input of node.inputs) {
      const was = producerOf(oldIn.get(node.id), input.name, oldSources);
      if (was && !producerOf(newIn.get(node.id), input.name, newSources))
        orphaned.push({ node: node.id, input: input.name, producer: rename(was) });
    }
  }

  const findingKey = (problem: GraphProblem) => `${problem.severity}|${problem.code}|${problem.message}`;
  const [oldFindings, newFindings] = [before.problems.map(findingKey), after.problems.map(findingKey)];
  const findings: FindingChange[] = [
    ...unmatched(after.problems, newFindings, oldFindings).map((problem) => ({
      change: 'introduced' as const,
      problem,
    })),
    ...unmatched(before.problems, oldFindings, newFindings).map((problem) => ({ change: 'fixed' as const, problem })),
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
