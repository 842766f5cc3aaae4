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

/** Adds to `details` each item of `after` not in `before` and each of `before` not in `after`. */
function listChange(
  details: string[],
  what: string,
  before: readonly string[] = [],
  after: readonly string[] = [],
): void {
  for (const item of after) if (!before.includes(item)) details.push(`${what} ${item} added`);
  for (const item of before) if (!after.includes(item)) details.push(`${what} ${item} removed`);
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

/**
 * Each item of `list` not matched, one for one, by an item of `other` with the same key; the keys are given in the
 * lists' order (each is made once: a revision has thousands of edges).
 */
function unmatched<T>(list: T[], keys: string[], otherKeys: string[]): T[] {
  const counts = new Map<string, number>();
  for (const key of otherKeys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return list.filter((_, index) => {
    const left = counts.get(keys[index]) ?? 0;
    if (left === 0) return true;
    counts.set(keys[index], left - 1);
    return false;
  });
}

/**
 * Each step's inputs that a step (not a value given from outside) produces: step → input → producer. Maps in maps, not
 * one map by joined keys: every input of every step is looked up, and joining the keys cost more than the lookups.
 */
function producers(graph: GraphJson): Map<string, Map<string, string>> {
  const kinds = new Map(graph.nodes.map((item) => [item.id, item.kind]));
  const found = new Map<string, Map<string, string>>();
  for (const edge of graph.edges) {
    const kind = kinds.get(edge.from);
    const input = edge.toPort ?? edge.label;
    if (edge.kind !== 'data' || kind === 'external-input' || kind === 'missing' || input === undefined) continue;
    let inputs = found.get(edge.to);
    if (!inputs) found.set(edge.to, (inputs = new Map()));
    if (!inputs.has(input)) inputs.set(input, edge.from);
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

  // Edges before the change, their ends named as after it; only those reported are copied.
  const rename = (id: string) => renamed.get(id) ?? id;
  const renamedEnds = (edge: GraphJsonEdge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) });
  const oldKeys = before.edges.map((edge) =>
    edgeKey({ from: rename(edge.from), to: rename(edge.to), kind: edge.kind, label: edge.label }),
  );
  const newKeys = after.edges.map(edgeKey);
  const edges: EdgeChange[] = [];
  const describe = (edge: GraphJsonEdge, change: EdgeChange['change']): EdgeChange => ({ change, ...edgeCore(edge) });
  for (const edge of unmatched(after.edges, newKeys, oldKeys)) edges.push(describe(edge, 'added'));
  for (const edge of unmatched(before.edges, oldKeys, newKeys)) edges.push(describe(renamedEnds(edge), 'removed'));
  const oldByKey = new Map<string, GraphJsonEdge>();
  before.edges.forEach((edge, index) => {
    if (!oldByKey.has(oldKeys[index])) oldByKey.set(oldKeys[index], edge);
  });
  after.edges.forEach((edge, index) => {
    const previous = oldByKey.get(newKeys[index]);
    if (previous && (previous.type ?? '') !== (edge.type ?? ''))
      edges.push({ ...describe(edge, 'retyped'), ...(previous.type ? { before: previous.type } : {}) });
  });
  edges.sort((a, b) => edgeKey(a).localeCompare(edgeKey(b)) || a.change.localeCompare(b.change));

  const orphaned: OrphanedInput[] = [];
  const [producedBefore, producedAfter] = [producers(before), producers(after)];
  for (const node of newNodes) {
    const previous = previousOf.get(node.id);
    if (!previous) continue;
    const [wasProduced, isProduced] = [producedBefore.get(previous.id), producedAfter.get(node.id)];
    for (const input of node.inputs) {
      const was = wasProduced?.get(input.name);
      if (was && !isProduced?.has(input.name))
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
