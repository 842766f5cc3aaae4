import { PieceText } from './pieceText';

/**
 * What the analysis reads a SKILL.md through. A string is one; so is a
 * PieceText, the language server's copy of an open document.
 */
export interface TextLike {
  readonly length: number;
  charCodeAt(index: number): number;
  /** Characters [start, end) as a string. Callers slice small regions: a large slice of a PieceText is a copy. */
  slice(start: number, end?: number): string;
  indexOf(search: string, from?: number): number;
  lastIndexOf(search: string, from?: number): number;
  startsWith(search: string, at?: number): boolean;
  includes(search: string, from?: number): boolean;
}

const WHITE_SPACE = /\s/;

/** Whether a UTF-16 unit is white space, as `\s` and `trim` read it. */
export function isWhiteSpace(code: number): boolean {
  // Printable ASCII is never white space; anything else is asked of the pattern.
  return !(code > 32 && code < 127) && WHITE_SPACE.test(String.fromCharCode(code));
}

/** The first offset in [from, to) holding anything but white space, or -1: a blank test that copies nothing. */
export function firstNonBlank(text: TextLike, from: number, to: number): number {
  for (let at = Math.max(0, from); at < Math.min(to, text.length); at++)
    if (!isWhiteSpace(text.charCodeAt(at))) return at;
  return -1;
}

/**
 * The text's length in UTF-8 bytes, counted piece by piece (no piece parts a surrogate pair, so the sum is the
 * whole's).
 */
export function utf8Length(text: TextLike): number {
  let bytes = 0;
  for (const piece of text instanceof PieceText ? text.pieces : [flatText(text)])
    bytes += Buffer.byteLength(piece, 'utf8');
  return bytes;
}

/** The whole text as one string (a PieceText's flat copy, made once). */
export function flatText(text: TextLike): string {
  return typeof text === 'string' ? text : text.toString();
}

/**
 * [start, end) of `text`, read as `text` is: a region of a PieceText as a PieceText (a small one is flat), of a string
 * as a string.
 */
export function textRegion(text: TextLike, start: number, end: number): TextLike {
  return text instanceof PieceText ? text.sub(start, end) : text.slice(start, end);
}

/** Whether two texts hold the same characters; PieceTexts that share pieces compare without copying them. */
export function sameText(a: TextLike, b: TextLike): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  if (typeof a === 'string' && typeof b === 'string') return false;
  const before = sharedPieces(a, b, a.length, false);
  const after = sharedPieces(a, b, a.length - before, true);
  return a.slice(before, a.length - after) === b.slice(before, b.length - after);
}

/**
 * How many units two texts share at the start (or the end) in whole pieces
 * both hold, up to `limit`: the same string objects, or equal ones in the
 * same place. An edit leaves all but a piece or two as they were.
 */
export function sharedPieces(a: TextLike, b: TextLike, limit: number, fromEnd: boolean): number {
  if (!(a instanceof PieceText) || !(b instanceof PieceText)) return 0;
  let shared = 0;
  const count = Math.min(a.pieces.length, b.pieces.length);
  for (let index = 0; index < count; index++) {
    const left = a.pieces[fromEnd ? a.pieces.length - 1 - index : index];
    const right = b.pieces[fromEnd ? b.pieces.length - 1 - index : index];
    if (left !== right || shared + left.length > limit) break;
    shared += left.length;
  }
  return shared;
}
