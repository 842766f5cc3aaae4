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
  kind: 'syntax' | 'template-in-expression';
  message: string;
  start: number;
  end: number;
}

import { lex, readTokens } from './jinjaTokens';

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
      kind: 'template-in-expression',
      message:
        "This is a Jinja expression, evaluated as it is: `{{ }}` and `{% %}` do not belong in it (write `outputs.x == 'y'`, not `{{ outputs.x }} == 'y'`).",
      start: moustache.index,
      end: close === -1 ? moustache.index + 2 : close + 2,
    });
  }
  if (text.trim() === '')
    read.problems.push({ kind: 'syntax', message: 'The expression is empty.', start: 0, end: text.length });
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
      read.problems.push({
        kind: 'syntax',
        message: `\`${name}\` is never closed with \`${closer}\`; the whole template fails to render.`,
        start: open,
        end: open + 2,
      });
      break;
    }
    if (marker !== '#') {
      // Whitespace control (`{{-`, `-}}`, `{%+`) belongs to the delimiters.
      const innerStart = open + 2 + (/[-+]/.test(text[open + 2] ?? '') ? 1 : 0);
      const innerEnd = close - (close > innerStart && /[-+]/.test(text[close - 1]) ? 1 : 0);
      const segment: JinjaSegment = {
        kind: marker === '{' ? 'output' : 'statement',
        start: open,
        end: close + 2,
        innerStart,
        innerEnd,
      };
      read.segments.push(segment);
      if (marker === '{') {
        if (text.slice(innerStart, innerEnd).trim() === '')
          read.problems.push({
            kind: 'syntax',
            message: 'Empty `{{ }}`: put an expression inside.',
            start: open,
            end: close + 2,
          });
        readExpressionInto(text, innerStart, innerEnd, read);
      } else {
        const statement = /^\s*([A-Za-z_]+)/.exec(text.slice(innerStart, innerEnd));
        const tag = statement?.[1] ?? '';
        if (tag === 'raw') {
          const end = /\{%[-+]?\s*endraw\s*[-+]?%\}/g;
          end.lastIndex = close + 2;
          const found = end.exec(text);
          if (!found) {
            read.problems.push({
              kind: 'syntax',
              message: '`{% raw %}` is never closed with `{% endraw %}`.',
              start: open,
              end: close + 2,
            });
            break;
          }
          i = found.index + found[0].length;
          continue;
        }
        if (BLOCK_TAGS.has(tag) || (tag === 'set' && !/=/.test(text.slice(innerStart, innerEnd))))
          blocks.push({ tag, start: open, end: close + 2 });
        else if (tag.startsWith('end')) {
          const opened = blocks.pop();
          if (!opened || `end${opened.tag}` !== tag) {
            read.problems.push({
              kind: 'syntax',
              message: opened
                ? `\`{% ${tag} %}\` closes \`{% ${opened.tag} %}\`, which needs \`{% end${opened.tag} %}\`.`
                : `\`{% ${tag} %}\` closes no block.`,
              start: open,
              end: close + 2,
            });
          }
        }
        const expressionStart = statement ? innerStart + statement.index + statement[0].length : innerStart;
        readExpressionInto(text, expressionStart, innerEnd, read);
      }
    }
    i = close + 2;
  }
  for (const opened of blocks)
    read.problems.push({
      kind: 'syntax',
      message: `\`{% ${opened.tag} %}\` is never closed with \`{% end${opened.tag} %}\`.`,
      start: opened.start,
      end: opened.end,
    });
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
