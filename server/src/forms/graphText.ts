import type { GraphJson } from '../protocol';
import { graphLooks, LEGEND, markedLabel, PALETTE, type EdgeLook, type NodeMark } from './graphStyle';

/** A Mermaid identifier: step names may hold characters Mermaid reads as syntax. */
function mermaidId(index: Map<string, number>, id: string): string {
  return `n${index.get(id)}`;
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '#quot;')}"`;
}

/** A node's text: its label as marked, and what runs it (a script or a composed skill). */
function nodeText(node: GraphJson['nodes'][number], mark: NodeMark | undefined): string {
  const label = markedLabel(node.label, mark);
  const runs = node.script ?? node.skill;
  return runs && runs !== node.label ? `${label}\n${runs}` : label;
}

const MERMAID_SHAPES: Record<string, [string, string]> = {
  'external-input': ['([', '])'],
  missing: ['([', '])'],
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

/** Mermaid's arrow for each look (the line's dash, colour and width come from `linkStyle`). */
const MERMAID_ARROWS: Record<EdgeLook, string> = {
  data: '-->',
  control: '-.->',
  branch: '-.->',
  fallback: '-.->',
  cycle: '==>',
  dangling: '-.->',
  misspelt: '-.->',
};

/** Each look's line as the preview draws it (client/webview/preview.css). */
const MERMAID_LINES: Record<EdgeLook, string> = {
  data: `stroke:${PALETTE.data},stroke-width:1.4px`,
  control: `stroke:${PALETTE.control},stroke-width:1.4px,stroke-dasharray:6 4`,
  branch: `stroke:${PALETTE.branch},stroke-width:1.4px,stroke-dasharray:2 3`,
  fallback: `stroke:${PALETTE.warning},stroke-width:1.4px,stroke-dasharray:2 4`,
  cycle: `stroke:${PALETTE.error},stroke-width:3px`,
  dangling: `stroke:${PALETTE.error},stroke-width:1.4px,stroke-dasharray:6 4`,
  misspelt: `stroke:${PALETTE.error},stroke-width:1.5px,stroke-dasharray:3 2`,
};

const MERMAID_NODES: Record<NodeMark, string> = {
  missing: `stroke:${PALETTE.error},stroke-dasharray:3 3`,
  misspelt: `stroke:${PALETTE.error},stroke-dasharray:3 2,color:${PALETTE.error}`,
  error: `stroke:${PALETTE.error},stroke-width:2px`,
  warning: `stroke:${PALETTE.warning},stroke-width:2px`,
};

/** The graph as a Mermaid flowchart, drawn as the preview draws it (see LEGEND). */
export function toMermaid(graph: GraphJson): string {
  const looks = graphLooks(graph);
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const lines = ['flowchart LR', ...LEGEND.map((line) => `  %% ${line}`)];
  const declare = (node: GraphJson['nodes'][number], indent: string) => {
    const [open, close] = MERMAID_SHAPES[node.kind] ?? ['[', ']'];
    lines.push(
      `${indent}${mermaidId(index, node.id)}${open}${quote(nodeText(node, looks.nodes.get(node.id)))}${close}`,
    );
  };
  const { groups, rest } = grouped(graph);
  groups.forEach((group, i) => {
    lines.push(`  subgraph g${i}[${quote(group.label)}]`);
    for (const node of group.nodes) declare(node, '    ');
    lines.push('  end');
  });
  for (const node of rest) declare(node, '  ');
  graph.edges.forEach((edge, i) => {
    const from = mermaidId(index, edge.from);
    const to = mermaidId(index, edge.to);
    const label = edge.label !== undefined ? `|${quote(edge.type ? `${edge.label}: ${edge.type}` : edge.label)}|` : '';
    lines.push(`  ${from} ${MERMAID_ARROWS[looks.edges[i]]}${label} ${to}`);
  });
  // One style line per look and per mark, listing what has it (a line per edge would double a large diagram).
  for (const look of Object.keys(MERMAID_LINES) as EdgeLook[]) {
    const drawn = looks.edges.flatMap((item, i) => (item === look ? [i] : []));
    if (drawn.length > 0) lines.push(`  linkStyle ${drawn.join(',')} ${MERMAID_LINES[look]}`);
  }
  for (const mark of Object.keys(MERMAID_NODES) as NodeMark[]) {
    const marked = graph.nodes.filter((node) => looks.nodes.get(node.id) === mark);
    if (marked.length === 0) continue;
    lines.push(`  classDef ${mark} ${MERMAID_NODES[mark]}`);
    lines.push(`  class ${marked.map((node) => mermaidId(index, node.id)).join(',')} ${mark}`);
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

/** Each look's line in DOT attributes, as the preview draws it; a dangling edge's head is hollow, as there. */
const DOT_LINES: Record<EdgeLook, string[]> = {
  data: [`color="${PALETTE.data}"`],
  control: ['style=dashed', `color="${PALETTE.control}"`],
  branch: ['style=dotted', `color="${PALETTE.branch}"`],
  fallback: ['style=dotted', `color="${PALETTE.warning}"`],
  cycle: [`color="${PALETTE.error}"`, 'penwidth=3'],
  dangling: ['style=dashed', `color="${PALETTE.error}"`, 'arrowhead=empty'],
  misspelt: ['style=dashed', `color="${PALETTE.error}"`],
};

const DOT_NODES: Record<NodeMark, string[]> = {
  missing: ['style="rounded,dashed"', `color="${PALETTE.error}"`],
  misspelt: ['style=dashed', `color="${PALETTE.error}"`, `fontcolor="${PALETTE.error}"`],
  error: [`color="${PALETTE.error}"`, 'penwidth=2'],
  warning: [`color="${PALETTE.warning}"`, 'penwidth=2'],
};

/** The graph in Graphviz DOT, drawn as the preview draws it (see LEGEND). */
export function toDot(graph: GraphJson): string {
  const looks = graphLooks(graph);
  const lines = [
    `digraph ${dotString(graph.skill.name ?? 'skill')} {`,
    ...LEGEND.map((line) => `  // ${line}`),
    '  rankdir=LR;',
    '  node [shape=box];',
  ];
  const declare = (node: GraphJson['nodes'][number], indent: string) => {
    const mark = looks.nodes.get(node.id);
    const shape = DOT_SHAPES[node.kind];
    const attributes = [
      `label=${dotString(nodeText(node, mark))}`,
      ...(shape ? [`shape=${shape}`] : []),
      ...(mark ? DOT_NODES[mark] : []),
    ];
    lines.push(`${indent}${dotString(node.id)} [${attributes.join(', ')}];`);
  };
  const { groups, rest } = grouped(graph);
  groups.forEach((group, i) => {
    lines.push(`  subgraph cluster_${i} {`, `    label=${dotString(group.label)};`);
    for (const node of group.nodes) declare(node, '    ');
    lines.push('  }');
  });
  for (const node of rest) declare(node, '  ');
  graph.edges.forEach((edge, i) => {
    const attributes = [
      ...(edge.label !== undefined
        ? [`label=${dotString(edge.type ? `${edge.label}: ${edge.type}` : edge.label)}`]
        : []),
      ...DOT_LINES[looks.edges[i]],
    ];
    lines.push(`  ${dotString(edge.from)} -> ${dotString(edge.to)} [${attributes.join(', ')}];`);
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}
