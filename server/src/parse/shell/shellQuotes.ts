// What the shell's quotes and backslashes leave of a text.

/** Literal text as the shell reads it: its escapes removed (in double quotes, only those of `\ " $ \``). */
export function literal(text: string, inQuotes: boolean): string {
  if (!text.includes('\\')) return text;
  return inQuotes ? text.replace(/\\([\\"$`])|\\\n/g, '$1') : text.replace(/\\(.)/gs, '$1');
}

/**
 * A double-quoted string's text as the shell hands it on (`\"` is `"`), and where each of its characters was
 * written: a string given to a shell to run is read at its place.
 */
export function doubleQuoted(written: string): { text: string; places: number[] } {
  let text = '';
  const places: number[] = [];
  for (let at = 0; at < written.length; at++) {
    if (written[at] === '\\' && /[\\"$`]/.test(written[at + 1] ?? '')) at++;
    text += written[at];
    places.push(at);
  }
  places.push(written.length);
  return { text, places };
}
