import { RESERVED_WORDS } from './predicate';

/**
 * What may come next in a predicate being typed, read from the text before
 * the cursor only (the rest may not exist yet, and the whole need not parse):
 *
 * - `path`: a path, after `base.` when dotting into a model (`impact.sev|`);
 * - `value`: a value compared with `path` (after `=`, `!=`, … or inside `in [`);
 * - `operator`: after a complete path (`budget |`): a comparison or a connective;
 * - `connective`: after a complete condition (`budget=low |`): `and`, `or`.
 *
 * `partial` is the word being typed, which a completion replaces.
 */
export type PredicateCursor =
  | { kind: 'path'; base: string[]; partial: string }
  | { kind: 'value'; path: string[]; partial: string; quote?: string }
  | { kind: 'operator'; path: string[] }
  | { kind: 'connective' };

interface Token {
  type: 'word' | 'value' | 'op' | '[' | ']' | '(' | ')' | ',';
  text: string;
}

const WORD = /[A-Za-z_][A-Za-z0-9_.:/@-]*/y;
const NUMBER = /-?\d+(?:\.\d+)?/y;
const OPERATOR = /==|!=|<=|>=|=|<|>/y;

function tokenize(prefix: string): { tokens: Token[]; openQuote?: { quote: string; text: string } } {
  const tokens: Token[] = [];
  let at = 0;
  while (at < prefix.length) {
    const char = prefix[at];
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === '"' || char === "'") {
      const close = prefix.indexOf(char, at + 1);
      if (close === -1) return { tokens, openQuote: { quote: char, text: prefix.slice(at + 1) } };
      tokens.push({ type: 'value', text: prefix.slice(at, close + 1) });
      at = close + 1;
      continue;
    }
    if ('[](),'.includes(char)) {
      tokens.push({ type: char as Token['type'], text: char });
      at++;
      continue;
    }
    for (const [pattern, type] of [
      [OPERATOR, 'op'],
      [NUMBER, 'value'],
      [WORD, 'word'],
    ] as const) {
      pattern.lastIndex = at;
      const match = pattern.exec(prefix);
      if (match) {
        tokens.push({ type, text: match[0] });
        at += match[0].length;
        break;
      }
      if (type === 'word') at++; // a character no token starts with: skip it
    }
  }
  return { tokens };
}

/** The path an operator or `in [` compares: the word just before it. */
function pathBefore(tokens: Token[], index: number): string[] | undefined {
  const token = tokens[index];
  return token?.type === 'word' && !RESERVED_WORDS.has(token.text) ? token.text.split('.') : undefined;
}

export function predicateCursor(prefix: string): PredicateCursor {
  const { tokens, openQuote } = tokenize(prefix);
  const endsInWord = !openQuote && /[A-Za-z0-9_.:/@-]$/.test(prefix);
  const partial = openQuote ? openQuote.text : endsInWord ? tokens.pop()!.text : '';
  const last = tokens[tokens.length - 1];

  // Inside `path in [a, b, |`: a value of that path.
  let depth = 0;
  for (let i = tokens.length - 1; i >= 0; i--) {
    if (tokens[i].type === ']') depth++;
    else if (tokens[i].type === '[') {
      if (depth === 0) {
        const path = tokens[i - 1]?.text === 'in' ? pathBefore(tokens, i - 2) : undefined;
        if (path && (last.type === '[' || last.type === ','))
          return { kind: 'value', path, partial, ...(openQuote ? { quote: openQuote.quote } : {}) };
        break;
      }
      depth--;
    }
  }
  if (last?.type === 'op') {
    const path = pathBefore(tokens, tokens.length - 2);
    if (path) return { kind: 'value', path, partial, ...(openQuote ? { quote: openQuote.quote } : {}) };
  }
  if (!partial && last) {
    if (last.type === 'word' && !RESERVED_WORDS.has(last.text)) {
      // `budget |` compares next; `stage=research |` (a value) joins next.
      return tokens[tokens.length - 2]?.type === 'op'
        ? { kind: 'connective' }
        : { kind: 'operator', path: last.text.split('.') };
    }
    if (
      last.type === 'value' ||
      last.type === ']' ||
      last.type === ')' ||
      (last.type === 'word' && ['true', 'false', 'null'].includes(last.text))
    )
      return { kind: 'connective' };
  }
  const segments = partial.split('.');
  return { kind: 'path', base: segments.slice(0, -1), partial: segments[segments.length - 1] };
}
