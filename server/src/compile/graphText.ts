import type { GraphJson } from './graphJson';

/** A Mermaid identifier: step names may hold characters Mermaid reads as syntax. */
function mermaidId(index: Map<string, number>, id: string): string {
  return `n${index.get(id)}`;
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '#quot;')}"`;
}

/** The graph as a Mermaid flowchart: control edges solid, data edges dotted and labelled. */
export function toMermaid(graph: GraphJson): string {
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const id = mermaidId(index, node.id);
    const label = quote(node.script ? `${node.label}\n${node.script}` : node.label);
    if (node.kind === 'external-input') lines.push(`  ${id}([${label}])`);
    else if (node.kind === 'router' || node.kind === 'decision') lines.push(`  ${id}{${label}}`);
    else if (node.kind === 'end') lines.push(`  ${id}((${label}))`);
    else lines.push(`  ${id}[${label}]`);
  }
  for (const edge of graph.edges) {
    const from = mermaidId(index, edge.from);
    const to = mermaidId(index, edge.to);
    const label = edge.label !== undefined ? `|${quote(edge.type ? `${edge.label}: ${edge.type}` : edge.label)}|` : '';
    lines.push(edge.kind === 'data' ? `  ${from} -.->${label} ${to}` : `  ${from} -->${label} ${to}`);
  }
  return lines.join('\n') + '\n';
}

function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

const DOT_SHAPES: Record<string, string> = { 'external-input': 'ellipse', decision: 'diamond', router: 'diamond', end: 'doublecircle' };

/** The graph in Graphviz DOT: control edges solid, data edges dashed and labelled. */
export function toDot(graph: GraphJson): string {
  const lines = [`digraph ${dotString(graph.skill.name ?? 'skill')} {`, '  rankdir=LR;', '  node [shape=box];'];
  for (const node of graph.nodes) {
    const label = node.script ? `${node.label}\n${node.script}` : node.label;
    const shape = DOT_SHAPES[node.kind];
    lines.push(`  ${dotString(node.id)} [label=${dotString(label)}${shape ? `, shape=${shape}` : ''}];`);
  }
  for (const edge of graph.edges) {
    const attributes: string[] = [];
    if (edge.label !== undefined) attributes.push(`label=${dotString(edge.type ? `${edge.label}: ${edge.type}` : edge.label)}`);
    if (edge.kind === 'data') attributes.push('style=dashed');
    lines.push(`  ${dotString(edge.from)} -> ${dotString(edge.to)}${attributes.length > 0 ? ` [${attributes.join(', ')}]` : ''};`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
