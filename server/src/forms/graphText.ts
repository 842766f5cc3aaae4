import type { GraphJson } from '../protocol';

/** A Mermaid identifier: step names may hold characters Mermaid reads as syntax. */
function mermaidId(index: Map<string, number>, id: string): string {
  return `n${index.get(id)}`;
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '#quot;')}"`;
}

/** A node's text: its label, and what runs it (a script or a composed skill). */
function nodeText(node: GraphJson['nodes'][number]): string {
  const runs = node.script ?? node.skill;
  return runs && runs !== node.label ? `${node.label}\n${runs}` : node.label;
}

const MERMAID_SHAPES: Record<string, [string, string]> = {
  'external-input': ['([', '])'],
  router: ['{', '}'],
  decision: ['{', '}'],
  llm_classify: ['{', '}'],
  end: ['((', '))'],
  user_input: ['[/', '/]'],
  tool_call: ['[[', ']]'],
  skill_exec: ['[[', ']]'],
  ask: ['[/', '/]'],
  confirm: ['{', '}'],
  branch: ['{', '}'],
  loop: ['[(', ')]'],
  fanout: ['[[', ']]'],
};

/** The nodes of each group (a skill+ stage) in order, and those in none. */
function grouped(graph: GraphJson): {
  groups: { id: string; label: string; nodes: GraphJson['nodes'] }[];
  rest: GraphJson['nodes'];
} {
  const groups = (graph.groups ?? []).map((group) => ({
    id: group.id,
    label: group.label,
    nodes: graph.nodes.filter((node) => node.group === group.id),
  }));
  const known = new Set(groups.map((group) => group.id));
  return { groups, rest: graph.nodes.filter((node) => node.group === undefined || !known.has(node.group)) };
}

/** The graph as a Mermaid flowchart: control edges solid, data edges dotted and labelled, substitutes thick. */
export function toMermaid(graph: GraphJson): string {
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const lines = ['flowchart LR'];
  const declare = (node: GraphJson['nodes'][number], indent: string) => {
    const [open, close] = MERMAID_SHAPES[node.kind] ?? ['[', ']'];
    lines.push(`${indent}${mermaidId(index, node.id)}${open}${quote(nodeText(node))}${close}`);
  };
  const { groups, rest } = grouped(graph);
  groups.forEach((group, i) => {
    lines.push(`  subgraph g${i}[${quote(group.label)}]`);
    for (const node of group.nodes) declare(node, '    ');
    lines.push('  end');
  });
  for (const node of rest) declare(node, '  ');
  for (const edge of graph.edges) {
    const from = mermaidId(index, edge.from);
    const to = mermaidId(index, edge.to);
    const label = edge.label !== undefined ? `|${quote(edge.type ? `${edge.label}: ${edge.type}` : edge.label)}|` : '';
    const arrow = edge.kind === 'data' ? '-.->' : edge.kind === 'fallback' ? '==>' : '-->';
    lines.push(`  ${from} ${arrow}${label} ${to}`);
  }
  return lines.join('\n') + '\n';
}

function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

const DOT_SHAPES: Record<string, string> = {
  'external-input': 'ellipse',
  decision: 'diamond',
  router: 'diamond',
  llm_classify: 'diamond',
  end: 'doublecircle',
  user_input: 'parallelogram',
  tool_call: 'component',
  skill_exec: 'component',
  ask: 'parallelogram',
  confirm: 'diamond',
  branch: 'diamond',
  loop: 'cylinder',
  fanout: 'box3d',
};

/** The graph in Graphviz DOT: control edges solid, data edges dashed and labelled, substitutes dotted. */
export function toDot(graph: GraphJson): string {
  const lines = [`digraph ${dotString(graph.skill.name ?? 'skill')} {`, '  rankdir=LR;', '  node [shape=box];'];
  const declare = (node: GraphJson['nodes'][number], indent: string) => {
    const shape = DOT_SHAPES[node.kind];
    lines.push(
      `${indent}${dotString(node.id)} [label=${dotString(nodeText(node))}${shape ? `, shape=${shape}` : ''}];`,
    );
  };
  const { groups, rest } = grouped(graph);
  groups.forEach((group, i) => {
    lines.push(`  subgraph cluster_${i} {`, `    label=${dotString(group.label)};`);
    for (const node of group.nodes) declare(node, '    ');
    lines.push('  }');
  });
  for (const node of rest) declare(node, '  ');
  for (const edge of graph.edges) {
    const attributes: string[] = [];
    if (edge.label !== undefined)
      attributes.push(`label=${dotString(edge.type ? `${edge.label}: ${edge.type}` : edge.label)}`);
    if (edge.kind === 'data') attributes.push('style=dashed');
    if (edge.kind === 'fallback') attributes.push('style=dotted');
    lines.push(
      `  ${dotString(edge.from)} -> ${dotString(edge.to)}${attributes.length > 0 ? ` [${attributes.join(', ')}]` : ''};`,
    );
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
