/**
 * The `when` predicates of skill+ 0.1 (tips, rules, loop `until`):
 *
 *   expr := or;  or := and {"or" and};  and := not {"and" not}
 *   not  := "not" not | atom
 *   atom := "(" expr ")" | path op value | path "in" "[" value {"," value} "]" | path
 *   op   := = | == | != | < | <= | > | >=;  path := ident {"." ident}
 *   value := number | true | false | null | "quoted" | 'quoted' | bareword
 *
 * Parsed with offsets into the predicate text (callers map them to the
 * file), never evaluated here. Bad input gives problems, never a throw.
 */

export interface PathRef {
  segments: { name: string; start: number; end: number }[];
  start: number;
  end: number;
}

export interface ValueRef {
  kind: 'number' | 'bool' | 'null' | 'string';
  value: number | boolean | null | string;
  /** A string written without quotes (`stage=deep-dive`). */
  bare: boolean;
  start: number;
  end: number;
}

export type Comparison = '=' | '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Predicate =
  | { kind: 'or' | 'and'; items: Predicate[]; start: number; end: number }
  | { kind: 'not'; operand: Predicate; start: number; end: number }
  | { kind: 'compare'; path: PathRef; op: Comparison; value: ValueRef; start: number; end: number }
  | { kind: 'in'; path: PathRef; values: ValueRef[]; start: number; end: number }
  | { kind: 'truthy'; path: PathRef; start: number; end: number };

export interface PredicateProblem {
  message: string;
  start: number;
  end: number;
}

export interface PredicateRead {
  predicate?: Predicate;
  problems: PredicateProblem[];
}

export const RESERVED_WORDS = new Set(['and', 'or', 'not', 'in', 'true', 'false', 'null']);
const COMPARISONS: Comparison[] = ['==', '!=', '<=', '>=', '=', '<', '>'];

interface Token {
  type: 'word' | 'number' | 'string' | 'op' | 'punct' | 'end';
  text: string;
  value?: string;
  start: number;
  end: number;
}

function tokenize(text: string, problems: PredicateProblem[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    if (char === '(' || char === ')' || char === '[' || char === ']' || char === ',') {
      tokens.push({ type: 'punct', text: char, start: i, end: i + 1 });
      i++;
      continue;
    }
    const op = COMPARISONS.find((candidate) => text.startsWith(candidate, i));
    if (op) {
      tokens.push({ type: 'op', text: op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    if (char === '"' || char === "'") {
      let end = i + 1;
      let value = '';
      while (end < text.length && text[end] !== char) {
        if (text[end] === '\\' && end + 1 < text.length) end++;
        value += text[end++];
      }
      if (end >= text.length) {
        problems.push({ message: `The string opened here is never closed with ${char}.`, start: i, end: text.length });
        tokens.push({ type: 'string', text: text.slice(i), value, start: i, end: text.length });
        i = text.length;
        continue;
      }
      tokens.push({ type: 'string', text: text.slice(i, end + 1), value, start: i, end: end + 1 });
      i = end + 1;
      continue;
    }
    const number = /^-?\d+(?:\.\d+)?(?![A-Za-z_.:/@-])/.exec(text.slice(i));
    if (number) {
      tokens.push({ type: 'number', text: number[0], start: i, end: i + number[0].length });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.:/@-]*/.exec(text.slice(i));
    if (word) {
      tokens.push({ type: 'word', text: word[0], start: i, end: i + word[0].length });
      i += word[0].length;
      continue;
    }
    problems.push({ message: `Unexpected character ${JSON.stringify(char)}.`, start: i, end: i + 1 });
    i++;
  }
  tokens.push({ type: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}

/** Parses one predicate. */
export function parsePredicate(text: string): PredicateRead {
  const problems: PredicateProblem[] = [];
  const tokens = tokenize(text, problems);
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];
  const isWord = (word: string) => peek().type === 'word' && peek().text === word;
  // Deeply nested parentheses (a 10,000-character predicate) stop here instead of overflowing the stack.
  let depth = 0;

  const fail = (message: string, token: Token): undefined => {
    problems.push({ message, start: token.start, end: Math.max(token.end, token.start + 1) });
    return undefined;
  };

  const path = (): PathRef | undefined => {
    const token = peek();
    if (token.type !== 'word' || RESERVED_WORDS.has(token.text)) {
      return fail(
        token.type === 'end'
          ? 'The predicate ends where a name was expected.'
          : `Expected a name (a State field or stage, node, round, event, tool, item), found ${JSON.stringify(token.text)}.`,
        token,
      );
    }
    take();
    const segments: PathRef['segments'] = [];
    let offset = token.start;
    for (const part of token.text.split('.')) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(part))
        return fail(`"${token.text}" is not a name: a path is names joined by dots.`, token);
      segments.push({ name: part, start: offset, end: offset + part.length });
      offset += part.length + 1;
    }
    return { segments, start: token.start, end: token.end };
  };

  const value = (): ValueRef | undefined => {
    const token = take();
    if (token.type === 'number')
      return { kind: 'number', value: Number(token.text), bare: false, start: token.start, end: token.end };
    if (token.type === 'string')
      return { kind: 'string', value: token.value!, bare: false, start: token.start, end: token.end };
    if (token.type === 'word') {
      if (token.text === 'true' || token.text === 'false')
        return { kind: 'bool', value: token.text === 'true', bare: false, start: token.start, end: token.end };
      if (token.text === 'null') return { kind: 'null', value: null, bare: false, start: token.start, end: token.end };
      if (RESERVED_WORDS.has(token.text))
        return fail(`"${token.text}" is a reserved word: quote it to compare with that text.`, token);
      return { kind: 'string', value: token.text, bare: true, start: token.start, end: token.end };
    }
    return fail(
      token.type === 'end'
        ? 'The predicate ends where a value was expected.'
        : `Expected a value, found ${JSON.stringify(token.text)}.`,
      token,
    );
  };

  const atom = (): Predicate | undefined => {
    const token = peek();
    if (token.type === 'punct' && token.text === '(') {
      take();
      if (++depth > 64) return fail('Parentheses nest too deeply.', token);
      const inner = or();
      depth--;
      if (!inner) return undefined;
      const close = take();
      if (close.type !== 'punct' || close.text !== ')') return fail('`(` is never closed with `)`.', token);
      return { ...inner, start: token.start, end: close.end };
    }
    const left = path();
    if (!left) return undefined;
    const next = peek();
    if (next.type === 'op') {
      take();
      const right = value();
      return right
        ? { kind: 'compare', path: left, op: next.text as Comparison, value: right, start: left.start, end: right.end }
        : undefined;
    }
    if (isWord('in')) {
      take();
      const open = take();
      if (open.type !== 'punct' || open.text !== '[')
        return fail('`in` takes a list: `stage in [survey, write]`.', open);
      const values: ValueRef[] = [];
      for (;;) {
        const item = value();
        if (!item) return undefined;
        values.push(item);
        const separator = take();
        if (separator.type === 'punct' && separator.text === ']')
          return { kind: 'in', path: left, values, start: left.start, end: separator.end };
        if (separator.type !== 'punct' || separator.text !== ',')
          return fail('Expected `,` or `]` in the list.', separator);
      }
    }
    return { kind: 'truthy', path: left, start: left.start, end: left.end };
  };

  const not = (): Predicate | undefined => {
    if (isWord('not')) {
      const token = take();
      if (++depth > 64) return fail('`not` nests too deeply.', token);
      const operand = not();
      depth--;
      return operand ? { kind: 'not', operand, start: token.start, end: operand.end } : undefined;
    }
    return atom();
  };

  const chain = (word: 'and' | 'or', next: () => Predicate | undefined): Predicate | undefined => {
    const first = next();
    if (!first) return undefined;
    const items = [first];
    while (isWord(word)) {
      take();
      const item = next();
      if (!item) return undefined;
      items.push(item);
    }
    return items.length === 1 ? first : { kind: word, items, start: first.start, end: items[items.length - 1].end };
  };

  const and = () => chain('and', not);
  const or = (): Predicate | undefined => chain('or', and);

  if (text.trim() === '') return { problems: [{ message: 'The predicate is empty.', start: 0, end: text.length }] };
  const predicate = problems.length === 0 ? or() : undefined;
  if (predicate && peek().type !== 'end') {
    fail(`Unexpected ${JSON.stringify(peek().text)}: join conditions with \`and\` or \`or\`.`, peek());
    return { problems };
  }
  return predicate ? { predicate, problems } : { problems };
}

export type PredicateAtom = Extract<Predicate, { path: PathRef }>;

/** Every comparison, membership and bare path of a predicate, in order. */
export function predicateAtoms(predicate: Predicate): PredicateAtom[] {
  switch (predicate.kind) {
    case 'or':
    case 'and':
      return predicate.items.flatMap(predicateAtoms);
    case 'not':
      return predicateAtoms(predicate.operand);
    default:
      return [predicate];
  }
}

/** Every path a predicate reads, in order. */
export function predicatePaths(predicate: Predicate): PathRef[] {
  return predicateAtoms(predicate).map((atom) => atom.path);
}
