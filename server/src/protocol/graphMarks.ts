import type { GraphJson, GraphJsonEdge, GraphProblem } from './graph';

// Which findings a drawing of the graph marks, read from its problems: the preview and the Mermaid and DOT exports
// mark the same ones, so an exported diagram means what the preview showed.

/** The worst of some problems that a drawing marks: information and hints are not drawn. */
export function worstSeverity(problems: readonly GraphProblem[] | undefined): 'error' | 'warning' | undefined {
  if (!problems?.some((problem) => problem.severity === 'error' || problem.severity === 'warning')) return undefined;
  return problems.some((problem) => problem.severity === 'error') ? 'error' : 'warning';
}

/** Inputs that likely misspell an upstream output: drawn broken, not as a value given from outside the skill. */
export function misspeltInputs(graph: GraphJson): { node: string; name: string }[] {
  return graph.problems.flatMap((problem) =>
    problem.mark === 'misspelt'
      ? problem.targets.flatMap((target) =>
          target.kind === 'port' && target.direction === 'input' ? [{ node: target.node, name: target.name }] : [],
        )
      : [],
  );
}

/** The edges on a dependency cycle, as `from>to`; see `onCycle`. */
export function cycleEdges(graph: GraphJson): Set<string> {
  const edges = new Set<string>();
  for (const problem of graph.problems)
    if (problem.mark === 'cycle')
      for (const target of problem.targets) if (target.kind === 'edge') edges.add(`${target.from}>${target.to}`);
  return edges;
}

/** Whether an edge is on a cycle: a cycle is about order, so a data edge between the same steps is not part of it. */
export function onCycle(edge: GraphJsonEdge, cycles: Set<string>): boolean {
  return edge.kind !== 'data' && cycles.has(`${edge.from}>${edge.to}`);
}
