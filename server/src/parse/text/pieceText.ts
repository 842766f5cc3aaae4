import type { TextLike } from './textLike';

/**
 * Pieces hold about this many UTF-16 units, never more than twice it. V8 keeps a string of over 128 KB as a large
 * object of its own, mapped afresh each time one is made: at 1,000 steps (470 KB) one flat copy per keystroke cost more
 * than the whole analysis of the edit.
 */
const PIECE = 16 * 1024;

/**
 * An immutable text held as pieces, none of them a large object. An edit
 * makes a new PieceText sharing every piece it did not touch, so a keystroke
 * in a long procedure costs a copy of one piece, and comparing two versions
 * (`sharedPieces`) skips the pieces both hold. Reads take the same
 * arguments and give the same results as the same calls on the flat string;
 * `toString()` makes that string once, when a feature asks for the whole text.
 */
export class PieceText implements TextLike {
  readonly length: number;
  /** Where each piece starts, and one more entry: the length. */
  private readonly starts: number[];
  private flat?: string;
  /** The piece the last read fell in: reads come in runs along the text. */
  private lastPiece = 0;

  private constructor(
    readonly pieces: readonly string[],
    /** PIECE, or smaller in tests, so short texts span many pieces. */
    private readonly size: number,
  ) {
    this.starts = new Array<number>(pieces.length + 1);
    let at = 0;
    for (let index = 0; index < pieces.length; index++) {
      this.starts[index] = at;
      at += pieces[index].length;
    }
    this.starts[pieces.length] = at;
    this.length = at;
  }

  static of(text: string, size = PIECE): PieceText {
    const made = new PieceText(split(text, size), size);
    // A text of one piece is its own flat copy.
    if (made.pieces.length <= 1) made.flat = text;
    return made;
  }

  /** The text with [start, end) replaced by `insert`: the pieces the range touches are made anew, the others shared. */
  edited(start: number, end: number, insert: string): PieceText {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    let first = this.pieceAt(from);
    let last = to > from ? this.pieceAt(to - 1) : first;
    const touched = this.pieces.slice(first, last + 1).join('');
    const offset = this.starts[first];
    let replaced = touched.slice(0, from - offset) + insert + touched.slice(to - offset);
    // What is left small joins a neighbour, so deleting does not leave the text in slivers.
    if (replaced.length < this.size / 2) {
      if (last + 1 < this.pieces.length) replaced += this.pieces[++last];
      else if (first > 0) replaced = this.pieces[--first] + replaced;
    }
    return this.made([...this.pieces.slice(0, first), ...split(replaced, this.size), ...this.pieces.slice(last + 1)]);
  }

  private made(pieces: string[]): PieceText {
    const made = new PieceText(pieces, this.size);
    if (pieces.length <= 1) made.flat = pieces[0] ?? '';
    return made;
  }

  /** [start, end) as a PieceText sharing this one's pieces. */
  sub(start: number, end = this.length): PieceText {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    if (to - from < this.size) return PieceText.of(this.slice(from, to), this.size);
    const first = this.pieceAt(from);
    const last = this.pieceAt(to - 1);
    const pieces = this.pieces.slice(first, last + 1);
    pieces[pieces.length - 1] = pieces[pieces.length - 1].slice(0, to - this.starts[last]);
    pieces[0] = pieces[0].slice(from - this.starts[first]);
    return this.made(pieces.filter((piece) => piece !== ''));
  }

  /** The index of the piece holding `index` (the last piece for the end). */
  private pieceAt(index: number): number {
    const starts = this.starts;
    let piece = this.lastPiece;
    if (!(starts[piece] <= index && index < starts[piece + 1])) {
      let low = 0;
      let high = this.pieces.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid] <= index) low = mid;
        else high = mid - 1;
      }
      piece = low;
    }
    this.lastPiece = piece;
    return piece;
  }

  charCodeAt(index: number): number {
    const at = Math.trunc(index) || 0;
    if (!(at >= 0 && at < this.length)) return NaN;
    const piece = this.pieceAt(at);
    return this.pieces[piece].charCodeAt(at - this.starts[piece]);
  }

  slice(start: number, end: number = this.length): string {
    const from = clampIndex(start, this.length);
    const to = clampIndex(end, this.length);
    if (to <= from) return '';
    if (this.flat !== undefined) return this.flat.slice(from, to);
    const first = this.pieceAt(from);
    if (to <= this.starts[first + 1])
      return this.pieces[first].slice(from - this.starts[first], to - this.starts[first]);
    const last = this.pieceAt(to - 1);
    let text = this.pieces[first].slice(from - this.starts[first]);
    for (let piece = first + 1; piece < last; piece++) text += this.pieces[piece];
    return text + this.pieces[last].slice(0, to - this.starts[last]);
  }

  indexOf(search: string, from = 0): number {
    const start = Math.max(0, Math.min(Math.trunc(from) || 0, this.length));
    if (search === '') return start;
    if (this.flat !== undefined) return this.flat.indexOf(search, start);
    for (let piece = this.pieceAt(start); piece < this.pieces.length; piece++) {
      const base = this.starts[piece];
      const found = this.pieces[piece].indexOf(search, Math.max(0, start - base));
      if (found !== -1) return base + found;
      // A match that starts in this piece and ends in a later one.
      if (search.length > 1 && piece + 1 < this.pieces.length) {
        const edge = Math.max(start, this.starts[piece + 1] - search.length + 1);
        const across = this.slice(edge, this.starts[piece + 1] + search.length - 1).indexOf(search);
        if (across !== -1) return edge + across;
      }
    }
    return -1;
  }

  lastIndexOf(search: string, from = Infinity): number {
    const start = Math.max(0, Math.min(Number.isNaN(from) ? Infinity : Math.trunc(from), this.length));
    if (search === '') return start;
    if (this.flat !== undefined) return this.flat.lastIndexOf(search, start);
    for (let piece = this.pieceAt(Math.min(start, this.length - 1)); piece >= 0; piece--) {
      const base = this.starts[piece];
      // A match that starts in this piece and ends in a later one.
      if (search.length > 1 && piece + 1 < this.pieces.length) {
        const end = this.starts[piece + 1];
        const edge = Math.max(base, end - search.length + 1);
        const across = this.slice(edge, Math.min(this.length, end + search.length - 1)).lastIndexOf(
          search,
          start - edge,
        );
        if (across !== -1 && edge + across <= start) return edge + across;
      }
      const found = this.pieces[piece].lastIndexOf(search, start - base);
      if (found !== -1) return base + found;
    }
    return -1;
  }

  startsWith(search: string, at = 0): boolean {
    const start = Math.max(0, Math.min(Math.trunc(at) || 0, this.length));
    return this.slice(start, start + search.length) === search;
  }

  includes(search: string, from = 0): boolean {
    return this.indexOf(search, from) !== -1;
  }

  /** Whether no piece holds a lone surrogate (pieces never part a pair: see split). */
  isWellFormed(): boolean {
    return this.pieces.every((piece) => (piece as unknown as { isWellFormed(): boolean }).isWellFormed());
  }

  toString(): string {
    this.flat ??= this.pieces.join('');
    return this.flat;
  }
}

function clampIndex(index: number, length: number): number {
  const whole = Math.trunc(index) || 0;
  return whole < 0 ? Math.max(0, length + whole) : Math.min(whole, length);
}

/**
 * `text` cut, when over twice `size`, into pieces of about `size` units, as even as can be; a cut never parts a
 * surrogate pair.
 */
function split(text: string, size: number): string[] {
  if (text.length <= 2 * size) return text === '' ? [] : [text];
  const pieces: string[] = [];
  for (let at = 0, left = Math.ceil(text.length / size); at < text.length; left--) {
    // What is left, shared among the pieces left.
    let end = left <= 1 ? text.length : at + Math.max(1, Math.round((text.length - at) / left));
    const code = text.charCodeAt(end - 1);
    // A cut after a high surrogate moves back before it (what is left is shared again), or on past its pair when that
    // would leave nothing.
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end += end - 1 > at ? -1 : 1;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}
