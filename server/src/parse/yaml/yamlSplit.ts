import { isWhiteSpace, type TextLike } from '../text/textLike';
import { firstNotBefore } from '../text/bisect';

// How a YAML region is split into chunks that parse on their own: its top-level entries, and the items of one list
// (a procedure's `steps`, a MetaSkill's `composition.steps`).

export interface Entry {
  key: string;
  start: number;
  end: number;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)/;
/** Directives and document markers tie chunks together (a `%TAG` handle, a second document): parse such text whole. */
export const DOCUMENT_LINES = /^%|^(---|\.\.\.)[ \t]*$/m;

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
export const LISTS: Record<string, string | undefined> = { steps: undefined, composition: 'steps' };

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
export interface Change {
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
export function movedLayout(layout: Layout, source: TextLike, change: Change): boolean {
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
