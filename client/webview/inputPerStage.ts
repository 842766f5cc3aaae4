import type { GraphJson, GraphJsonNode } from '../../server/src/protocol';

/**
 * A skill+ value given from outside and read in several stages is drawn once in each of them, beside the nodes that
 * read it there. Drawn once, its edges would cross every stage between (the layout routes them around each, down the
 * whole drawing). The copy in the first stage keeps the input's id; the others are `id@stage`, with the same range.
 */
export function inputPerStage(graph: GraphJson): GraphJson {
  if (!graph.groups?.length) return graph;
  const stageOf = new Map(graph.nodes.map((node) => [node.id, node.group ?? '']));
  const copies = new Map<string, GraphJsonNode[]>();
  const renamed = new Map<string, string>();
  for (const node of graph.nodes) {
    if (node.kind !== 'external-input') continue;
    const stages = [
      ...new Set(graph.edges.filter((edge) => edge.from === node.id).map((edge) => stageOf.get(edge.to) ?? '')),
    ];
    if (stages.length < 2) continue;
    copies.set(
      node.id,
      stages.map((stage, index) => {
        const id = index === 0 ? node.id : `${node.id}@${stage}`;
        renamed.set(`${node.id}>${stage}`, id);
        return { ...node, id, ...(stage ? { group: stage } : {}) };
      }),
    );
  }
  if (copies.size === 0) return graph;
  return {
    ...graph,
    nodes: graph.nodes.flatMap((node) => copies.get(node.id) ?? [node]),
    edges: graph.edges.map((edge) =>
      copies.has(edge.from) ? { ...edge, from: renamed.get(`${edge.from}>${stageOf.get(edge.to) ?? ''}`)! } : edge,
    ),
  };
}
