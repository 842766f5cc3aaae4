/**
 * `text` as a string of its own. V8 makes a slice of a long string a view
 * that keeps the whole string alive: a chunk sliced from one version of a
 * 500 KB document, kept while later versions are typed, would keep that
 * version too, one per chunk edited. Joining a character first makes V8
 * copy the text into a new string the size of the slice, which the slice
 * then points into instead.
 */
export function unsharedCopy(text: string): string {
  return ` ${text}`.slice(1);
}
