import { cycleEdges, misspeltInputs, onCycle, worstSeverity, type GraphJson, type GraphProblem } from '../protocol';
import { appendTo } from '../listMap';

// How the Mermaid and DOT exports draw a graph: the preview's line styles and its marks for findings, in the
// preview's light-theme colours (client/webview/preview.css), so a diagram pasted elsewhere reads as the preview did.

/** The preview's colours, by what they mean. */
export const PALETTE = {
  data: '#1a85ff',
  control: '#7a7a7a',
  branch: '#8957e5',
  error: '#e51400',
  warning: '#bf8803',
} as const;

/** How an edge is drawn: its kind's line, unless a finding is on it. */
export type EdgeLook = 'data' | 'control' | 'branch' | 'fallback' | 'cycle' | 'dangling' | 'misspelt';

/** How a node is marked: a step named but not written, a likely misspelt input, or the worst finding on it. */
export type NodeMark = 'missing' | 'misspelt' | 'error' | 'warning';

/** The edges' looks and the nodes' marks of one graph, in its order. */
export interface GraphLooks {
  edges: EdgeLook[];
  nodes: Map<string, NodeMark>;
}

/** Reads the findings a drawing marks (protocol/graphMarks) once for the whole graph. */
export function graphLooks(graph: GraphJson): GraphLooks {
  const cycles = cycleEdges(graph);
  const misspelt = new Set(misspeltInputs(graph).map((input) => `${input.node}\u241f${input.name}`));
  const edges = graph.edges.map((edge): EdgeLook => {
    if (onCycle(edge, cycles)) return 'cycle';
    if (edge.dangling) return 'dangling';
    if (edge.kind === 'data' && misspelt.has(`${edge.to}\u241f${edge.toPort ?? edge.label}`)) return 'misspelt';
    return edge.kind;
  });
  const problems = new Map<string, GraphProblem[]>();
  for (const problem of graph.problems)
    for (const target of problem.targets) if (target.kind === 'node') appendTo(problems, target.id, problem);
  const outLooks = new Map<string, EdgeLook[]>();
  graph.edges.forEach((edge, index) => appendTo(outLooks, edge.from, edges[index]));
  const nodes = new Map<string, NodeMark>();
  for (const node of graph.nodes) {
    const out = outLooks.get(node.id) ?? [];
    // As the preview does, an outside value whose every reader misspells it is no source: it is the typo.
    const typo = node.kind === 'external-input' && out.length > 0 && out.every((look) => look === 'misspelt');
    const mark = node.kind === 'missing' ? 'missing' : typo ? 'misspelt' : worstSeverity(problems.get(node.id));
    if (mark) nodes.set(node.id, mark);
  }
  return { edges, nodes };
}

/** A node's text as drawn: a missing step and a misspelt input carry the preview's `?` and `✕`. */
export function markedLabel(label: string, mark: NodeMark | undefined): string {
  return mark === 'missing' ? `? ${label}` : mark === 'misspelt' ? `✕ ${label}` : label;
}

/** What each line and mark looks like, and what it means. */
const LEGEND_ENTRIES: [string, string][] = [
  ['solid blue line, labelled value: type', 'a value one step gives another (data)'],
  ['dashed grey line', 'the step runs after the other (order)'],
  ['dotted purple line, labelled case', 'a branch, taken when its case holds'],
  ['dotted orange line', 'a substitute, run when the step fails'],
  ['thick red line', 'finding: an edge of a dependency cycle, none of whose steps can start'],
  ['dashed red line, red "? name"', 'finding: a step that is named but does not exist'],
  ['dashed red line from red "✕ name"', "finding: an input that likely misspells another step's output"],
  ['red or orange outline', 'a step with an error or a warning'],
];

/** The legend each export opens with, one line each, without the comment marker. */
export const LEGEND = [
  'Legend (as the Skillgraph preview draws it):',
  ...LEGEND_ENTRIES.map(([look, meaning]) => `  ${look.padEnd(40)}${meaning}`),
];
