import type { GraphJsonEdge, GraphJsonGroup, GraphJsonNode, GraphJsonPort } from '../../server/src/protocol';
import type { Direction } from './protocol';

// What a node and an edge label show and how large they are drawn: texts cut to fit, with the whole on hover.

export const ROW = 18;

const HEADER = 40;

/** Height of each further line of a wrapped step name. */
export const NAME_LINE = 15;

const CHAR = 7;

/**
 * A step name longer than this wraps (at a hyphen, underscore or space) onto a second line; past two lines it is
 * shortened.
 */
const NAME_CHARS = 24;

const MIN_WIDTH = 150;

/**
 * A subtitle (a script path) or a badge (a guard, tips, rules) may widen a node to this many characters, and is cut
 * past it.
 */
const LINE_CHARS = 34;

/** The widest a node grows for its subtitle, badges and port rows; what needs more is cut, whole on hover. */
export const NODE_MAX_WIDTH = LINE_CHARS * CHAR + 24;

/** A type longer than this is abbreviated in port rows and edge labels (full on hover). */
const TYPE_CHARS = 14;

export function textWidth(text: string): number {
  return text.length * CHAR;
}

/** Cuts `text` to `max` characters with an ellipsis. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/** A long type keeps its head: `list[dict[str, Any]]` reads `list[…]`. */
function abbreviateType(type: string): string {
  if (type.length <= TYPE_CHARS) return type;
  const open = type.search(/[[<(]/);
  return open > 0 && open < TYPE_CHARS - 2 ? `${type.slice(0, open + 1)}…${type.at(-1)}` : shorten(type, TYPE_CHARS);
}

/** A port's row, abbreviated to `max` characters: the type goes first, then the name. */
export function portText(port: GraphJsonPort, max = Infinity): string {
  const full = port.type ? `${port.name}: ${port.type}` : port.name;
  if (full.length <= max) return full;
  const short = port.type ? `${port.name}: ${abbreviateType(port.type)}` : port.name;
  return shorten(short, max);
}

/**
 * A step name in at most two lines of about NAME_CHARS: broken after a
 * hyphen, underscore, dot, slash or space where one is near the limit, and
 * shortened with an ellipsis past two lines (the full name is on hover).
 */
export function nameLines(name: string): string[] {
  if (name.length <= NAME_CHARS) return [name];
  let cut = -1;
  for (let i = Math.floor(NAME_CHARS / 2); i < NAME_CHARS; i++) if (/[-_ ./]/.test(name[i])) cut = i + 1;
  if (cut < 0) cut = NAME_CHARS;
  const rest = name.slice(cut).trimStart();
  return [name.slice(0, cut).trimEnd(), shorten(rest, NAME_CHARS)];
}

/** The height of a node's header: its name's lines and the subtitle under them. */
export function headerHeight(node: GraphJsonNode): number {
  return HEADER + (nameLines(node.label).length - 1) * NAME_LINE;
}

/**
 * How many characters a port's text may have in a node `width` wide. Top-down each port has its own row. Left-to-right
 * an input and an output share a row: each gets what the other leaves, and half the row when both need more.
 */
export function portChars(
  node: GraphJsonNode,
  port: { direction: 'input' | 'output'; port: GraphJsonPort },
  width: number,
  direction: Direction,
): number {
  if (direction === 'DOWN') return Math.floor((width - 24) / CHAR);
  const total = Math.floor((width - 40) / CHAR);
  const own = port.direction === 'input' ? node.inputs : node.outputs;
  const other = (port.direction === 'input' ? node.outputs : node.inputs)[own.indexOf(port.port)];
  const otherLength = other ? portText(other).length : 0;
  return Math.max(Math.ceil(total / 2), total - otherLength);
}

/**
 * How many port rows a node has: inputs beside outputs left-to-right; top-down (narrow panels) inputs, then outputs,
 * under each other.
 */
export function portRows(node: GraphJsonNode, direction: Direction): number {
  return direction === 'DOWN'
    ? node.inputs.length + node.outputs.length
    : Math.max(node.inputs.length, node.outputs.length);
}

/** The row of a port (0 is the first under the header). */
export function portRow(
  node: GraphJsonNode,
  port: { direction: 'input' | 'output'; port: GraphJsonPort },
  direction: Direction,
): number {
  if (port.direction === 'input') return node.inputs.indexOf(port.port);
  return (direction === 'DOWN' ? node.inputs.length : 0) + node.outputs.indexOf(port.port);
}

export function edgeLabel(edge: GraphJsonEdge): string | undefined {
  if (edge.kind === 'data') return edge.type ? `${edge.label}: ${edge.type}` : edge.label;
  return edge.label;
}

/** What an edge shows on its line: the type abbreviated, at most two name-lengths long. */
export function shortEdgeLabel(edge: GraphJsonEdge): string | undefined {
  const full = edgeLabel(edge);
  if (full === undefined || full.length <= NAME_CHARS) return full;
  const short = edge.kind === 'data' && edge.type ? `${edge.label}: ${abbreviateType(edge.type)}` : full;
  return shorten(short, NAME_CHARS);
}

/**
 * The text rows under a node's ports: AIP `one_of`/`parallel`, a MetaSkill step's guard and route cases, skill+ tips
 * and rules, the evals that exercise the step, the risks its script takes.
 */
export function badges(node: GraphJsonNode): string[] {
  const rows: string[] = [];
  if (node.oneOf?.length || node.parallel)
    rows.push(
      [node.parallel ? '∥ parallel' : '', node.oneOf?.length ? `one of: ${node.oneOf.join(' | ')}` : '']
        .filter(Boolean)
        .join('  '),
    );
  if (node.when) rows.push(`when ${node.when}`);
  if (node.routes?.length) rows.push(`routes: ${node.routes.map((route) => route.to).join(' | ')}`);
  const tips = node.attachments?.filter((item) => item.kind === 'tip').map((item) => item.id) ?? [];
  const rules =
    node.attachments?.filter((item) => item.kind === 'rule').map((item) => (item.soft ? item.id : `${item.id}!`)) ?? [];
  if (tips.length > 0) rows.push(`tips: ${tips.join(', ')}`);
  if (rules.length > 0) rows.push(`rules: ${rules.join(', ')}`);
  // The test cases whose expectations name the step: the evals that exercise it.
  if (node.evals?.length) rows.push(`✓ evals: ${node.evals.map((item) => item.id).join(', ')}`);
  // What the step's script does that a reviewer should see before running it.
  for (const risk of node.risks ?? []) rows.push(`⚠ ${risk}`);
  return rows;
}

/** What runs a step, shown under its name: a script, a composed skill, or its kind. */
export function subtitleOf(node: GraphJsonNode): string {
  if (node.script) return `⚙ ${node.script}`;
  if (node.skill && node.skill !== node.id) return `↗ ${node.skill}`;
  return node.kind === 'step' ? 'agent judgment' : node.kind.replace('_', ' ');
}

/**
 * A node is as wide as its name needs (two lines of it at most), or as its subtitle, badges and port rows need, up to
 * NODE_MAX_WIDTH: a text is cut only when the node cannot grow for it, with the full text on hover, so a long type or
 * path never stretches the graph past that.
 */
export function nodeSize(node: GraphJsonNode, direction: Direction): { width: number; height: number } {
  if (node.kind === 'external-input' || node.kind === 'missing')
    return { width: Math.max(90, textWidth(shorten(node.label, NAME_CHARS)) + 36), height: 32 };
  const rows = portRows(node, direction);
  const lines = [subtitleOf(node), ...badges(node)].map((line) => textWidth(line) + 24);
  // Top-down a port row is as wide as its text; left-to-right an input and an output share it.
  const rowWidths =
    direction === 'DOWN'
      ? [...node.inputs, ...node.outputs].map((port) => textWidth(portText(port)) + 24)
      : Array.from(
          { length: rows },
          (_, row) =>
            textWidth(node.inputs[row] ? portText(node.inputs[row]) : '') +
            textWidth(node.outputs[row] ? portText(node.outputs[row]) : '') +
            40,
        );
  const portWidth = Math.max(0, ...rowWidths);
  const width = Math.max(
    MIN_WIDTH,
    ...nameLines(node.label).map((line) => textWidth(line) + 48),
    Math.min(NODE_MAX_WIDTH, Math.max(portWidth, ...lines)),
  );
  return { width, height: headerHeight(node) + rows * ROW + badges(node).length * ROW + (rows > 0 ? 8 : 4) };
}

/** How many characters of a subtitle or badge fit in a node `width` wide. */
export function lineChars(width: number): number {
  return Math.floor((width - 24) / CHAR);
}

/** Room above a stage's nodes for its title and the first line of its goal. */
const GROUP_HEADER = 30;

/**
 * The widest a stage's frame grows for its title and goal (about a node and a half: a stage stays as narrow as its
 * nodes in a narrow panel); a longer goal wraps, up to GOAL_LINES lines, then is cut.
 */
export const GROUP_MAX_WIDTH = 320;
const GOAL_LINES = 3;

/** A stage title's characters are bold and wider than the rest. */
const TITLE_CHAR = 8;

/**
 * A stage's heading: its title, then its goal in the room the title leaves, on up to GOAL_LINES lines within
 * GROUP_MAX_WIDTH. `width` is what the frame needs for it, `height` the room above the stage's nodes.
 */
export function groupHeading(group: GraphJsonGroup): {
  goalX: number;
  goalLines: string[];
  width: number;
  height: number;
} {
  const goalX = 12 + group.label.length * TITLE_CHAR + 12;
  const goal = group.description ?? '';
  const room = Math.max(8, Math.floor((GROUP_MAX_WIDTH - goalX - 12) / CHAR));
  if (goal.length <= room)
    return { goalX, goalLines: goal ? [goal] : [], width: goalX + textWidth(goal) + 12, height: GROUP_HEADER };
  const lines: string[] = [''];
  for (const word of goal.split(/\s+/)) {
    const line = lines[lines.length - 1];
    if (line && `${line} ${word}`.length > room && lines.length < GOAL_LINES) lines.push(word);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return {
    goalX,
    goalLines: lines.map((line) => shorten(line, room)),
    width: GROUP_MAX_WIDTH,
    height: GROUP_HEADER + (lines.length - 1) * NAME_LINE,
  };
}
