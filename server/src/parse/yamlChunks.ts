import { Document, isMap, isSeq, visit, YAMLMap, YAMLSeq, type Node, type Pair } from 'yaml';
import { parseYamlDocument } from './blockYaml';
import { ownCopy } from './ownCopy';
import { nodeRange, placeNodes, type ChunkPlace } from './nodeRange';
import { firstNotBefore } from './bisect';
import { isWhiteSpace, sameText, type TextLike } from './textLike';
import { changedRegion } from './textChange';
import type { YamlDialect } from './yamlDialects';
import type { WholeParse, YamlProblem } from './yamlSyntax';

/**
 * Below this size a region is parsed whole: a step or two, where chunks save
 * nothing. Above it, an edit costs the parse of the chunk it touches, not of
 * the procedure (the bench's edit latency at 10 steps, 4.5 KB, shows it).
 */
export const CHUNK_THRESHOLD = 2 * 1024;

interface ParsedChunk {
  text: string;
  doc: Document.Parsed;
  value: unknown;
  /** Where the chunk sits in the region; its nodes' ranges are read through it (nodeRange). */
  place: ChunkPlace;
  /** The composition that last used it: a chunk serves one place per composition. */
  usedIn: number;
  /** The composition that parsed it. */
  parsedIn: number;
}

/**
 * The YAML regions of one document kept between analyses of successive
 * versions, each read in its own dialect: the procedure (strict YAML) and
 * the frontmatter (as its consumer reads it; a MetaSkill's is read again as
 * PyYAML when its first reading guessed wrong). One cache belongs to one
 * document: reused nodes are moved, not copied.
 */
export class YamlChunkCache {
  private readonly regions = new Map<YamlDialect, RegionChunks>();

  /** The chunks of the region read in `dialect`. */
  region(dialect: YamlDialect): RegionChunks {
    let region = this.regions.get(dialect);
    if (!region) this.regions.set(dialect, (region = new RegionChunks(dialect)));
    return region;
  }
}

/**
 * Parsed chunks of one YAML region of a document, kept between analyses of
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
export class RegionChunks {
  constructor(private readonly dialect: YamlDialect) {}

  /** The last composition's chunks by text. */
  private byText = new Map<string, ParsedChunk[]>();
  /**
   * The last composed region, how it was split, and its chunks in order with
   * their starts then. `layoutAt`: the text the layout's entries now describe
   * (they are moved in place, so after a move that no composition followed
   * they describe a text that is not `source`).
   */
  private last?: {
    source: TextLike;
    layout: Layout;
    layoutAt: TextLike;
    chunks: ParsedChunk[];
    starts: number[];
    lists: ComposedLists;
  };
  private change?: Change & { source: TextLike };
  private composition = 0;

  /** Where `source` differs from the last composed region (worked out once per text). */
  private changeFor(source: TextLike): Change | undefined {
    const last = this.last;
    if (!last) return undefined;
    if (this.change?.source !== source) {
      const { before, after } = changedRegion(last.source, source);
      this.change = { source, before, after, delta: source.length - last.source.length };
    }
    return this.change;
  }

  /** The last split of the region moved to `source`, when the change cannot have moved a split (see movedLayout). */
  layoutFor(source: TextLike): Layout | undefined {
    const last = this.last;
    if (last && sameText(last.layoutAt, source)) return last.layout;
    const change = this.changeFor(source);
    if (!change || !last || !sameText(last.layoutAt, last.source) || !movedLayout(last.layout, source, change))
      return undefined;
    last.layoutAt = source;
    return last.layout;
  }

  /**
   * The chunk for each range of `source` (undefined where one cannot be
   * parsed on its own), each placed at its range's start.
   */
  chunksFor(source: TextLike, ranges: Entry[]): (ParsedChunk | undefined)[] {
    const composition = ++this.composition;
    // Chunks are about to move: the last composed document no longer stands where it did.
    this.lastParse = undefined;
    const found: (ParsedChunk | undefined)[] = new Array(ranges.length);
    const last = this.last;
    const change = this.changeFor(source);
    if (last && change) {
      const { before, after, delta } = change;
      let j = 0;
      ranges.forEach((range, index) => {
        const unchanged = range.end <= before ? 0 : range.start >= source.length - after ? delta : undefined;
        if (unchanged === undefined) return;
        const oldStart = range.start - unchanged;
        while (j < last.starts.length && last.starts[j] < oldStart) j++;
        const chunk = last.chunks[j];
        if (
          j < last.starts.length &&
          last.starts[j] === oldStart &&
          chunk.text.length === range.end - range.start &&
          chunk.usedIn !== composition
        ) {
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
        if (DOCUMENT_LINES.test(text)) return;
        const own = ownCopy(text);
        const doc = parseYamlDocument(own, this.dialect);
        if (holdsAlias(doc)) return;
        const place = { offset: range.start };
        placeNodes(doc.contents, place);
        chunk = {
          text: own,
          doc,
          value: doc.errors.length === 0 ? doc.toJS() : undefined,
          place,
          usedIn: composition,
          parsedIn: composition,
        };
      }
      chunk.usedIn = composition;
      found[index] = chunk;
    });
    return found;
  }

  /**
   * The chunks and list items the last composition made of `layout`, when
   * it was split the same way (the same layout, moved): a list item whose
   * chunk is the same as then is last time's, without reading its chunk.
   */
  lastComposed(layout: Layout): { chunks: ParsedChunk[]; lists: ComposedLists } | undefined {
    return this.last?.layout === layout ? this.last : undefined;
  }

  /** The last document composed of chunks, and its text. */
  private lastParse?: { source: TextLike; parse: ChunkedParse };

  /** The last composed document, when its text is `source` (the region unchanged by an edit elsewhere in the file). */
  composed(source: TextLike): ChunkedParse | undefined {
    return this.lastParse && sameText(this.lastParse.source, source) ? this.lastParse.parse : undefined;
  }

  /** The last whole parse of the region (a frontmatter of plain lines, a procedure too small or too odd to chunk). */
  private lastWhole?: { source: TextLike; parsed: WholeParse };

  /** `parse()` of `source`, or the last one when the region's text is the same (an edit elsewhere in the file). */
  whole(source: TextLike, parse: () => WholeParse): WholeParse {
    if (this.lastWhole && sameText(this.lastWhole.source, source)) return this.lastWhole.parsed;
    const parsed = parse();
    this.lastWhole = { source, parsed };
    return parsed;
  }

  /**
   * Keeps `chunks`, the ones the last successful composition of `source`
   * (split as `layout`) used, so memory follows the current text. Every
   * chunk it reused was kept by the composition before, so only the chunks
   * it dropped and the ones it parsed change what is kept.
   */
  retain(source: TextLike, layout: Layout, chunks: ParsedChunk[], parse: ChunkedParse, lists: ComposedLists): void {
    this.lastParse = { source, parse };
    const composition = this.composition;
    for (const chunk of this.last?.chunks ?? []) {
      if (chunk.usedIn === composition) continue;
      const same = this.byText.get(chunk.text)?.filter((known) => known !== chunk);
      if (same?.length) this.byText.set(chunk.text, same);
      else this.byText.delete(chunk.text);
    }
    for (const chunk of chunks) {
      if (chunk.parsedIn !== composition) continue;
      const same = this.byText.get(chunk.text);
      if (same) same.push(chunk);
      else this.byText.set(chunk.text, [chunk]);
    }
    const starts = new Array<number>(chunks.length);
    for (let index = 0; index < chunks.length; index++) starts[index] = chunks[index].place.offset;
    this.last = { source, layout, layoutAt: source, chunks, starts, lists };
    // The change was worked out against the composition this one replaces: the same text again (an edit outside the
    // region) changes nothing from here.
    this.change = undefined;
  }
}

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

/** A composition's list items and their values, for each part of its layout that is a list. */
type ComposedLists = ({ items: unknown[]; values: unknown[] } | undefined)[];

export interface Entry {
  key: string;
  start: number;
  end: number;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)/;
/** Directives and document markers tie chunks together (a `%TAG` handle, a second document): parse such text whole. */
const DOCUMENT_LINES = /^%|^(---|\.\.\.)[ \t]*$/m;

/**
 * Whether a chunk uses an alias: its anchor may stand in another chunk (or
 * expand past the alias limit a whole parse enforces), so such text is
 * parsed whole. Anchors and tags alone mean the same in a chunk as in the
 * whole; a `*` or `&` in prose (Markdown bold in a block scalar) is not
 * an alias, which is why the parsed chunk is asked, not its text.
 */
function holdsAlias(doc: Document.Parsed): boolean {
  let found = false;
  visit(doc, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

/** Whether the character at `at` is white space (as `\s` reads it), or past the end. */
function isSpaceAt(text: TextLike, at: number): boolean {
  return at >= text.length || isWhiteSpace(text.charCodeAt(at));
}

/**
 * The next line break at or after `from` followed by a line that starts at column 0 with content (not blank, not a
 * comment).
 */
function nextColumnZero(text: TextLike, from: number): number {
  for (let at = text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (!isSpaceAt(text, at + 1) && text.charCodeAt(at + 1) !== HASH) return at;
  }
  return -1;
}

const HASH = 35;

function lineEnd(text: TextLike, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

/**
 * Splits a top-level mapping into its entries by the lines that start a key
 * at column 0. These scans run over the whole procedure on every keystroke,
 * so they jump between the lines that matter instead of visiting each line.
 */
function topLevelEntries(text: TextLike): Entry[] | undefined {
  let start = 0;
  // Before the first key only blank and comment lines may stand: indented content there belongs to no chunk.
  for (;;) {
    if (start > text.length) return undefined;
    const end = lineEnd(text, start);
    if (start !== end && text.charCodeAt(start) !== HASH) {
      if (!isSpaceAt(text, start)) break;
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
    const next = nextColumnZero(text, end);
    start = next === -1 ? -1 : next + 1;
  }
  if (new Set(entries.map((entry) => entry.key)).size !== entries.length) return undefined;
  return entries;
}

/**
 * The lists split into items, by the top-level key holding them: a
 * procedure's `steps`, and a MetaSkill frontmatter's `composition`, whose
 * `steps` key holds its list.
 */
const LISTS: Record<string, string | undefined> = { steps: undefined, composition: 'steps' };

const SPACE = 32;
const TAB = 9;
const NEWLINE = 10;

/**
 * The indentation of the first line in (from, to) that starts a list item
 * (`- ` after spaces and tabs), read line by line: the entry of a long
 * procedure's steps is not copied out to be searched.
 */
function firstListItem(text: TextLike, from: number, to: number): string | undefined {
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) {
    let marker = at + 1;
    for (let code = text.charCodeAt(marker); code === SPACE || code === TAB; code = text.charCodeAt(++marker));
    if (marker + 2 <= to && text.startsWith('- ', marker)) return text.slice(at + 1, marker);
  }
  return undefined;
}

/**
 * Splits the list of an entry of LISTS into its items, by the lines at the
 * first item's indentation. The header (the key, the inner key, comments)
 * is one chunk; parseChunked checks that it holds nothing else.
 */
function listItems(text: TextLike, entry: Entry): { header: Entry; items: Entry[]; bare: string } | undefined {
  const firstItem = firstListItem(text, entry.start, entry.end);
  if (
    firstItem === undefined ||
    text.slice(entry.start, lineEnd(text, entry.start)).replace(KEY_LINE, '').trim() !== ''
  )
    return undefined;
  const bare = `${firstItem}-`;
  const items: Entry[] = [];
  // An item starts a line with the marker and a space, or is the marker alone on its line.
  const needle = `\n${bare}`;
  for (let at = text.indexOf(needle, entry.start); at !== -1 && at < entry.end; at = text.indexOf(needle, at + 1)) {
    const start = at + 1;
    const after = start + bare.length;
    const next = text.charCodeAt(after);
    if (next !== SPACE && next !== NEWLINE && after !== entry.end && after !== text.length) continue;
    if (items.length > 0) items[items.length - 1].end = start;
    items.push({ key: '-', start, end: entry.end });
  }
  if (items.length === 0) return undefined;
  return { header: { key: entry.key, start: entry.start, end: items[0].start }, items, bare };
}

/**
 * Where a new text differs from the last: the characters shared at the start and at the end, and the change in length.
 */
interface Change {
  before: number;
  after: number;
  delta: number;
}

/** A top-level entry of the region and, for a list (LISTS), its header and its list items: one chunk each. */
export interface Part {
  entry: Entry;
  head: Entry;
  items?: Entry[];
}
export interface Layout {
  parts: Part[];
  /** The range of each chunk in order: every part's head, then its items (the same objects). */
  chunks: Entry[];
  /** The list marker of the split list's items (`  -`); one list is split, the first of LISTS. */
  bare?: string;
}

/** The region split into its parts: top-level entries, and a list (LISTS) into its items. */
export function splitRegion(source: TextLike): Layout | undefined {
  const entries = topLevelEntries(source);
  if (!entries) return undefined;
  let bare: string | undefined;
  const chunks: Entry[] = [];
  const parts = entries.map((entry): Part => {
    const split = bare === undefined && Object.hasOwn(LISTS, entry.key) ? listItems(source, entry) : undefined;
    if (split) bare = split.bare;
    chunks.push(split ? split.header : entry);
    if (split) for (const item of split.items) chunks.push(item);
    return split ? { entry, head: split.header, items: split.items } : { entry, head: entry };
  });
  return { parts, chunks, ...(bare !== undefined ? { bare } : {}) };
}

/**
 * Moves the last split to the new text, in place, and says whether it
 * could: not when the change may have moved a split. The lines it touches
 * must all lie inside one item of the steps or one other entry (after the
 * first key and the steps' first item, which decide how the rest is split),
 * and none of them may start a key at column 0 or a list item, now or
 * before. Typing inside a step then costs a look at the lines it changed
 * and a shift of the starts below, not a scan of the whole procedure.
 */
function movedLayout(layout: Layout, source: TextLike, change: Change): boolean {
  // The changed lines, in the new text: from the start of the line where the texts part to the end of the line where
  // they meet again.
  const start = change.before === 0 ? 0 : source.lastIndexOf('\n', change.before - 1) + 1;
  const meet = source.indexOf('\n', source.length - change.after);
  const end = meet === -1 ? source.length + 1 : meet + 1;
  const oldEnd = end - change.delta;
  // Chunks are in text order, and each starts a part or an item: the first at or after the changed lines must start
  // after them.
  const chunks = layout.chunks;
  const after = firstNotBefore(chunks.length, (index) => chunks[index].start < start);
  if (after < chunks.length && chunks[after].start < oldEnd) return false;
  let owner: Part | undefined;
  for (const part of layout.parts) if (part.entry.start < start) owner = part;
  if (!owner || (owner.items && owner.items[0].start >= start)) return false;
  for (let line = start; line < end && line <= source.length;) {
    const stop = lineEnd(source, line);
    if (line < stop && !isSpaceAt(source, line) && source.charCodeAt(line) !== HASH) return false;
    if (layout.bare !== undefined && source.startsWith(layout.bare, line)) return false;
    line = stop + 1;
  }
  // Every entry ends where the next starts or at the region's end: only those past the changed lines move.
  const delta = change.delta;
  for (let index = after; index < chunks.length; index++) {
    chunks[index].start += delta;
    chunks[index].end += delta;
  }
  if (after > 0) chunks[after - 1].end += delta;
  for (const part of layout.parts) {
    // A steps part's entry is not a chunk (its header and items are); other parts' entries are their heads.
    if (part.items) {
      if (part.entry.start >= start) part.entry.start += delta;
      if (part.entry.end >= start) part.entry.end += delta;
    }
  }
  return true;
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
