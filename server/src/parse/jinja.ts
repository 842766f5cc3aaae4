/**
 * Reads Jinja templates and expressions for what they refer to, without
 * evaluating anything: variable references (`outputs.x`, `outputs['x']`,
 * `outputs.get('x')`, `inputs.y`), filters with their argument counts, and
 * syntax problems. Offsets are indexes into the text given; callers map
 * them back to the document.
 */

export interface JinjaRef {
  root: 'outputs' | 'inputs';
  /** The attribute or key read from the root (`x` in `outputs.x`, `outputs['x']`, `outputs.get('x')`). */
  name: string;
  /** Where the name is written (inside the quotes for index and `get` forms). */
  nameStart: number;
  nameEnd: number;
  /** The whole reference, from the root to the end of the name's accessor. */
  start: number;
  end: number;
  /** How it is read: `outputs.x`, `outputs['x']` or `outputs.get('x', default)` (which never fails). */
  access: 'attribute' | 'index' | 'get';
  /** A second level (`inputs.collected.<step>`), when written. */
  member?: { name: string; start: number; end: number };
}

export interface JinjaFilter {
  name: string;
  start: number;
  end: number;
  /** Arguments in parentheses; 0 when written without them. */
  args: number;
}

export interface JinjaProblem {
  code: 'template_syntax' | 'template_in_expression';
  message: string;
  start: number;
  end: number;
}

/** A `{{ … }}`, `{% … %}` or bare expression: where its expression text lies. */
export interface JinjaSegment {
  kind: 'output' | 'statement' | 'expression';
  start: number;
  end: number;
  innerStart: number;
  innerEnd: number;
}

export interface JinjaRead {
  refs: JinjaRef[];
  filters: JinjaFilter[];
  problems: JinjaProblem[];
  segments: JinjaSegment[];
}

interface Token {
  type: 'name' | 'string' | 'number' | 'op';
  value: string;
  start: number;
  end: number;
}

const OPERATORS = ['**', '//', '==', '!=', '<=', '>=', '(', ')', '[', ']', '{', '}', ',', ':', '.', '|', '~', '+', '-', '*', '/', '%', '<', '>', '=', '!'];
const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

function lex(text: string, from: number, to: number, problems: JinjaProblem[]): Token[] {
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
        problems.push({ code: 'template_syntax', message: `The string opened here is never closed with ${char}.`, start: i, end: to });
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
    problems.push({ code: 'template_syntax', message: `Unexpected character ${JSON.stringify(char)} in a Jinja expression.`, start: i, end: i + 1 });
    i++;
  }
  return tokens;
}

/** References, filters and bracket balance of one expression's tokens. */
function readTokens(tokens: Token[], read: JinjaRead): void {
  const stack: Token[] = [];
  for (const token of tokens) {
    if (token.type !== 'op') continue;
    if (token.value in CLOSING) stack.push(token);
    else if (token.value === ')' || token.value === ']' || token.value === '}') {
      const open = stack.pop();
      if (!open || CLOSING[open.value] !== token.value) {
        read.problems.push({ code: 'template_syntax', message: `\`${token.value}\` closes nothing that was opened.`, start: token.start, end: token.end });
        if (open) stack.push(open);
      }
    }
  }
  for (const open of stack) read.problems.push({ code: 'template_syntax', message: `\`${open.value}\` is never closed with \`${CLOSING[open.value]}\`.`, start: open.start, end: open.end });

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'op' && token.value === '|') {
      const name = tokens[i + 1];
      if (!name || name.type !== 'name') {
        read.problems.push({ code: 'template_syntax', message: 'A filter name must follow `|`.', start: token.start, end: token.end });
        continue;
      }
      read.filters.push({ name: name.value, start: name.start, end: name.end, args: tokens[i + 2]?.value === '(' ? countArguments(tokens, i + 2) : 0 });
      continue;
    }
    if (token.type !== 'name' || (token.value !== 'outputs' && token.value !== 'inputs')) continue;
    if (tokens[i - 1]?.value === '.') continue; // an attribute named like a root, not the root itself
    const ref = accessAt(tokens, i + 1);
    if (!ref) continue;
    const found: JinjaRef = { root: token.value, access: ref.access, name: ref.name.value, nameStart: ref.name.start + (ref.name.type === 'string' ? 1 : 0), nameEnd: ref.name.end - (ref.name.type === 'string' ? 1 : 0), start: token.start, end: ref.end };
    const member = accessAt(tokens, ref.next);
    if (member) found.member = { name: member.name.value, start: member.name.start + (member.name.type === 'string' ? 1 : 0), end: member.name.end - (member.name.type === 'string' ? 1 : 0) };
    read.refs.push(found);
  }
}

/** `.name`, `['name']` or `.get('name'` at token `i`: the name token, where the accessor ends and the next token. */
function accessAt(tokens: Token[], i: number): { name: Token; end: number; next: number; access: JinjaRef['access'] } | undefined {
  const first = tokens[i];
  if (first?.value === '.' && tokens[i + 1]?.type === 'name') {
    const name = tokens[i + 1];
    if (name.value === 'get' && tokens[i + 2]?.value === '(' && tokens[i + 3]?.type === 'string') {
      const closing = tokens.findIndex((token, index) => index > i + 3 && token.value === ')');
      return { name: tokens[i + 3], end: tokens[i + 3].end, next: closing === -1 ? tokens.length : closing + 1, access: 'get' };
    }
    return { name, end: name.end, next: i + 2, access: 'attribute' };
  }
  if (first?.value === '[' && tokens[i + 1]?.type === 'string' && tokens[i + 2]?.value === ']') return { name: tokens[i + 1], end: tokens[i + 2].end, next: i + 3, access: 'index' };
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

function readExpressionInto(text: string, from: number, to: number, read: JinjaRead): void {
  const tokens = lex(text, from, to, read.problems);
  readTokens(tokens, read);
}

function emptyRead(): JinjaRead {
  return { refs: [], filters: [], problems: [], segments: [] };
}

/** A bare expression (`when`, `route[].when`, `skip_if`): no `{{ }}` may appear in it. */
export function readExpression(text: string): JinjaRead {
  const read = emptyRead();
  read.segments.push({ kind: 'expression', start: 0, end: text.length, innerStart: 0, innerEnd: text.length });
  const moustache = /\{\{|\{%/.exec(text);
  if (moustache) {
    const close = text.indexOf(moustache[0] === '{{' ? '}}' : '%}', moustache.index);
    read.problems.push({
      code: 'template_in_expression',
      message: 'This is a Jinja expression, evaluated as it is: `{{ }}` and `{% %}` do not belong in it (write `outputs.x == \'y\'`, not `{{ outputs.x }} == \'y\'`).',
      start: moustache.index,
      end: close === -1 ? moustache.index + 2 : close + 2,
    });
  }
  if (text.trim() === '') read.problems.push({ code: 'template_syntax', message: 'The expression is empty.', start: 0, end: text.length });
  readExpressionInto(text, 0, text.length, read);
  return read;
}

const BLOCK_TAGS = new Set(['if', 'for', 'macro', 'call', 'filter', 'with', 'block', 'autoescape']);

/**
 * A template: text with `{{ expression }}`, `{% statement %}` and
 * `{# comment #}`. Reports delimiters that never close and block tags
 * (`if`, `for`, …) without their `end…`.
 */
export function readTemplate(text: string): JinjaRead {
  const read = emptyRead();
  const blocks: { tag: string; start: number; end: number }[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open === -1 || open + 1 >= text.length) break;
    const marker = text[open + 1];
    if (marker !== '{' && marker !== '%' && marker !== '#') {
      i = open + 1;
      continue;
    }
    const closer = marker === '{' ? '}}' : marker === '%' ? '%}' : '#}';
    const close = marker === '#' ? text.indexOf(closer, open + 2) : closingDelimiter(text, open + 2, closer);
    if (close === -1) {
      const name = marker === '{' ? '{{' : marker === '%' ? '{%' : '{#';
      read.problems.push({ code: 'template_syntax', message: `\`${name}\` is never closed with \`${closer}\`; the whole template fails to render.`, start: open, end: open + 2 });
      break;
    }
    if (marker !== '#') {
      // Whitespace control (`{{-`, `-}}`, `{%+`) belongs to the delimiters.
      const innerStart = open + 2 + (/[-+]/.test(text[open + 2] ?? '') ? 1 : 0);
      const innerEnd = close - (close > innerStart && /[-+]/.test(text[close - 1]) ? 1 : 0);
      const segment: JinjaSegment = { kind: marker === '{' ? 'output' : 'statement', start: open, end: close + 2, innerStart, innerEnd };
      read.segments.push(segment);
      if (marker === '{') {
        if (text.slice(innerStart, innerEnd).trim() === '') read.problems.push({ code: 'template_syntax', message: 'Empty `{{ }}`: put an expression inside.', start: open, end: close + 2 });
        readExpressionInto(text, innerStart, innerEnd, read);
      } else {
        const statement = /^\s*([A-Za-z_]+)/.exec(text.slice(innerStart, innerEnd));
        const tag = statement?.[1] ?? '';
        if (tag === 'raw') {
          const end = /\{%[-+]?\s*endraw\s*[-+]?%\}/g;
          end.lastIndex = close + 2;
          const found = end.exec(text);
          if (!found) {
            read.problems.push({ code: 'template_syntax', message: '`{% raw %}` is never closed with `{% endraw %}`.', start: open, end: close + 2 });
            break;
          }
          i = found.index + found[0].length;
          continue;
        }
        if (BLOCK_TAGS.has(tag) || (tag === 'set' && !/=/.test(text.slice(innerStart, innerEnd)))) blocks.push({ tag, start: open, end: close + 2 });
        else if (tag.startsWith('end')) {
          const opened = blocks.pop();
          if (!opened || `end${opened.tag}` !== tag) {
            read.problems.push({ code: 'template_syntax', message: opened ? `\`{% ${tag} %}\` closes \`{% ${opened.tag} %}\`, which needs \`{% end${opened.tag} %}\`.` : `\`{% ${tag} %}\` closes no block.`, start: open, end: close + 2 });
          }
        }
        const expressionStart = statement ? innerStart + statement.index + statement[0].length : innerStart;
        readExpressionInto(text, expressionStart, innerEnd, read);
      }
    }
    i = close + 2;
  }
  for (const opened of blocks) read.problems.push({ code: 'template_syntax', message: `\`{% ${opened.tag} %}\` is never closed with \`{% end${opened.tag} %}\`.`, start: opened.start, end: opened.end });
  return read;
}

/** The index of `closer` after `from`, skipping over quoted strings; -1 when it never comes. */
function closingDelimiter(text: string, from: number, closer: string): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (text.startsWith(closer, i)) return i;
  }
  // An unclosed quote may be the real mistake: look again ignoring quotes before giving up.
  return quote ? text.indexOf(closer, from) : -1;
}

/** What is being typed at `offset` inside a template or expression, for completion. */
export type JinjaCompletionContext =
  | { kind: 'member'; root: 'outputs' | 'inputs'; prefix: string; quoted: boolean }
  | { kind: 'collected'; prefix: string; quoted: boolean }
  | { kind: 'filter'; prefix: string }
  | { kind: 'root'; prefix: string };

/** The completion context at `offset` of a template (or, with `expression`, a bare expression). */
export function completionContextAt(text: string, offset: number, expression: boolean): JinjaCompletionContext | undefined {
  let start = 0;
  if (!expression) {
    const open = Math.max(text.lastIndexOf('{{', offset - 1), text.lastIndexOf('{%', offset - 1));
    if (open === -1) return undefined;
    const closeBefore = Math.max(text.lastIndexOf('}}', offset - 1), text.lastIndexOf('%}', offset - 1));
    if (closeBefore > open) return undefined;
    start = open + 2;
  }
  const before = text.slice(start, offset);
  let match = /(?:^|[^\w.])inputs\s*(?:\.\s*collected|\[\s*['"]collected['"]\s*\]|\.get\(\s*['"]collected['"][^)]*\))\s*(?:\.\s*(\w*)|\[\s*(['"])(\w*)|\.get\(\s*(['"])(\w*))$/.exec(before);
  if (match) return { kind: 'collected', prefix: match[1] ?? match[3] ?? match[5] ?? '', quoted: match[1] === undefined };
  match = /(?:^|[^\w.])(outputs|inputs)\s*(?:\.\s*(\w*)|\[\s*(['"])(\w*)|\.get\(\s*(['"])(\w*))$/.exec(before);
  if (match) return { kind: 'member', root: match[1] as 'outputs' | 'inputs', prefix: match[2] ?? match[4] ?? match[6] ?? '', quoted: match[2] === undefined };
  match = /\|\s*(\w*)$/.exec(before);
  if (match) return { kind: 'filter', prefix: match[1] };
  match = /(?:^|[^\w.'"])(\w*)$/.exec(before);
  if (match) return { kind: 'root', prefix: match[1] };
  return undefined;
}
