import type { GraphEdge, SkillModel } from '../../model/skillModel';
import { successors } from '../../model/controlFlow';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';
import { fixOf, type Fix, type FixSource } from '../engine/fix';
import { removeListEntry } from '../edits/yamlFixes';

export const dependencyCycle = defineRule({
  code: 'dependency_cycle',
  category: 'graph',
  severity: 'error',
  summary: 'Steps depend on each other in a cycle.',
  stability: 'stable',
  formats: ['aip-0.3', 'metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: removeDependencyFix,
});

/**
 * Finds control cycles (Tarjan's strongly connected components) and reports
 * each once, naming the whole cycle, on the written edge that closes it:
 * removing that `depends_on` entry breaks the cycle.
 */
export function checkCycles(model: SkillModel): Diagnostic[] {
  const next = successors(model.nodes, model.edges);
  const components = stronglyConnected([...next.keys()], next);
  const diagnostics: Diagnostic[] = [];
  for (const component of components) {
    const members = new Set(component);
    const selfLoop = component.length === 1 && (next.get(component[0]) ?? []).includes(component[0]);
    if (component.length < 2 && !selfLoop) continue;
    const order = model.nodes.map((node) => node.id).filter((id) => members.has(id));
    const cycle = walkCycle(order[0], members, next);
    const closing = closingEdge(model.edges, cycle);
    const anchor = closing?.span ?? model.nodes.find((node) => node.id === cycle[0])!.nameSpan;
    diagnostics.push(
      diagnostic(
        dependencyCycle,
        model.file,
        anchor,
        `These steps depend on each other in a cycle: ${[...cycle, cycle[0]].join(' → ')}. None of them can start; remove one dependency.`,
        {
          cycle,
          ...(closing?.span ? { from: closing.from, to: closing.to } : {}),
        },
      ),
    );
  }
  return diagnostics;
}

/** One simple cycle through `start` inside a strongly connected component, shortest first (start first). */
export function walkCycle(start: string, members: Set<string>, next: Map<string, string[]>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const to of next.get(id) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [id];
        while (path[0] !== start) path.unshift(parent.get(path[0])!);
        return path;
      }
      if (!seen.has(to)) {
        seen.add(to);
        parent.set(to, id);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** The written (not implicit) edge of the cycle, preferring the one that points back to the start. */
function closingEdge(edges: GraphEdge[], cycle: string[]): GraphEdge | undefined {
  const pairs = cycle.map((from, i) => [from, cycle[(i + 1) % cycle.length]]);
  const candidates = edges.filter(
    (edge) => edge.kind === 'control' && edge.span && pairs.some(([from, to]) => edge.from === from && edge.to === to),
  );
  return (
    candidates.find((edge) => edge.from === cycle[cycle.length - 1] && edge.to === cycle[0]) ??
    candidates[candidates.length - 1]
  );
}

/** The strongly connected components of a graph (Tarjan's, iterative: a long chain does not overflow the stack). */
export function stronglyConnected(ids: string[], next: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  // Iterative, so a 10,000-step chain cannot overflow the call stack.
  for (const root of ids) {
    if (index.has(root)) continue;
    const work: { id: string; child: number }[] = [{ id: root, child: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = next.get(frame.id) ?? [];
      if (frame.child < targets.length) {
        const to = targets[frame.child++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ id: to, child: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].id;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.id)!));
      }
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.id);
        components.push(component);
      }
    }
  }
  return components;
}

/** The dependency that closes the ring, removed: unsafe, as another may be the one to remove. */
function removeDependencyFix(item: Diagnostic, { text }: FixSource): Fix[] {
  const { from, to } = (item.data ?? {}) as { from?: unknown; to?: unknown };
  return typeof from === 'string'
    ? [
        fixOf(item, `Remove "${from}" from the dependencies of "${String(to)}"`, 'unsafe', [
          removeListEntry(text, item.file, item.span),
        ]),
      ]
    : [];
}
