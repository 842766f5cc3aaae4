import type { Node } from 'yaml';

/** Where the chunk a node was parsed in now sits in its region (see yamlChunks). */
export interface ChunkPlace {
  offset: number;
}

const PLACE = Symbol('chunk place');

type Placed = {
  range?: [number, number, number];
  items?: unknown[];
  key?: unknown;
  value?: unknown;
  [PLACE]?: ChunkPlace;
};

/** Where the chunk `node` was parsed in now starts: 0 for a node of a whole parse. */
function chunkOffset(node: Placed): number {
  return node[PLACE]?.offset ?? 0;
}

/**
 * A node's range in region offsets. Nodes parsed in a chunk keep the ranges
 * of that chunk's own text and share one place record: moving a chunk after
 * an edit above it is then one assignment, not a walk over all its nodes.
 */
export function nodeRange(node: Node | null | undefined): [number, number, number] | undefined {
  const range = (node as Placed | null | undefined)?.range;
  if (!range) return undefined;
  const offset = chunkOffset(node as Placed);
  return offset === 0 ? range : [range[0] + offset, range[1] + offset, range[2] + offset];
}

/** `nodeRange(node)[0]`, without building the range: asked for every step on every keystroke. */
export function nodeStart(node: Node | null | undefined): number | undefined {
  const range = (node as Placed | null | undefined)?.range;
  return range ? range[0] + chunkOffset(node as Placed) : undefined;
}

/**
 * A node's value (`nodeRange`'s first two offsets) as a span, `base` added: made for every field of every step read,
 * so without building the range first.
 */
export function nodeValueSpan(node: Node | null | undefined, base: number): { start: number; end: number } | undefined {
  const range = (node as Placed | null | undefined)?.range;
  if (!range) return undefined;
  const offset = base + chunkOffset(node as Placed);
  return { start: range[0] + offset, end: range[1] + offset };
}

/**
 * A node's own start in its chunk and the chunk's place, so its start can be worked out later without reading the node.
 */
export function startPlace(node: Node): { place: ChunkPlace; offset: number } | undefined {
  const range = (node as Placed).range;
  return range ? { place: (node as Placed)[PLACE] ?? UNPLACED, offset: range[0] } : undefined;
}

/** The place of a node parsed with its whole region. */
const UNPLACED: ChunkPlace = Object.freeze({ offset: 0 });

/** Ties every node under `root` to `place`, once, when its chunk is parsed. */
export function placeNodes(root: unknown, place: ChunkPlace): void {
  if (root === null || typeof root !== 'object') return;
  const item = root as Placed;
  if (item.range) {
    item[PLACE] = place;
    const items = item.items;
    if (items) for (let i = 0; i < items.length; i++) placeNodes(items[i], place);
  } else if ('key' in item) {
    placeNodes(item.key, place);
    placeNodes(item.value, place);
  }
}
