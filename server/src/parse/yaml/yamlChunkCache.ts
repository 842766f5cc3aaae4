import { Document, visit } from 'yaml';
import { parseYamlDocument } from './blockYaml';
import { placeNodes, type ChunkPlace } from './nodeRange';
import { unsharedCopy } from '../text/unsharedCopy';
import { sameText, type TextLike } from '../text/textLike';
import { changedRegion } from '../text/textChange';
import type { YamlDialect } from './yamlDialects';
import { DOCUMENT_LINES, movedLayout, type Change, type Entry, type Layout } from './yamlSplit';
import { documentValue, type WholeParse, type YamlProblem } from './yamlSyntax';
import { appendTo } from '../../listMap';

export interface ParsedChunk {
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

  /**
   * The last composition's chunks by the length of their text: a chunk is looked up by text among those of its length,
   * so no chunk's text is hashed (at 1,000 steps, hashing every chunk's text into a map was a millisecond of the first
   * reading, for lookups made only around an edit).
   */
  private byLength = new Map<number, ParsedChunk[]>();
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
      let chunk = this.byLength.get(text.length)?.find((known) => known.usedIn !== composition && known.text === text);
      if (chunk) {
        chunk.place.offset = range.start;
      } else {
        // Checked per new chunk, not over the whole text on every keystroke.
        if (DOCUMENT_LINES.test(text)) return;
        const own = unsharedCopy(text);
        const doc = parseYamlDocument(own, this.dialect);
        // An alias is written `*name`: a chunk without a `*` holds none, and its nodes need not be visited.
        if (own.includes('*') && holdsAlias(doc)) return;
        const place = { offset: range.start };
        placeNodes(doc.contents, place);
        chunk = {
          text: own,
          doc,
          value: doc.errors.length === 0 ? documentValue(doc) : undefined,
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
    // The chunks dropped are taken out of their lengths' lists at once: a generated procedure's steps can all be one
    // length, and a paste over all of them drops every chunk.
    const dropped = (this.last?.chunks ?? []).filter((chunk) => chunk.usedIn !== composition);
    if (dropped.length > 0) {
      const gone = new Set(dropped);
      for (const length of new Set(dropped.map((chunk) => chunk.text.length))) {
        const kept = (this.byLength.get(length) ?? []).filter((known) => !gone.has(known));
        if (kept.length > 0) this.byLength.set(length, kept);
        else this.byLength.delete(length);
      }
    }
    for (const chunk of chunks) {
      if (chunk.parsedIn === composition) appendTo(this.byLength, chunk.text.length, chunk);
    }
    const starts = new Array<number>(chunks.length);
    for (let index = 0; index < chunks.length; index++) starts[index] = chunks[index].place.offset;
    this.last = { source, layout, layoutAt: source, chunks, starts, lists };
    // The change was worked out against the composition this one replaces: the same text again (an edit outside the
    // region) changes nothing from here.
    this.change = undefined;
  }
}

/** A composition's list items and their values, for each part of its layout that is a list. */
export type ComposedLists = ({ items: unknown[]; values: unknown[] } | undefined)[];

export interface ChunkedParse {
  doc: Document.Parsed;
  value: unknown;
  problems: YamlProblem[];
}

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
