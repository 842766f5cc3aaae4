import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { edgeKey, type EdgeChange } from '../../../server/src/diff/edgeChanges';
import { diffGraphs, type OrphanedInput } from '../../../server/src/diff/graphDiff';
import { random } from '../../support/random';
import type { GraphJson, GraphJsonEdge, GraphJsonNode } from '../../../server/src/protocol';

// The diff compares edges node by node, edge by edge where a node's edges are as they were. Here it is held to the
// rule it implements, written the plain way over all edges at once: edges match one for one by their key (ends, kind,
// label), and an edge after the change is retyped when the first edge before it with its key had another type. Random
// pairs of graphs: edges dropped, added, moved, doubled and retyped, steps renamed, values from outside and references
// to no step among the ends.

const RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const LABELS = ['a', 'b', 'c'];
const TYPES = [undefined, 'string', 'integer'];

function node(id: string, kind: GraphJsonNode['kind'], inputs: string[]): GraphJsonNode {
  const port = (name: string) => ({ name, nullable: false, range: RANGE });
  return { id, kind, label: id, file: 'SKILL.md', range: RANGE, extent: RANGE, inputs: inputs.map(port), outputs: [] };
}

function graph(nodes: GraphJsonNode[], edges: GraphJsonEdge[]): GraphJson {
  return { version: 1, skill: { format: 'aip-0.3', dir: '.', file: 'SKILL.md' }, nodes, edges, problems: [] };
}

/** The expected edge changes and orphaned inputs, over all edges at once. */
function expected(before: GraphJson, after: GraphJson, renamed: Map<string, string>) {
  const rename = (id: string) => renamed.get(id) ?? id;
  const moved = before.edges.map((edge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) }));
  const core = (edge: GraphJsonEdge, change: EdgeChange['change']): EdgeChange => ({
    change,
    from: edge.from,
    to: edge.to,
    kind: edge.kind,
    ...(edge.label !== undefined ? { label: edge.label } : {}),
    ...(edge.type !== undefined ? { type: edge.type } : {}),
  });
  const unmatched = (list: GraphJsonEdge[], other: GraphJsonEdge[]) => {
    const left = other.map(edgeKey);
    return list.filter((edge) => {
      const at = left.indexOf(edgeKey(edge));
      if (at !== -1) left.splice(at, 1);
      return at === -1;
    });
  };
  const edges: EdgeChange[] = [
    ...unmatched(after.edges, moved).map((edge) => core(edge, 'added')),
    ...unmatched(moved, after.edges).map((edge) => core(edge, 'removed')),
  ];
  for (const edge of after.edges) {
    const previous = moved.find((old) => edgeKey(old) === edgeKey(edge));
    if (previous && (previous.type ?? '') !== (edge.type ?? ''))
      edges.push({ ...core(edge, 'retyped'), ...(previous.type ? { before: previous.type } : {}) });
  }
  edges.sort((a, b) => edgeKey(a).localeCompare(edgeKey(b)) || a.change.localeCompare(b.change));
  // An input's producer: the first data edge into its node with its name, from a step.
  const producer = (graph: GraphJson, edges: GraphJsonEdge[], nodeId: string, input: string) => {
    const sources = new Set(graph.nodes.filter((item) => item.kind !== 'step').map((item) => item.id));
    return edges.find(
      (edge) => edge.to === nodeId && edge.kind === 'data' && edge.label === input && !sources.has(rename(edge.from)),
    )?.from;
  };
  const orphaned: OrphanedInput[] = [];
  for (const item of after.nodes.filter((candidate) => candidate.kind === 'step'))
    for (const input of item.inputs) {
      const was = producer(before, moved, item.id, input.name);
      if (was && !producer(after, after.edges, item.id, input.name))
        orphaned.push({ node: item.id, input: input.name, producer: was });
    }
  return { edges, orphaned };
}

function randomEdge(next: () => number, ids: string[], targets: string[]): GraphJsonEdge {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const kind = next() < 0.7 ? 'data' : 'control';
  const type = pick(TYPES);
  return {
    from: pick(ids),
    to: pick(targets),
    kind,
    ...(kind === 'data' ? { label: pick(LABELS) } : {}),
    ...(type !== undefined ? { type } : {}),
  };
}

test('edge changes and orphaned inputs follow the one-for-one rule, on random pairs of graphs', () => {
  const next = random(39);
  for (let round = 0; round < 400; round++) {
    const steps = ['p', 'q', 'r', 's'];
    const sources = [node('input:a', 'external-input', []), node('ghost', 'missing', [])];
    const ids = [...steps, ...sources.map((item) => item.id)];
    const oldEdges = Array.from({ length: Math.floor(next() * 12) }, () => randomEdge(next, ids, steps));
    // A step renamed keeps its content: the diff pairs it with the step it was.
    const renamed = next() < 0.4 ? new Map([['q', 'q2']]) : new Map<string, string>();
    const rename = (id: string) => renamed.get(id) ?? id;
    let newEdges = oldEdges.map((edge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) }));
    const newIds = ids.map(rename);
    const newSteps = steps.map(rename);
    for (let change = Math.floor(next() * 4); change > 0; change--) {
      const at = Math.floor(next() * (newEdges.length + 1));
      const roll = next();
      if (roll < 0.25) newEdges.splice(at, 1);
      else if (roll < 0.5) newEdges.splice(at, 0, randomEdge(next, newIds, newSteps));
      else if (roll < 0.65 && newEdges[at]) newEdges.splice(at, 0, { ...newEdges[at] });
      else if (roll < 0.8 && newEdges[at]) newEdges[at] = { ...newEdges[at], type: TYPES[round % 3] ?? 'boolean' };
      else newEdges = [...newEdges.slice(at), ...newEdges.slice(0, at)];
    }
    const before = graph([...steps.map((id) => node(id, 'step', LABELS)), ...sources], oldEdges);
    const after = graph([...newSteps.map((id) => node(id, 'step', LABELS)), ...sources], newEdges);
    const diff = diffGraphs(before, after);
    const want = expected(before, after, renamed);
    assert.deepEqual(diff.edges, want.edges, `round ${round}`);
    assert.deepEqual(diff.orphaned, want.orphaned, `round ${round}`);
  }
});
