import type { GraphEdge, GraphNode } from './skillModel';

/** Successor lists by node id, from control and branch edges. */
export function successors(nodes: GraphNode[], edges: GraphEdge[]): Map<string, string[]> {
  const next = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  for (const edge of edges) {
    if (edge.kind !== 'data' && next.has(edge.from) && next.has(edge.to)) next.get(edge.from)!.push(edge.to);
  }
  return next;
}

/** Every node reachable from `start` along `next` (including `start`). */
export function reachableFrom(start: Iterable<string>, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const to of next.get(id) ?? []) if (!seen.has(to)) stack.push(to);
  }
  return seen;
}

/** The reverse of a successor map. */
export function reverse(next: Map<string, string[]>): Map<string, string[]> {
  const previous = new Map<string, string[]>([...next.keys()].map((id) => [id, []]));
  for (const [from, targets] of next) for (const to of targets) previous.get(to)?.push(from);
  return previous;
}

/**
 * Strict ancestors of every node (nodes that always run before it), computed
 * once in topological order so large graphs stay linear in practice.
 */
export function ancestors(nodes: GraphNode[], next: Map<string, string[]>): Map<string, Set<string>> {
  const previous = reverse(next);
  const result = new Map<string, Set<string>>();
  const visiting = new Set<string>();
  const visit = (id: string): Set<string> => {
    const known = result.get(id);
    if (known) return known;
    // On a cycle, the partial set is the best answer; cycles are reported elsewhere.
    if (visiting.has(id)) return new Set();
    visiting.add(id);
    const set = new Set<string>();
    for (const parent of previous.get(id) ?? []) {
      set.add(parent);
      for (const grand of visit(parent)) set.add(grand);
    }
    visiting.delete(id);
    result.set(id, set);
    return set;
  };
  for (const node of nodes) visit(node.id);
  return result;
}
