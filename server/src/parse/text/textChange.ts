/**
 * Where a new version of a text differs from the last: what an edit left
 * alone at the start and at the end. The language server works this out on
 * every keystroke (a procedure's YAML, flow.py, a document's line index) to
 * redo only the rest.
 */

import { sharedPieces, type TextLike } from './textLike';

/**
 * The smallest run of characters compared at once: string equality on slices runs natively, far faster than a loop over
 * characters.
 */
const BLOCK = 512;
/** The largest: a slice of a PieceText across pieces is a copy, and one over 128 KB a large object (see PieceText). */
const MAX_BLOCK = 32 * 1024;

/** What `old` and `text` share: `before` characters at the start and, after those, `after` characters at the end. */
export function changedRegion(old: TextLike, text: TextLike): { before: number; after: number } {
  const before = commonLength(old, text, Math.min(old.length, text.length), false);
  const after = commonLength(old, text, Math.min(old.length, text.length) - before, true);
  return { before, after };
}

/**
 * How many characters `a` and `b` share, at most `limit`, counting from
 * their start or from their end. Blocks double while they match and halve
 * when one does not: a 500 KB document edited in the middle costs a few
 * dozen comparisons, not a thousand.
 */
function commonLength(a: TextLike, b: TextLike, limit: number, fromEnd: boolean): number {
  // `size` characters, `at` characters in from the chosen end.
  const piece = (text: TextLike, at: number, size: number) =>
    fromEnd ? text.slice(text.length - at - size, text.length - at) : text.slice(at, at + size);
  // Two versions of an editor's text share all but the pieces an edit touched.
  let at = sharedPieces(a, b, limit, fromEnd);
  for (let size = BLOCK; size >= BLOCK;) {
    if (at + size <= limit && piece(a, at, size) === piece(b, at, size)) {
      at += size;
      size = Math.min(size * 2, MAX_BLOCK);
    } else {
      size /= 2;
    }
  }
  const code = (text: TextLike, at: number) => text.charCodeAt(fromEnd ? text.length - at - 1 : at);
  while (at < limit && code(a, at) === code(b, at)) at++;
  return at;
}
