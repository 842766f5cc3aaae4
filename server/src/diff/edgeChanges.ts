import { edgeCore } from '../forms/graphJson';
import { appendTo } from '../listMap';
import type { GraphJson, GraphJsonEdge } from '../protocol';

// The edges of two revisions of a skill's graph compared: node by node, by the node they end at, matched one for one
// by their ends, kind and label; and the step that produces each input, for the inputs a change leaves without one.
// graphDiff.ts puts them in the whole diff.

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

/** An edge by its ends, kind and label: the same edge in two revisions (its type may differ). */
export const edgeKey = (edge: { from: string; to: string; kind: string; label?: string }) =>
  `${edge.from}>${edge.to}:${edge.kind}:${edge.label ?? ''}`;

/**
 * Each item of `list` not matched, one for one, by an item of `other` with the same key; the keys are given in the
 * lists' order (each is made once: a revision has thousands of edges).
 */
export function unmatched<T>(list: T[], keys: string[], otherKeys: string[]): T[] {
  const counts = new Map<string, number>();
  for (const key of otherKeys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return list.filter((_, index) => {
    const left = counts.get(keys[index]) ?? 0;
    if (left === 0) return true;
    counts.set(keys[index], left - 1);
    return false;
  });
}

/** A graph's edges by the node they end at (named by `rename`), each list in the graph's order. */
export function incoming(
  edges: GraphJsonEdge[],
  rename: (id: string) => string = (id) => id,
): Map<string, GraphJsonEdge[]> {
  const byTarget = new Map<string, GraphJsonEdge[]>();
  for (const edge of edges) appendTo(byTarget, rename(edge.to), edge);
  return byTarget;
}

/** The ids of a graph's nodes that produce nothing: values given from outside, references to no step. */
export const nonProducers = (graph: GraphJson) =>
  new Set(
    graph.nodes.filter((node) => node.kind === 'external-input' || node.kind === 'missing').map((node) => node.id),
  );

/** The step that produces a node's `input`, among the edges into the node: the first data edge from a step. */
export function producerOf(
  edges: GraphJsonEdge[] | undefined,
  input: string,
  nonProducing: Set<string>,
): string | undefined {
  for (const edge of edges ?? [])
    if (edge.kind === 'data' && (edge.toPort ?? edge.label) === input && !nonProducing.has(edge.from)) return edge.from;
  return undefined;
}

/** Whether no two of `edges` (all into one node) start at the same node with the same kind and label. */
function distinct(edges: GraphJsonEdge[]): boolean {
  // Nodes have a few edges in: compared pair by pair, with keys past a few.
  if (edges.length > 16) return new Set(edges.map(edgeKey)).size === edges.length;
  for (let index = 1; index < edges.length; index++)
    for (let other = 0; other < index; other++)
      if (
        edges[index].from === edges[other].from &&
        edges[index].kind === edges[other].kind &&
        edges[index].label === edges[other].label
      )
        return false;
  return true;
}

const describe = (edge: GraphJsonEdge, change: EdgeChange['change']): EdgeChange => ({ change, ...edgeCore(edge) });

/** `edge` retyped, when `previous` carried another type. */
function retyped(previous: GraphJsonEdge, edge: GraphJsonEdge, changes: EdgeChange[]): void {
  if ((previous.type ?? '') !== (edge.type ?? ''))
    changes.push({ ...describe(edge, 'retyped'), ...(previous.type ? { before: previous.type } : {}) });
}

/**
 * The changes to the edges into one node (`before` with their ends named as after the change): added and removed, one
 * for one by `edgeKey`, and retyped (an edge after the change whose key the first edge before it with that key had,
 * with another type). Most nodes keep their edges as they were, in order: those are compared edge by edge, without
 * making keys.
 */
export function incomingChanges(
  before: GraphJsonEdge[],
  after: GraphJsonEdge[],
  rename: (id: string) => string,
  changes: EdgeChange[],
): void {
  let inOrder = before.length === after.length;
  for (let index = 0; inOrder && index < after.length; index++) {
    const [old, now] = [before[index], after[index]];
    inOrder = rename(old.from) === now.from && old.kind === now.kind && old.label === now.label;
  }
  // In order, and no two alike: each edge's first match before the change is the one at its place.
  if (inOrder && distinct(after)) {
    for (let index = 0; index < after.length; index++) retyped(before[index], after[index], changes);
    return;
  }
  const oldKeys = before.map((edge) =>
    edgeKey({ from: rename(edge.from), to: rename(edge.to), kind: edge.kind, label: edge.label }),
  );
  const newKeys = after.map(edgeKey);
  for (const edge of unmatched(after, newKeys, oldKeys)) changes.push(describe(edge, 'added'));
  for (const edge of unmatched(before, oldKeys, newKeys))
    changes.push(describe({ ...edge, from: rename(edge.from), to: rename(edge.to) }, 'removed'));
  const firstOld = new Map<string, GraphJsonEdge>();
  before.forEach((edge, index) => {
    if (!firstOld.has(oldKeys[index])) firstOld.set(oldKeys[index], edge);
  });
  after.forEach((edge, index) => {
    const previous = firstOld.get(newKeys[index]);
    if (previous) retyped(previous, edge, changes);
  });
}
