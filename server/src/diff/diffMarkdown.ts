import { edgeText, fileLines, heading, nodeText, summary, type SkillDiff } from './diffReport';
import { edgeKey } from './edgeChanges';

// The change as a pull-request comment: per skill, a table of what changed and a Mermaid drawing of the changed part.
// It is held to what a GitHub comment can hold, so a change to many skills, or a large one, still posts: what does
// not fit is named, not cut off mid-table.

/** GitHub's limit on a comment (65,536 characters), less room for what the Action adds before it. */
export const COMMENT_CHARS = 65_536 - 512;
/** A drawing is left out past this: GitHub's Mermaid refuses text past 50,000 characters, and no reviewer reads one. */
const DRAWING_CHARS = 20_000;
/** Kept for the line that names the skills left out. */
const LEFT_OUT_CHARS = 2_000;

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
function changedPartMermaid(
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

/** A summary as a sentence of its own: capitalised, with a full stop unless it is a list of counts. */
const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}${/^\d/.test(text) ? '' : '.'}`;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One skill's part of the comment, in pieces that can be left out when the comment runs short. */
interface Section {
  head: string;
  rows: string[];
  drawing?: string;
  revision?: string;
}

function sectionOf(skill: SkillDiff, afterEdges: Parameters<typeof changedPartMermaid>[1]): Section {
  const diff = skill.diff;
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
  ].map((row) => `| ${row.join(' | ')} |`);
  return {
    head: `#### \`${heading(skill)}\`\n\n${sentence(summary(skill))}`,
    rows,
    ...(diff.nodes.length > 0 || diff.edges.length > 0
      ? { drawing: `\`\`\`mermaid\n${changedPartMermaid(skill, afterEdges)}\n\`\`\`` }
      : {}),
    ...(skill.hashAfter ? { revision: `<sub>revision ${skill.hashAfter}</sub>` } : {}),
  };
}

const TABLE_HEAD = '| What | Change | Detail |\n| --- | --- | --- |';
const SEE_ALL = 'run `skillgraph diff` for every change';
/** At least the length of the row that says how many rows were left out. */
const MORE_ROW_CHARS = 120;

/**
 * A section in at most `room` characters: whole if it fits; else without its drawing (said so), then with the first
 * rows of its table and a row saying how many more there are. Undefined when not even its heading and one row fit.
 */
function fitted(section: Section, room: number): string | undefined {
  const join = (parts: (string | undefined)[]) => parts.filter((part) => part !== undefined).join('\n\n');
  const table = (rows: string[]) => (rows.length > 0 ? `${TABLE_HEAD}\n${rows.join('\n')}` : undefined);
  const drawing = section.drawing;
  const tooLarge = drawing !== undefined && drawing.length > DRAWING_CHARS;
  const omitted = drawing
    ? `The drawing of the changed part is left out: ${tooLarge ? `its ${drawing.length.toLocaleString('en-US')} characters of Mermaid are more than a comment can show` : 'the comment has no room for it'}.`
    : undefined;
  const whole = join([section.head, table(section.rows), tooLarge ? omitted : drawing, section.revision]);
  if (whole.length <= room) return whole;
  const noDrawing = join([section.head, table(section.rows), omitted, section.revision]);
  if (noDrawing.length <= room) return noDrawing;
  // The rows that fit, and room for one saying how many did not.
  let left = room - join([section.head, TABLE_HEAD, omitted, section.revision]).length - MORE_ROW_CHARS;
  const kept: string[] = [];
  for (const row of section.rows) {
    if (row.length + 1 > left) break;
    kept.push(row);
    left -= row.length + 1;
  }
  if (kept.length === 0) return undefined;
  const more = `| … | | ${(section.rows.length - kept.length).toLocaleString('en-US')} more changes not shown: ${SEE_ALL} |`;
  return join([section.head, table([...kept, more]), omitted, section.revision]);
}

/**
 * The change as a pull-request comment: per skill, a table of what changed and a drawing of the changed part; within
 * COMMENT_CHARS, the skills that do not fit named at the end.
 */
export function diffMarkdown(
  skills: { skill: SkillDiff; afterEdges: Parameters<typeof changedPartMermaid>[1] }[],
): string {
  if (skills.length === 0) return '### Skillgraph: no skill changed\n';
  const errors = skills.some((item) => item.skill.diff.introducesErrors);
  const parts = [
    `### Skillgraph: ${skills.length} skill${skills.length === 1 ? '' : 's'} changed${errors ? ' — errors introduced' : ''}`,
  ];
  let used = parts[0].length;
  let shown = 0;
  for (const { skill, afterEdges } of skills) {
    const text = fitted(sectionOf(skill, afterEdges), COMMENT_CHARS - LEFT_OUT_CHARS - used - 2);
    if (text === undefined) break;
    parts.push(text);
    used += text.length + 2;
    shown++;
  }
  if (shown < skills.length) parts.push(leftOut(skills.slice(shown).map((item) => item.skill.path)));
  return `${parts.join('\n\n')}\n`;
}

/** The line naming the skills that did not fit, itself within LEFT_OUT_CHARS. */
function leftOut(paths: string[]): string {
  const start = `${paths.length.toLocaleString('en-US')} more skill${paths.length === 1 ? '' : 's'} changed, not shown (a comment holds ${COMMENT_CHARS.toLocaleString('en-US')} characters; ${SEE_ALL}): `;
  const named: string[] = [];
  let length = start.length + 40;
  for (const item of paths) {
    if (length + item.length + 4 > LEFT_OUT_CHARS) break;
    named.push(`\`${item}\``);
    length += item.length + 4;
  }
  const rest = paths.length - named.length;
  return `${start}${named.join(', ')}${rest > 0 ? `${named.length > 0 ? ' and ' : ''}${rest.toLocaleString('en-US')} more` : ''}.`;
}
