/**
 * Where the cursor is inside a Jinja template or expression, read from the text before it: what completion should
 * offer.
 */

/** What is being typed at `offset` inside a template or expression, for completion. */
export type JinjaCompletionContext =
  | { kind: 'member'; root: 'outputs' | 'inputs'; prefix: string; quoted: boolean }
  | { kind: 'collected'; prefix: string; quoted: boolean }
  | { kind: 'filter'; prefix: string }
  | { kind: 'root'; prefix: string };

/** The completion context at `offset` of a template (or, with `expression`, a bare expression). */
export function completionContextAt(
  text: string,
  offset: number,
  expression: boolean,
): JinjaCompletionContext | undefined {
  let start = 0;
  if (!expression) {
    const open = Math.max(text.lastIndexOf('{{', offset - 1), text.lastIndexOf('{%', offset - 1));
    if (open === -1) return undefined;
    const closeBefore = Math.max(text.lastIndexOf('}}', offset - 1), text.lastIndexOf('%}', offset - 1));
    if (closeBefore > open) return undefined;
    start = open + 2;
  }
  const before = text.slice(start, offset);
  let match =
    /(?:^|[^\w.])inputs\s*(?:\.\s*collected|\[\s*['"]collected['"]\s*\]|\.get\(\s*['"]collected['"][^)]*\))\s*(?:\.\s*(\w*)|\[\s*(['"])(\w*)|\.get\(\s*(['"])(\w*))$/.exec(
      before,
    );
  if (match)
    return { kind: 'collected', prefix: match[1] ?? match[3] ?? match[5] ?? '', quoted: match[1] === undefined };
  match = /(?:^|[^\w.])(outputs|inputs)\s*(?:\.\s*(\w*)|\[\s*(['"])(\w*)|\.get\(\s*(['"])(\w*))$/.exec(before);
  if (match)
    return {
      kind: 'member',
      root: match[1] as 'outputs' | 'inputs',
      prefix: match[2] ?? match[4] ?? match[6] ?? '',
      quoted: match[2] === undefined,
    };
  match = /\|\s*(\w*)$/.exec(before);
  if (match) return { kind: 'filter', prefix: match[1] };
  match = /(?:^|[^\w.'"])(\w*)$/.exec(before);
  if (match) return { kind: 'root', prefix: match[1] };
  return undefined;
}
