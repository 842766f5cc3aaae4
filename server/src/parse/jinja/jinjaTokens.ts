/**
 * The tokens of a Jinja expression and what they refer to: variable
 * references of the two roots, filters with their argument counts, and
 * brackets that do not pair. Offsets are indexes into the text given.
 */
import type { JinjaRead, JinjaRef } from './jinja';

export interface Token {
  type: 'name' | 'string' | 'number' | 'op';
  value: string;
  start: number;
  end: number;
}

const OPERATORS = [
  '**',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  '|',
  '~',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '!',
];
const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

export function lex(text: string, from: number, to: number, problems: JinjaRead['problems']): Token[] {
  const tokens: Token[] = [];
  let i = from;
  while (i < to) {
    const char = text[i];
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      let end = i + 1;
      while (end < to && /[A-Za-z0-9_]/.test(text[end])) end++;
      tokens.push({ type: 'name', value: text.slice(i, end), start: i, end });
      i = end;
      continue;
    }
    if (/[0-9]/.test(char)) {
      let end = i + 1;
      while (end < to && /[0-9._eE]/.test(text[end])) end++;
      tokens.push({ type: 'number', value: text.slice(i, end), start: i, end });
      i = end;
      continue;
    }
    if (char === '"' || char === "'") {
      let end = i + 1;
      let value = '';
      while (end < to && text[end] !== char) {
        if (text[end] === '\\' && end + 1 < to) {
          value += text[end + 1];
          end += 2;
        } else value += text[end++];
      }
      if (end >= to) {
        problems.push({
          kind: 'syntax',
          message: `The string opened here is never closed with ${char}.`,
          start: i,
          end: to,
        });
        tokens.push({ type: 'string', value, start: i, end: to });
        return tokens;
      }
      tokens.push({ type: 'string', value, start: i, end: end + 1 });
      i = end + 1;
      continue;
    }
    const operator = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (operator) {
      tokens.push({ type: 'op', value: operator, start: i, end: i + operator.length });
      i += operator.length;
      continue;
    }
    problems.push({
      kind: 'syntax',
      message: `Unexpected character ${JSON.stringify(char)} in a Jinja expression.`,
      start: i,
      end: i + 1,
    });
    i++;
  }
  return tokens;
}

/** References, filters and bracket balance of one expression's tokens. */
export function readTokens(tokens: Token[], read: JinjaRead): void {
  const stack: Token[] = [];
  for (const token of tokens) {
    if (token.type !== 'op') continue;
    if (token.value in CLOSING) stack.push(token);
    else if (token.value === ')' || token.value === ']' || token.value === '}') {
      const open = stack.pop();
      if (!open || CLOSING[open.value] !== token.value) {
        read.problems.push({
          kind: 'syntax',
          message: `\`${token.value}\` closes nothing that was opened.`,
          start: token.start,
          end: token.end,
        });
        if (open) stack.push(open);
      }
    }
  }
  for (const open of stack)
    read.problems.push({
      kind: 'syntax',
      message: `\`${open.value}\` is never closed with \`${CLOSING[open.value]}\`.`,
      start: open.start,
      end: open.end,
    });

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'op' && token.value === '|') {
      const name = tokens[i + 1];
      if (!name || name.type !== 'name') {
        read.problems.push({
          kind: 'syntax',
          message: 'A filter name must follow `|`.',
          start: token.start,
          end: token.end,
        });
        continue;
      }
      read.filters.push({
        name: name.value,
        start: name.start,
        end: name.end,
        args: tokens[i + 2]?.value === '(' ? countArguments(tokens, i + 2) : 0,
      });
      continue;
    }
    if (token.type !== 'name' || (token.value !== 'outputs' && token.value !== 'inputs')) continue;
    if (tokens[i - 1]?.value === '.') continue; // an attribute named like a root, not the root itself
    const ref = accessAt(tokens, i + 1);
    if (!ref) continue;
    const found: JinjaRef = {
      root: token.value,
      access: ref.access,
      name: ref.name.value,
      nameStart: ref.name.start + (ref.name.type === 'string' ? 1 : 0),
      nameEnd: ref.name.end - (ref.name.type === 'string' ? 1 : 0),
      start: token.start,
      end: ref.end,
    };
    const member = accessAt(tokens, ref.next);
    if (member)
      found.member = {
        name: member.name.value,
        start: member.name.start + (member.name.type === 'string' ? 1 : 0),
        end: member.name.end - (member.name.type === 'string' ? 1 : 0),
      };
    read.refs.push(found);
  }
}

/** `.name`, `['name']` or `.get('name'` at token `i`: the name token, where the accessor ends and the next token. */
function accessAt(
  tokens: Token[],
  i: number,
): { name: Token; end: number; next: number; access: JinjaRef['access'] } | undefined {
  const first = tokens[i];
  if (first?.value === '.' && tokens[i + 1]?.type === 'name') {
    const name = tokens[i + 1];
    if (name.value === 'get' && tokens[i + 2]?.value === '(' && tokens[i + 3]?.type === 'string') {
      const closing = tokens.findIndex((token, index) => index > i + 3 && token.value === ')');
      return {
        name: tokens[i + 3],
        end: tokens[i + 3].end,
        next: closing === -1 ? tokens.length : closing + 1,
        access: 'get',
      };
    }
    return { name, end: name.end, next: i + 2, access: 'attribute' };
  }
  if (first?.value === '[' && tokens[i + 1]?.type === 'string' && tokens[i + 2]?.value === ']')
    return { name: tokens[i + 1], end: tokens[i + 2].end, next: i + 3, access: 'index' };
  return undefined;
}

/** How many top-level arguments the parenthesis at `open` holds. */
function countArguments(tokens: Token[], open: number): number {
  let depth = 0;
  let count = 0;
  let sawToken = false;
  for (let i = open; i < tokens.length; i++) {
    const value = tokens[i].value;
    if (tokens[i].type === 'op' && value in CLOSING) {
      depth++;
      if (depth === 1) continue;
    } else if (tokens[i].type === 'op' && (value === ')' || value === ']' || value === '}')) {
      depth--;
      if (depth === 0) return sawToken ? count + 1 : 0;
    } else if (depth === 1 && value === ',' && tokens[i].type === 'op') {
      count++;
      continue;
    }
    if (depth >= 1) sawToken = true;
  }
  return sawToken ? count + 1 : 0;
}
