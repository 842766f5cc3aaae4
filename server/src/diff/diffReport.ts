import {
  edgeKey,
  type EdgeChange,
  type FindingChange,
  type GraphDiff,
  type NodeChange,
  type OrphanedInput,
  type PortChange,
} from './graphDiff';

// A change to a library of skills, written for a terminal (text), a pull request (markdown, with a Mermaid drawing of
// the changed part of each graph) or a program (json).

/** One skill's change: where it is, and its revisions' content hashes (absent on the side where it does not exist). */
export interface SkillDiff {
  /** The skill's folder, relative to the repository (or the folder compared). */
  path: string;
  hashBefore?: string;
  hashAfter?: string;
  /** The skill's files added, removed and changed (paths relative to its folder). */
  files: { added: string[]; removed: string[]; changed: string[] };
  diff: GraphDiff;
}

function fileLines(skill: SkillDiff): string[] {
  return [
    ...skill.files.added.map((file) => `file ${file} added`),
    ...skill.files.removed.map((file) => `file ${file} removed`),
    ...skill.files.changed.map((file) => `file ${file} changed`),
  ];
}

const MARK: Record<NodeChange['change'], string> = { added: '+', removed: '-', renamed: '>', changed: '~' };
/** A retyped edge is marked as a changed node is: it is there before and after. */
const EDGE_MARK: Record<EdgeChange['change'], string> = { added: '+', removed: '-', retyped: '~' };

function portText(port: PortChange): string {
  if (port.change === 'retyped')
    return `${port.direction} "${port.name}" retyped ${port.before ?? '?'} → ${port.after ?? '?'}`;
  const type = port.change === 'added' ? port.after : port.before;
  return `${port.direction} "${port.name}"${type ? `: ${type}` : ''} ${port.change}`;
}

/** What happened to a node, in a line. */
export function nodeText(node: NodeChange): string {
  const name = node.change === 'renamed' ? `${node.from} → ${node.id}` : node.id;
  const what = [...node.details, ...node.ports.map(portText)];
  return `${node.change} ${node.kind} ${name}${what.length > 0 ? `: ${what.join('; ')}` : ''}`;
}

/** What happened to an edge, in a line. */
export function edgeText(edge: EdgeChange): string {
  const value = edge.label !== undefined ? ` ${edge.label}${edge.type ? `: ${edge.type}` : ''}` : '';
  const retyped = edge.change === 'retyped' ? ` (was ${edge.before ?? 'untyped'})` : '';
  return `${edge.change} ${edge.kind} edge ${edge.from} → ${edge.to}${value}${retyped}`;
}

/** An input left without its producer, in a line. */
export function orphanText(item: OrphanedInput): string {
  return `${item.node} input "${item.input}" has no producer any more (it was ${item.producer})`;
}

/** A finding introduced or fixed, in a line, with where it is. */
export function findingText(item: FindingChange): string {
  const problem = item.problem;
  const at = `${problem.file}:${problem.range.start.line + 1}:${problem.range.start.character + 1}`;
  return `${item.change} ${problem.severity} ${problem.code} ${at} ${problem.message}`;
}

function counts(diff: GraphDiff): string {
  const of = (items: unknown[], one: string, many = `${one}s`) =>
    items.length > 0 ? [`${items.length} ${items.length === 1 ? one : many}`] : [];
  return [
    ...of(
      diff.nodes.filter((node) => node.change !== 'changed'),
      'node added, removed or renamed',
      'nodes added, removed or renamed',
    ),
    ...of(
      diff.nodes.filter((node) => node.change === 'changed'),
      'node changed',
      'nodes changed',
    ),
    ...of(diff.edges, 'edge changed', 'edges changed'),
    ...of(diff.orphaned, 'input left without its producer', 'inputs left without their producers'),
    ...of(
      diff.findings.filter((item) => item.change === 'introduced'),
      'finding introduced',
      'findings introduced',
    ),
    ...of(
      diff.findings.filter((item) => item.change === 'fixed'),
      'finding fixed',
      'findings fixed',
    ),
  ].join(', ');
}

function heading(skill: SkillDiff): string {
  const diff = skill.diff;
  const format = diff.formatBefore ? `${diff.formatBefore} → ${diff.skill.format}` : diff.skill.format;
  const state = skill.hashBefore === undefined ? ', added' : skill.hashAfter === undefined ? ', removed' : '';
  return `${skill.path} (${format}${state})`;
}

/** The change for a terminal: a line per skill, then a line per change. */
export function diffText(skills: SkillDiff[]): string {
  if (skills.length === 0) return 'No skill changed.\n';
  return skills
    .map((skill) => {
      const diff = skill.diff;
      const lines = [`${heading(skill)}: ${counts(diff) || 'no change to its graph or findings'}`];
      for (const line of fileLines(skill)) lines.push(`  · ${line}`);
      for (const node of diff.nodes) lines.push(`  ${MARK[node.change]} ${nodeText(node)}`);
      for (const edge of diff.edges) lines.push(`  ${EDGE_MARK[edge.change]} ${edgeText(edge)}`);
      for (const item of diff.orphaned) lines.push(`  ! ${orphanText(item)}`);
      for (const item of diff.findings)
        lines.push(`  ${item.change === 'introduced' ? '!' : '✓'} ${findingText(item)}`);
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

/** A Mermaid id for any node id (Mermaid ids allow letters, digits and underscores). */
const mermaidId = (id: string, ids: Map<string, string>) => {
  if (!ids.has(id)) ids.set(id, `n${ids.size}`);
  return ids.get(id)!;
};

const quoted = (text: string) => `"${text.replace(/"/g, '#quot;')}"`;

/** A Mermaid arrow, labelled when the edge carries a value; dotted for one removed. */
function arrow(label: string | undefined, removed: boolean): string {
  if (label === undefined) return removed ? '-.->' : '-->';
  return removed ? `-. ${quoted(label)} .->` : `-- ${quoted(label)} -->`;
}

/**
 * The changed part of a skill's graph as a Mermaid flowchart: the nodes added (green), removed (red, dashed), renamed
 * or changed (amber), the ends of every edge changed, the steps one edge away from them (plain), and the edges among
 * them; an edge added is green, one removed red and dashed.
 */
export function changedPartMermaid(
  skill: SkillDiff,
  after: { from: string; to: string; kind: string; label?: string }[],
): string {
  const diff = skill.diff;
  const ids = new Map<string, string>();
  const touched = new Set<string>([
    ...diff.nodes.map((node) => node.id),
    ...diff.edges.flatMap((edge) => [edge.from, edge.to]),
    ...diff.orphaned.flatMap((item) => [item.node, item.producer]),
  ]);
  // With the steps one edge away from a change, unstyled: where the change sits in the graph.
  const involved = new Set([
    ...touched,
    ...after.filter((edge) => touched.has(edge.from) || touched.has(edge.to)).flatMap((edge) => [edge.from, edge.to]),
  ]);
  const changes = new Map(diff.nodes.map((node) => [node.id, node]));
  const lines = ['flowchart TD'];
  for (const id of [...involved].sort()) {
    const node = changes.get(id);
    const label = node?.change === 'renamed' ? `${node.from} → ${id}` : id;
    lines.push(`  ${mermaidId(id, ids)}[${quoted(label)}]`);
  }
  const edges: { line: string; style?: string }[] = [];
  const changed = new Set(diff.edges.map(edgeKey));
  for (const edge of after) {
    if (!involved.has(edge.from) || !involved.has(edge.to) || changed.has(edgeKey(edge))) continue;
    edges.push({ line: `${mermaidId(edge.from, ids)} ${arrow(edge.label, false)} ${mermaidId(edge.to, ids)}` });
  }
  for (const edge of diff.edges) {
    edges.push({
      line: `${mermaidId(edge.from, ids)} ${arrow(edge.label, edge.change === 'removed')} ${mermaidId(edge.to, ids)}`,
      style:
        edge.change === 'removed'
          ? 'stroke:#cf222e,stroke-dasharray:4'
          : edge.change === 'added'
            ? 'stroke:#1a7f37'
            : 'stroke:#9a6700',
    });
  }
  edges.forEach((edge) => lines.push(`  ${edge.line}`));
  edges.forEach((edge, index) => edge.style && lines.push(`  linkStyle ${index} ${edge.style}`));
  lines.push(
    '  classDef added fill:#dafbe1,stroke:#1a7f37',
    '  classDef removed fill:#ffebe9,stroke:#cf222e,stroke-dasharray:4',
    '  classDef changed fill:#fff8c5,stroke:#9a6700',
  );
  for (const [id, node] of changes)
    lines.push(`  class ${mermaidId(id, ids)} ${node.change === 'renamed' ? 'changed' : node.change}`);
  return lines.join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The change as a pull-request comment: per skill, a table of what changed and a drawing of the changed part. */
export function diffMarkdown(
  skills: { skill: SkillDiff; afterEdges: Parameters<typeof changedPartMermaid>[1] }[],
): string {
  if (skills.length === 0) return '### Skillgraph: no skill changed\n';
  const errors = skills.some((item) => item.skill.diff.introducesErrors);
  const parts = [
    `### Skillgraph: ${skills.length} skill${skills.length === 1 ? '' : 's'} changed${errors ? ' — errors introduced' : ''}`,
  ];
  for (const { skill, afterEdges } of skills) {
    const diff = skill.diff;
    parts.push(`#### \`${heading(skill)}\``, counts(diff) || 'No change to its graph or findings.');
    const rows = [
      ...fileLines(skill).map((line) => ['file', line.split(' ').at(-1)!, cell(line)]),
      ...diff.nodes.map((node) => ['node', node.change, cell(nodeText(node))]),
      ...diff.edges.map((edge) => ['edge', edge.change, cell(edgeText(edge))]),
      ...diff.orphaned.map((item) => [
        'input',
        'no producer',
        cell(`${item.node}: "${item.input}" (was produced by ${item.producer})`),
      ]),
      ...diff.findings.map((item) => [
        'finding',
        item.change,
        cell(
          `${item.problem.severity} \`${item.problem.code}\` ${item.problem.file}:${item.problem.range.start.line + 1}: ${item.problem.message}`,
        ),
      ]),
    ];
    if (rows.length > 0)
      parts.push(
        ['| What | Change | Detail |', '| --- | --- | --- |', ...rows.map((row) => `| ${row.join(' | ')} |`)].join(
          '\n',
        ),
      );
    if (diff.nodes.length > 0 || diff.edges.length > 0)
      parts.push(`\`\`\`mermaid\n${changedPartMermaid(skill, afterEdges)}\n\`\`\``);
    if (skill.hashAfter) parts.push(`<sub>revision ${skill.hashAfter}</sub>`);
  }
  return `${parts.join('\n\n')}\n`;
}
