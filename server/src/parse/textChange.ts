/**
 * Where a new version of a text differs from the last: what an edit left
 * alone at the start and at the end. The language server works this out on
 * every keystroke (a procedure's YAML, flow.py) to reparse only the rest.
 */

/** Characters compared at a time: string equality on slices runs natively, far faster than a loop over characters. */
const BLOCK = 512;

/** How many characters `a` and `b` share at the start. */
export function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at + BLOCK <= limit && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** How many characters `a` and `b` share at the end, at most `limit`. */
export function commonSuffix(a: string, b: string, limit: number): number {
  let at = 0;
  while (at + BLOCK <= limit && a.slice(a.length - at - BLOCK, a.length - at) === b.slice(b.length - at - BLOCK, b.length - at)) at += BLOCK;
  while (at < limit && a.charCodeAt(a.length - at - 1) === b.charCodeAt(b.length - at - 1)) at++;
  return at;
}
