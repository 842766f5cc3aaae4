import { edgeCore } from '../forms/graphJson';
import { edgeText, findingText, nodeText, orphanText } from './diffReport';
import type { GraphDiff } from './graphDiff';
import type { ChangeLine, GraphChanges, GraphJson, GraphJsonEdge, GraphJsonNode } from '../protocol';

// A change drawn on the graph (the preview's "changes since a revision"): the graph after the change with what it
// removed put back, and a mark on every node and edge it added, removed, renamed, changed or retyped. Pure: two graphs
// and their diff in, what to draw out.

/**
 * The change from `before` to `after` to draw: `after`'s nodes and edges, then each node removed (as it was before,
 * with its stage when that stage is gone too) and each edge removed whose two ends are drawn.
 */
export function changeView(
  before: GraphJson,
  after: GraphJson,
  diff: GraphDiff,
  revision: { revision: string; commit: string; existed: boolean },
): GraphChanges {
  const removedIds = new Set(diff.nodes.filter((node) => node.change === 'removed').map((node) => node.id));
  const removedNodes: GraphJsonNode[] = before.nodes.filter((node) => removedIds.has(node.id));
  const groups = after.groups ?? [];
  const stages = new Set(groups.map((group) => group.id));
  const goneStages = (before.groups ?? []).filter(
    (group) => !stages.has(group.id) && removedNodes.some((node) => node.group === group.id),
  );
  const drawnIds = new Set([...after.nodes, ...removedNodes].map((node) => node.id));
  const removedEdges: GraphJsonEdge[] = diff.edges
    .filter((edge) => edge.change === 'removed' && drawnIds.has(edge.from) && drawnIds.has(edge.to))
    .map(edgeCore);
  const graph: GraphJson = {
    ...after,
    nodes: [...after.nodes, ...removedNodes],
    edges: [...after.edges, ...removedEdges],
    ...(groups.length + goneStages.length > 0 ? { groups: [...groups, ...goneStages] } : {}),
  };
  const nodes: GraphChanges['nodes'] = {};
  for (const node of diff.nodes) nodes[node.id] = { change: node.change, text: nodeText(node) };
  const edges = diff.edges
    .filter((edge) => drawnIds.has(edge.from) && drawnIds.has(edge.to))
    .map((edge) => ({
      change: edge.change,
      from: edge.from,
      to: edge.to,
      kind: edge.kind,
      ...(edge.label !== undefined ? { label: edge.label } : {}),
      text: edgeText(edge),
    }));
  const folder = `${after.skill.dir.replace(/[\\/]+$/, '')}/`;
  const inSkill = (file: string) => (file.startsWith(folder) ? file.slice(folder.length) : file);
  const lines: ChangeLine[] = [
    ...diff.nodes.map((node) => ({ mark: node.change, text: nodeText(node), node: node.id })),
    ...diff.edges.map((edge) => ({ mark: edge.change, text: edgeText(edge), node: edge.to })),
    ...diff.orphaned.map((item) => ({ mark: 'orphaned' as const, text: orphanText(item), node: item.node })),
    ...diff.findings.map((item) => ({
      mark: item.change,
      // Named from the skill's folder: the preview is beside the skill, and the whole path would fill the line.
      text: findingText({ ...item, problem: { ...item.problem, file: inSkill(item.problem.file) } }),
      ...(item.change === 'introduced' ? { at: { file: item.problem.file, range: item.problem.range } } : {}),
    })),
  ];
  return { ...revision, graph, nodes, edges, lines, introducesErrors: diff.introducesErrors };
}
