import type { GraphJsonEdge, GraphJsonNode, GraphJsonPort } from '../../server/src/protocol';
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
 * How many characters a port row may have in a node `width` wide: left-to-right inputs and outputs share a row,
 * top-down each has its own.
 */
export function portChars(width: number, direction: Direction): number {
  return direction === 'DOWN' ? Math.floor((width - 24) / CHAR) : Math.floor((width - 40) / 2 / CHAR);
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
 * A node is as wide as its name needs (two lines of it at most), or as its
 * subtitle and badges need up to LINE_CHARS; port rows widen it (up to the
 * same limit) only left-to-right, where inputs and outputs share a row —
 * top-down, the compact layout of narrow panels, they never do. What does
 * not fit is cut, with the full text on hover, so a long type or path never
 * stretches the graph.
 */
export function nodeSize(node: GraphJsonNode, direction: Direction): { width: number; height: number } {
  if (node.kind === 'external-input' || node.kind === 'missing')
    return { width: Math.max(90, textWidth(shorten(node.label, NAME_CHARS)) + 36), height: 32 };
  const rows = portRows(node, direction);
  const cap = LINE_CHARS * CHAR + 24;
  const lines = [subtitleOf(node), ...badges(node)].map((line) => textWidth(line) + 24);
  const side = (ports: GraphJsonPort[]) => Math.max(0, ...ports.map((port) => textWidth(portText(port))));
  const portWidth = direction === 'DOWN' ? 0 : side(node.inputs) + side(node.outputs) + 40;
  const width = Math.max(
    MIN_WIDTH,
    ...nameLines(node.label).map((line) => textWidth(line) + 48),
    Math.min(cap, Math.max(portWidth, ...lines)),
  );
  return { width, height: headerHeight(node) + rows * ROW + badges(node).length * ROW + (rows > 0 ? 8 : 4) };
}

/** How many characters of a subtitle or badge fit in a node `width` wide. */
export function lineChars(width: number): number {
  return Math.floor((width - 24) / CHAR);
}
