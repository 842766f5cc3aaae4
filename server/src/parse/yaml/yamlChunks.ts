import { Document, isMap, isSeq, YAMLMap, YAMLSeq, type Node, type Pair } from 'yaml';
import { nodeRange } from './nodeRange';
import type { TextLike } from '../text/textLike';
import type { ChunkedParse, ComposedLists, ParsedChunk, RegionChunks } from './yamlChunkCache';
import { LISTS, splitRegion } from './yamlSplit';

/**
 * Below this size a region is parsed whole: a step or two, where chunks save
 * nothing. Above it, an edit costs the parse of the chunk it touches, not of
 * the procedure (the bench's edit latency at 10 steps, 4.5 KB, shows it).
 */
export const CHUNK_THRESHOLD = 2 * 1024;

/** The list values a composition made from the last one's: which items differ (see `listDerivation`). */
const derivations = new WeakMap<unknown[], { from: unknown[]; changed: number[] }>();

/**
 * The list value `values` was made from, when a composition took it from
 * the last one's with the items at `changed` replaced (the same length, the
 * other items the same objects), so a check of the last list need look
 * only at those items.
 */
export function listDerivation(values: unknown[]): { from: unknown[]; changed: number[] } | undefined {
  return derivations.get(values);
}

/**
 * Parses a region chunk by chunk with `cache`, composing one document whose
 * ranges are region offsets, as a whole parse would give. Returns undefined
 * when the text cannot be chunked safely or a chunk has errors: the caller
 * then parses it whole, so diagnostics are always the whole parse's.
 */
export function parseChunked(source: TextLike, cache: RegionChunks): ChunkedParse | undefined {
  if (source.length < CHUNK_THRESHOLD) return undefined;
  const kept = cache.composed(source);
  if (kept) return kept;
  const layout = cache.layoutFor(source) ?? splitRegion(source);
  if (!layout) return undefined;
  const chunks = cache.chunksFor(source, layout.chunks);
  const last = cache.lastComposed(layout);
  const lists: ComposedLists = [];
  let next = 0;
  const contents = new YAMLMap();
  const value: Record<string, unknown> = {};
  for (const { entry, items } of layout.parts) {
    const chunk = chunks[next++];
    if (!chunk || chunk.doc.errors.length > 0 || !isMap(chunk.doc.contents) || chunk.doc.contents.items.length !== 1)
      return undefined;
    const pair = chunk.doc.contents.items[0] as Pair<Node, Node | null>;
    if (items) {
      // The header must hold the key (and the inner key) alone: its value, as parsed (the nodes are changed below), is
      // null there.
      const inner = LISTS[entry.key];
      const headerValue = (chunk.value as Record<string, unknown>)[entry.key];
      const holder =
        inner === undefined ? (headerValue === null ? pair : undefined) : listHolder(pair.value, headerValue, inner);
      if (!holder) return undefined;
      const seq = new YAMLSeq();
      const values: unknown[] = [];
      const lastList = last?.lists[lists.length];
      const changed: number[] = [];
      const firstChunk = chunks[next];
      for (let item = 0; item < items.length; item++) {
        const index = next++;
        const itemChunk = chunks[index];
        // An item whose chunk the last composition used at the same place: last time's node and value, its chunk not
        // read (at 1,000 steps, reading every item's chunk cost more than parsing the one edited).
        if (lastList && last!.chunks[index] === itemChunk) {
          seq.items.push(lastList.items[item]);
          values.push(lastList.values[item]);
          continue;
        }
        const list = itemChunk?.doc.contents;
        if (!itemChunk || itemChunk.doc.errors.length > 0 || !isSeq(list) || list.items.length !== 1) return undefined;
        seq.items.push(list.items[0]);
        values.push((itemChunk.value as unknown[])[0]);
        changed.push(item);
      }
      lists.push({ items: seq.items, values });
      if (lastList) {
        derivations.set(values, { from: lastList.values, changed });
        // The last list is no longer composed: forgetting what it was made from keeps one link, not every list typed
        // since the file was opened.
        derivations.delete(lastList.values);
      }
      // The whole parse starts the sequence at its first `- `, before the first item's own node, and ends a map holding
      // it where the sequence ends.
      const first = nodeRange(firstChunk!.doc.contents as Node)!;
      const end = nodeRange(seq.items[seq.items.length - 1] as Node)!;
      seq.range = [first[0], end[1], end[2]];
      holder.value = seq;
      if (inner === undefined) {
        value[entry.key] = values;
      } else {
        // Its own range is in its chunk's offsets (nodeRange adds the chunk's place).
        const map = pair.value as YAMLMap;
        const place = nodeRange(map)![0] - map.range![0];
        map.range = [map.range![0], end[1] - place, end[2] - place];
        value[entry.key] = { [inner]: values };
      }
    } else {
      lists.push(undefined);
      value[entry.key] = (chunk.value as Record<string, unknown>)[entry.key];
    }
    contents.items.push(pair);
  }
  const firstPair = contents.items[0] as Pair<Node, Node | null>;
  contents.range = [nodeRange(firstPair.key)![0], source.length, source.length];
  const doc = new Document() as Document.Parsed;
  doc.contents = contents as unknown as Document.Parsed['contents'];
  const parse = { doc, value, problems: [] };
  cache.retain(source, layout, chunks as ParsedChunk[], parse, lists);
  return parse;
}

/**
 * The pair of a list's inner key (`steps` under `composition`), when the header's value, as parsed, is that key alone
 * with no value.
 */
function listHolder(node: Node | null, parsed: unknown, inner: string): Pair<Node, Node | null> | undefined {
  if (!isMap(node) || node.items.length !== 1 || parsed === null || typeof parsed !== 'object') return undefined;
  const keys = Object.keys(parsed);
  if (keys.length !== 1 || keys[0] !== inner || (parsed as Record<string, unknown>)[inner] !== null) return undefined;
  return node.items[0] as Pair<Node, Node | null>;
}
