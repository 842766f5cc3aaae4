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
 * The nodes in an order that keeps every control edge pointing forward, as close to their written order as it
 * allows (a node waits only for its predecessors). Nodes on a cycle keep their written order at the end.
 */
export function controlOrder(nodes: GraphNode[], edges: readonly GraphEdge[]): GraphNode[] {
  const next = successors(nodes, edges);
  const position = new Map(nodes.map((node, index) => [node.id, index]));
  const waiting = nodes.map(() => 0);
  for (const targets of next.values()) for (const to of targets) waiting[position.get(to)!]++;
  // The ready nodes as a binary heap of written positions: the earliest written runs first.
  const ready: number[] = [];
  const push = (index: number) => {
    let at = ready.push(index) - 1;
    while (at > 0 && ready[(at - 1) >> 1] > ready[at]) {
      [ready[at], ready[(at - 1) >> 1]] = [ready[(at - 1) >> 1], ready[at]];
      at = (at - 1) >> 1;
    }
  };
  const pop = () => {
    const top = ready[0];
    const last = ready.pop()!;
    if (ready.length > 0) {
      ready[0] = last;
      for (let at = 0; ;) {
        const smallest = [2 * at + 1, 2 * at + 2]
          .filter((child) => child < ready.length)
          .reduce((best, child) => (ready[child] < ready[best] ? child : best), at);
        if (smallest === at) break;
        [ready[at], ready[smallest]] = [ready[smallest], ready[at]];
        at = smallest;
      }
    }
    return top;
  };
  waiting.forEach((count, index) => count === 0 && push(index));
  const placed = new Set<number>();
  while (ready.length > 0) {
    const index = pop();
    placed.add(index);
    for (const to of next.get(nodes[index].id)!) if (--waiting[position.get(to)!] === 0) push(position.get(to)!);
  }
  return [...[...placed].map((index) => nodes[index]), ...nodes.filter((_, index) => !placed.has(index))];
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
