import type { GraphEdge, GraphNode } from './skillModel';

/**
 * Successor lists by node id, from control and branch edges (a substitute runs instead of its primary, not after it).
 */
export function successors(nodes: GraphNode[], edges: readonly GraphEdge[]): Map<string, string[]> {
  const next = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  for (const edge of edges) {
    if ((edge.kind === 'control' || edge.kind === 'branch') && next.has(edge.from) && next.has(edge.to))
      next.get(edge.from)!.push(edge.to);
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
 * Answers "does A always run before B" on demand. A walk backwards from B
 * stops at A, and producers are usually near their consumers, so a
 * 10,000-step chain costs little; full ancestor sets would be quadratic.
 */
export class ControlOrder {
  private readonly previous: Map<string, string[]>;

  constructor(nodes: GraphNode[], edges: GraphEdge[]) {
    this.previous = reverse(successors(nodes, edges));
  }

  isAncestor(candidate: string, of: string): boolean {
    if (candidate === of) return false;
    const seen = new Set<string>();
    const queue = [...(this.previous.get(of) ?? [])];
    for (let head = 0; head < queue.length; head++) {
      const id = queue[head];
      if (id === candidate) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const parent of this.previous.get(id) ?? []) if (!seen.has(parent)) queue.push(parent);
    }
    return false;
  }

  /** Every strict ancestor of a node (on a cycle, the node itself too). */
  ancestorsOf(id: string): Set<string> {
    return reachableFrom(this.previous.get(id) ?? [], this.previous);
  }
}
