import { Document, isMap, isSeq, parseDocument, YAMLMap, YAMLSeq, type Node, type Pair } from 'yaml';
import { nodeRange, placeNodes, type ChunkPlace } from './nodeRange';
import type { YamlProblem } from './yamlSyntax';

/** Below this size a region is parsed whole: chunking only pays off on large procedures. */
export const CHUNK_THRESHOLD = 16 * 1024;

interface ParsedChunk {
  text: string;
  doc: Document.Parsed;
  value: unknown;
  /** Where the chunk sits in the region; its nodes' ranges are read through it (nodeRange). */
  place: ChunkPlace;
  /** The composition that last used it: a chunk serves one place per composition. */
  usedIn: number;
}

/**
 * Parsed chunks of one document's YAML region, kept between analyses of
 * successive versions. A keystroke changes one chunk (a top-level key or one
 * step); the others are reused and moved, not parsed again.
 * One cache belongs to one document: reused nodes are moved, not copied.
 *
 * Most chunks are found by position: text before the first changed
 * character and after the last one is the same as last time, so a chunk
 * lying wholly there is the one that stood at the same place (or the same
 * place moved by the change in length), without slicing or hashing its
 * text. Only the chunks around the change are looked up by text (a step
 * pasted elsewhere, an undo) or parsed.
 */
export class YamlChunkCache {
  /** The last composition's chunks by text. */
  private byText = new Map<string, ParsedChunk[]>();
  /** The last composed region and its chunks in order, with their starts then. */
  private last?: { source: string; chunks: ParsedChunk[]; starts: number[] };
  private composition = 0;

  /**
   * The chunk for each range of `source` (undefined where one cannot be
   * parsed on its own), each placed at its range's start.
   */
  chunksFor(source: string, ranges: Entry[]): (ParsedChunk | undefined)[] {
    const composition = ++this.composition;
    const found: (ParsedChunk | undefined)[] = new Array(ranges.length);
    const last = this.last;
    if (last) {
      const before = commonPrefix(last.source, source);
      const after = commonSuffix(last.source, source, Math.min(last.source.length, source.length) - before);
      const delta = source.length - last.source.length;
      let j = 0;
      ranges.forEach((range, index) => {
        const unchanged = range.end <= before ? 0 : range.start >= source.length - after ? delta : undefined;
        if (unchanged === undefined) return;
        const oldStart = range.start - unchanged;
        while (j < last.starts.length && last.starts[j] < oldStart) j++;
        const chunk = last.chunks[j];
        if (j < last.starts.length && last.starts[j] === oldStart && chunk.text.length === range.end - range.start && chunk.usedIn !== composition) {
          chunk.usedIn = composition;
          chunk.place.offset = range.start;
          found[index] = chunk;
        }
      });
    }
    ranges.forEach((range, index) => {
      if (found[index]) return;
      const text = source.slice(range.start, range.end);
      let chunk = this.byText.get(text)?.find((known) => known.usedIn !== composition);
      if (chunk) {
        chunk.place.offset = range.start;
      } else {
        // Checked per new chunk, not over the whole text on every keystroke.
        if (NOT_CHUNKABLE.test(text)) return;
        const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, strict: true });
        const place = { offset: range.start };
        placeNodes(doc.contents, place);
        chunk = { text, doc, value: doc.errors.length === 0 ? doc.toJS() : undefined, place, usedIn: composition };
      }
      chunk.usedIn = composition;
      found[index] = chunk;
    });
    return found;
  }

  /** Keeps `chunks`, the ones the last successful composition of `source` used, so memory follows the current text. */
  retain(source: string, chunks: ParsedChunk[]): void {
    const byText = new Map<string, ParsedChunk[]>();
    for (const chunk of chunks) {
      const same = byText.get(chunk.text);
      if (same) same.push(chunk);
      else byText.set(chunk.text, [chunk]);
    }
    this.byText = byText;
    this.last = { source, chunks, starts: chunks.map((chunk) => chunk.place.offset) };
  }
}

/** Characters compared at a time: string equality on slices runs natively, far faster than a loop over characters. */
const BLOCK = 512;

/** How many characters `a` and `b` share at the start. */
function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at + BLOCK <= limit && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** How many characters `a` and `b` share at the end, at most `limit`. */
function commonSuffix(a: string, b: string, limit: number): number {
  let at = 0;
  while (at + BLOCK <= limit && a.slice(a.length - at - BLOCK, a.length - at) === b.slice(b.length - at - BLOCK, b.length - at)) at += BLOCK;
  while (at < limit && a.charCodeAt(a.length - at - 1) === b.charCodeAt(b.length - at - 1)) at++;
  return at;
}

interface Entry {
  key: string;
  start: number;
  end: number;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)/;
/** Anchors, aliases, tags, directives and document markers tie chunks together: parse such text whole. */
const NOT_CHUNKABLE = /(^|[\s[{,])[&*!][^\s]|^%|^(---|\.\.\.)[ \t]*$/m;

const WHITESPACE = /\s/;
/** A line break followed by a line that starts at column 0 with content (not blank, not a comment). */
const COLUMN_ZERO = /\n[^\s#]/g;

function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

/**
 * Splits a top-level mapping into its entries by the lines that start a key
 * at column 0. These scans run over the whole procedure on every keystroke,
 * so they jump between the lines that matter instead of visiting each line.
 */
function topLevelEntries(text: string): Entry[] | undefined {
  let start = 0;
  // Before the first key only blank and comment lines may stand: indented content there belongs to no chunk.
  for (;;) {
    if (start > text.length) return undefined;
    const end = lineEnd(text, start);
    if (start !== end && text[start] !== '#') {
      if (!WHITESPACE.test(text[start])) break;
      const trimmed = text.slice(start, end).trim();
      if (trimmed !== '' && !trimmed.startsWith('#')) return undefined;
    }
    start = end + 1;
  }
  // From there, indented lines continue the entry above: only lines with content at column 0 start one.
  const entries: Entry[] = [];
  while (start !== -1) {
    const end = lineEnd(text, start);
    const key = KEY_LINE.exec(text.slice(start, end));
    // Content at column 0 that starts no key (a flow collection running on, say) cannot be chunked.
    if (!key) return undefined;
    if (entries.length > 0) entries[entries.length - 1].end = start;
    entries.push({ key: key[1], start, end: text.length });
    COLUMN_ZERO.lastIndex = end;
    const next = COLUMN_ZERO.exec(text);
    start = next ? next.index + 1 : -1;
  }
  if (new Set(entries.map((entry) => entry.key)).size !== entries.length) return undefined;
  return entries;
}

/** Splits the value of `steps:` into its list items, by the lines at the first item's indentation. */
function listItems(text: string, entry: Entry): { header: Entry; items: Entry[] } | undefined {
  const body = text.slice(entry.start, entry.end);
  const firstItem = /\n([ \t]*)- /.exec(body);
  if (!firstItem || body.slice(0, firstItem.index).split('\n')[0].replace(KEY_LINE, '').trim() !== '') return undefined;
  const bare = `${firstItem[1]}-`;
  const items: Entry[] = [];
  // An item starts a line with the marker and a space, or is the marker alone on its line.
  const needle = `\n${bare}`;
  for (let at = text.indexOf(needle, entry.start); at !== -1 && at < entry.end; at = text.indexOf(needle, at + 1)) {
    const start = at + 1;
    const after = start + bare.length;
    if (text[after] !== ' ' && text[after] !== '\n' && after !== entry.end && after !== text.length) continue;
    if (items.length > 0) items[items.length - 1].end = start;
    items.push({ key: '-', start, end: entry.end });
  }
  if (items.length === 0) return undefined;
  return { header: { key: entry.key, start: entry.start, end: items[0].start }, items };
}

export interface ChunkedParse {
  doc: Document.Parsed;
  value: unknown;
  problems: YamlProblem[];
}

/**
 * Parses a region chunk by chunk with `cache`, composing one document whose
 * ranges are region offsets, as a whole parse would give. Returns undefined
 * when the text cannot be chunked safely or a chunk has errors: the caller
 * then parses it whole, so diagnostics are always the whole parse's.
 */
export function parseChunked(source: string, cache: YamlChunkCache): ChunkedParse | undefined {
  if (source.length < CHUNK_THRESHOLD) return undefined;
  const entries = topLevelEntries(source);
  if (!entries) return undefined;
  const layout = entries.map((entry) => {
    const split = entry.key === 'steps' ? listItems(source, entry) : undefined;
    return { entry, head: split ? split.header : entry, items: split?.items };
  });
  const chunks = cache.chunksFor(source, layout.flatMap((part) => [part.head, ...(part.items ?? [])]));
  let next = 0;
  const contents = new YAMLMap();
  const value: Record<string, unknown> = {};
  for (const { entry, items } of layout) {
    const chunk = chunks[next++];
    if (!chunk || chunk.doc.errors.length > 0 || !isMap(chunk.doc.contents) || chunk.doc.contents.items.length !== 1) return undefined;
    const pair = chunk.doc.contents.items[0] as Pair<Node, Node | null>;
    if (items) {
      const seq = new YAMLSeq();
      const values: unknown[] = [];
      let firstList: Node | undefined;
      for (let item = 0; item < items.length; item++) {
        const itemChunk = chunks[next++];
        const list = itemChunk?.doc.contents;
        if (!itemChunk || itemChunk.doc.errors.length > 0 || !isSeq(list) || list.items.length !== 1) return undefined;
        firstList ??= list;
        seq.items.push(list.items[0]);
        values.push((itemChunk.value as unknown[])[0]);
      }
      // The whole parse starts the sequence at its first `- `, before the first item's own node.
      const first = nodeRange(firstList)!;
      const last = nodeRange(seq.items[seq.items.length - 1] as Node)!;
      seq.range = [first[0], last[1], last[2]];
      pair.value = seq;
      value[entry.key] = values;
    } else {
      value[entry.key] = (chunk.value as Record<string, unknown>)[entry.key];
    }
    contents.items.push(pair);
  }
  cache.retain(source, chunks as ParsedChunk[]);
  const firstPair = contents.items[0] as Pair<Node, Node | null>;
  contents.range = [nodeRange(firstPair.key)![0], source.length, source.length];
  const doc = new Document() as Document.Parsed;
  doc.contents = contents as unknown as Document.Parsed['contents'];
  return { doc, value, problems: [] };
}
