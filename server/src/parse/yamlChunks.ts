import { Document, isMap, isSeq, parseDocument, YAMLMap, YAMLSeq, type Node, type Pair } from 'yaml';
import type { YamlProblem } from './yamlSyntax';

/** Below this size a region is parsed whole: chunking only pays off on large procedures. */
export const CHUNK_THRESHOLD = 16 * 1024;

interface ParsedChunk {
  text: string;
  doc: Document.Parsed;
  value: unknown;
  /** Where the chunk's node ranges currently point: its offset in the region. */
  shift: number;
}

/**
 * Parsed chunks of one document's YAML region, kept between analyses of
 * successive versions. A keystroke changes one chunk (a top-level key or one
 * step); the others are reused, their ranges shifted, not parsed again.
 * One cache belongs to one document: reused nodes are moved, not copied.
 */
export class YamlChunkCache {
  private chunks = new Map<string, ParsedChunk[]>();

  /**
   * Takes the parse of `text` (parsing it if unknown) and points its ranges
   * at `offset`; undefined when the chunk cannot be parsed on its own.
   */
  take(text: string, offset: number, used: Map<string, ParsedChunk[]>): ParsedChunk | undefined {
    const cached = this.chunks.get(text)?.pop();
    let chunk: ParsedChunk;
    if (cached) {
      chunk = cached;
      if (chunk.shift !== offset) shiftRanges(chunk.doc, offset - chunk.shift);
      chunk.shift = offset;
    } else {
      // Checked per new chunk, not over the whole text on every keystroke.
      if (NOT_CHUNKABLE.test(text)) return undefined;
      const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, strict: true });
      if (offset !== 0) shiftRanges(doc, offset);
      chunk = { text, doc, value: doc.errors.length === 0 ? doc.toJS() : undefined, shift: offset };
    }
    used.set(text, [...(used.get(text) ?? []), chunk]);
    return chunk;
  }

  /** Keeps only the chunks the last composition used, so memory follows the current text. */
  retain(used: Map<string, ParsedChunk[]>): void {
    this.chunks = used;
  }
}

/** Moves every node's range by `delta`: a plain walk, several times faster than `visit` on large chunks. */
function shiftRanges(doc: Document.Parsed, delta: number): void {
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const item = node as { range?: [number, number, number]; items?: unknown[]; key?: unknown; value?: unknown };
    if (item.range) item.range = [item.range[0] + delta, item.range[1] + delta, item.range[2] + delta];
    if (Array.isArray(item.items)) for (const child of item.items) walk(child);
    if ('key' in item) {
      walk(item.key);
      walk(item.value);
    }
  };
  walk(doc.contents);
}

interface Entry {
  key: string;
  start: number;
  end: number;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)/;
/** Anchors, aliases, tags, directives and document markers tie chunks together: parse such text whole. */
const NOT_CHUNKABLE = /(^|[\s[{,])[&*!][^\s]|^%|^(---|\.\.\.)[ \t]*$/m;

/** Splits a top-level mapping into its entries by the lines that start a key at column 0. */
function topLevelEntries(text: string): Entry[] | undefined {
  const entries: Entry[] = [];
  let offset = 0;
  let seenKey = false;
  for (const line of text.split('\n')) {
    const key = KEY_LINE.exec(line);
    if (key) {
      if (entries.length > 0) entries[entries.length - 1].end = offset;
      entries.push({ key: key[1], start: offset, end: text.length });
      seenKey = true;
    } else if (!seenKey && line.trim() !== '' && !line.trim().startsWith('#')) {
      return undefined;
    } else if (line.length > 0 && !/^[\s#]/.test(line)) {
      // Content at column 0 that starts no key (a flow collection running on, say).
      return undefined;
    }
    offset += line.length + 1;
  }
  if (entries.length === 0 || new Set(entries.map((entry) => entry.key)).size !== entries.length) return undefined;
  return entries;
}

/** Splits the value of `steps:` into its list items, by the lines at the first item's indentation. */
function listItems(text: string, entry: Entry): { header: Entry; items: Entry[] } | undefined {
  const body = text.slice(entry.start, entry.end);
  const firstItem = /\n([ \t]*)- /.exec(body);
  if (!firstItem || body.slice(0, firstItem.index).split('\n')[0].replace(KEY_LINE, '').trim() !== '') return undefined;
  const marker = `${firstItem[1]}- `;
  const items: Entry[] = [];
  let offset = entry.start;
  for (const line of body.split('\n')) {
    if (line.startsWith(marker) || line === marker.trimEnd()) {
      if (items.length > 0) items[items.length - 1].end = offset;
      items.push({ key: '-', start: offset, end: entry.end });
    }
    offset += line.length + 1;
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
  const used = new Map<string, ParsedChunk[]>();
  const contents = new YAMLMap();
  const value: Record<string, unknown> = {};
  for (const entry of entries) {
    const split = entry.key === 'steps' ? listItems(source, entry) : undefined;
    const head = split ? split.header : entry;
    const chunk = cache.take(source.slice(head.start, head.end), head.start, used);
    if (!chunk || chunk.doc.errors.length > 0 || !isMap(chunk.doc.contents) || chunk.doc.contents.items.length !== 1) return undefined;
    const pair = chunk.doc.contents.items[0] as Pair<Node, Node | null>;
    if (split) {
      const seq = new YAMLSeq();
      const values: unknown[] = [];
      for (const item of split.items) {
        const itemChunk = cache.take(source.slice(item.start, item.end), item.start, used);
        const list = itemChunk?.doc.contents;
        if (!itemChunk || itemChunk.doc.errors.length > 0 || !isSeq(list) || list.items.length !== 1) return undefined;
        seq.items.push(list.items[0]);
        values.push((itemChunk.value as unknown[])[0]);
      }
      const first = seq.items[0] as Node;
      const last = seq.items[seq.items.length - 1] as Node;
      seq.range = [first.range![0], last.range![1], last.range![2]];
      pair.value = seq;
      value[entry.key] = values;
    } else {
      value[entry.key] = (chunk.value as Record<string, unknown>)[entry.key];
    }
    contents.items.push(pair);
  }
  cache.retain(used);
  const firstPair = contents.items[0] as Pair<Node, Node | null>;
  contents.range = [firstPair.key.range![0], source.length, source.length];
  const doc = new Document() as Document.Parsed;
  doc.contents = contents as unknown as Document.Parsed['contents'];
  return { doc, value, problems: [] };
}
