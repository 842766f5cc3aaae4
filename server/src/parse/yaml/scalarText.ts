import type { Span } from '../text/lineIndex';

/** A scalar's value as a program reads it, and where each of its characters stands in the file. */
export interface ScalarText {
  value: string;
  /** The file offset of each value character; one more entry for the end of the value. */
  offsets: number[];
  /**
   * False when the value could not be traced character by character (a
   * style this reader does not retrace): every offset is then the scalar's
   * start, so a position inside it is approximate but never out of bounds.
   */
  exact: boolean;
}

/** The YAML scalar styles, as the `yaml` package names them. */
export type ScalarStyle = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

interface Segment {
  char: string;
  offset: number;
  /** Unescaped blank (space or tab): trimmed at line ends when folding. */
  blank: boolean;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * Retraces how YAML turned the source of a scalar into its value: quotes
 * and escapes removed, lines folded, block indentation stripped, chomping
 * applied. `span` is the scalar's source (from its first character or
 * block header to the end of its value). The result is checked against the
 * value the parser produced; when they differ, offsets fall back to the
 * scalar's start instead of pointing somewhere wrong.
 */
export function scalarText(fileText: string, span: Span, style: ScalarStyle | undefined, parsed: string): ScalarText {
  const source = fileText.slice(span.start, span.end);
  const verbatim = verbatimLine(source, span.start, style, parsed);
  if (verbatim) return verbatim;
  let segments: Segment[] | undefined;
  if (style === 'PLAIN' || style === undefined)
    segments = foldFlow(splitLines(source, span.start, (text, base) => plainSegments(text, base)));
  else if (style === 'QUOTE_SINGLE') segments = quoted(source, span.start, "'");
  else if (style === 'QUOTE_DOUBLE') segments = quoted(source, span.start, '"');
  else segments = block(source, span.start, style === 'BLOCK_FOLDED');
  const value = segments?.map((segment) => segment.char).join('');
  if (segments && value === parsed) {
    const end = segments.length > 0 ? segments[segments.length - 1].offset + 1 : span.start;
    return {
      value: parsed,
      offsets: [...segments.map((segment) => segment.offset), Math.min(span.end, Math.max(end, span.start))],
      exact: true,
    };
  }
  return { value: parsed, offsets: new Array(parsed.length + 1).fill(span.start), exact: false };
}

/**
 * The common case, without retracing it a character at a time (a MetaSkill
 * re-reads every template of its frontmatter on each keystroke): a scalar
 * on one line whose value is its text as written, inside its quotes if it
 * has them (no escapes, no doubled quotes). Undefined for anything else.
 */
function verbatimLine(
  source: string,
  base: number,
  style: ScalarStyle | undefined,
  parsed: string,
): ScalarText | undefined {
  if (source.includes('\n') || source.includes('\r')) return undefined;
  const quote = style === 'QUOTE_DOUBLE' ? '"' : style === 'QUOTE_SINGLE' ? "'" : undefined;
  if (quote === undefined && style !== 'PLAIN' && style !== undefined) return undefined;
  const from = quote ? 1 : 0;
  if (quote && (source.length < 2 || source[0] !== quote || source[source.length - 1] !== quote)) return undefined;
  const inner = quote ? source.slice(1, -1) : source;
  if (inner !== parsed || (quote === '"' && inner.includes('\\')) || (quote === "'" && inner.includes("'")))
    return undefined;
  const offsets = new Array<number>(inner.length + 1);
  for (let index = 0; index < inner.length; index++) offsets[index] = base + from + index;
  // The end: after the last character, or the scalar's start when it is empty (as the retracing gives it).
  offsets[inner.length] = inner.length > 0 ? base + from + inner.length : base;
  return { value: parsed, offsets, exact: true };
}

/** The value span of characters [from, to) of a scalar, in file offsets. */
export function valueSpan(text: ScalarText, from: number, to: number): Span {
  const start = text.offsets[Math.max(0, Math.min(from, text.value.length))];
  if (to <= from) return { start, end: start };
  const last = text.offsets[Math.min(to, text.value.length) - 1];
  return { start, end: text.exact ? last + 1 : start };
}

type LineSegments = Segment[][];

function splitLines(source: string, base: number, read: (text: string, base: number) => Segment[]): LineSegments {
  const lines: LineSegments = [];
  let start = 0;
  for (;;) {
    const newline = source.indexOf('\n', start);
    const end = newline === -1 ? source.length : newline;
    const contentEnd = end > start && source[end - 1] === '\r' ? end - 1 : end;
    lines.push(read(source.slice(start, contentEnd), base + start));
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

/** One segment per UTF-16 unit, as offsets count them (a character above U+FFFF is two). */
function plainSegments(text: string, base: number): Segment[] {
  const segments: Segment[] = [];
  for (let i = 0; i < text.length; i++)
    segments.push({ char: text[i], offset: base + i, blank: text[i] === ' ' || text[i] === '\t' });
  return segments;
}

/**
 * Flow folding: blanks around line breaks go, a lone break becomes a space,
 * and each empty line between two lines becomes a line feed. A line ending
 * in an escaped break (double quotes) joins the next with nothing between.
 */
function foldFlow(lines: LineSegments, escapedBreaks: Set<number> = new Set()): Segment[] {
  const out: Segment[] = [];
  let pendingEmpty = 0;
  let joinNext = false;
  lines.forEach((line, index) => {
    let from = 0;
    let to = line.length;
    if (index > 0) while (from < to && line[from].blank) from++;
    if (index < lines.length - 1 && !escapedBreaks.has(index)) while (to > from && line[to - 1].blank) to--;
    const content = line.slice(from, to);
    const last = index === lines.length - 1;
    if (index > 0 && content.length === 0 && !last) {
      pendingEmpty++;
      return;
    }
    if (index > 0 && !joinNext) {
      const at = line[from]?.offset ?? line[0]?.offset ?? 0;
      if (pendingEmpty > 0) for (let i = 0; i < pendingEmpty; i++) out.push({ char: '\n', offset: at, blank: false });
      else out.push({ char: ' ', offset: at, blank: false });
    }
    pendingEmpty = 0;
    joinNext = escapedBreaks.has(index);
    out.push(...content);
  });
  return out;
}

function quoted(source: string, base: number, quote: "'" | '"'): Segment[] | undefined {
  if (source[0] !== quote || source[source.length - 1] !== quote || source.length < 2) return undefined;
  const inner = source.slice(1, -1);
  const escapedBreaks = new Set<number>();
  let lineIndex = 0;
  const lines = splitLines(inner, base + 1, (text, lineBase) => {
    const segments: Segment[] = [];
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (quote === "'") {
        if (char === "'" && text[i + 1] === "'") {
          segments.push({ char: "'", offset: lineBase + i, blank: false });
          i++;
        } else segments.push({ char, offset: lineBase + i, blank: char === ' ' || char === '\t' });
        continue;
      }
      if (char !== '\\') {
        segments.push({ char, offset: lineBase + i, blank: char === ' ' || char === '\t' });
        continue;
      }
      const next = text[i + 1];
      if (next === undefined) {
        escapedBreaks.add(lineIndex);
        break;
      }
      if (next in HEX_ESCAPES) {
        const digits = text.slice(i + 2, i + 2 + HEX_ESCAPES[next]);
        segments.push({ char: String.fromCodePoint(parseInt(digits, 16)), offset: lineBase + i, blank: false });
        i += 1 + digits.length;
      } else {
        segments.push({ char: ESCAPES[next] ?? next, offset: lineBase + i, blank: false });
        i++;
      }
    }
    lineIndex++;
    return segments;
  });
  // Code points above U+FFFF are two UTF-16 units in the value: give the second one the same offset.
  return foldFlow(lines, escapedBreaks).flatMap((segment) =>
    segment.char.length === 2
      ? [
          { ...segment, char: segment.char[0] },
          { ...segment, char: segment.char[1] },
        ]
      : [segment],
  );
}

/** Literal (`|`) and folded (`>`) block scalars with clip, strip (`-`) and keep (`+`) chomping. */
function block(source: string, base: number, folded: boolean): Segment[] | undefined {
  const headerEnd = source.indexOf('\n');
  if (headerEnd === -1) return [];
  const header = /^[|>]([1-9]?)([+-]?)([1-9]?)/.exec(source);
  if (!header) return undefined;
  // An explicit indentation is relative to the parent, which is not known here.
  if (header[1] || header[3]) return undefined;
  const chomp = header[2];
  const lines: { text: string; offset: number; end: number }[] = [];
  let start = headerEnd + 1;
  while (start <= source.length) {
    const newline = source.indexOf('\n', start);
    const end = newline === -1 ? source.length : newline;
    const contentEnd = end > start && source[end - 1] === '\r' ? end - 1 : end;
    lines.push({ text: source.slice(start, contentEnd), offset: base + start, end: base + contentEnd });
    if (newline === -1) break;
    start = newline + 1;
  }
  // The value's range ends after the last line break: that empty remainder is not a line of the block.
  if (lines.length > 0 && lines[lines.length - 1].text === '' && source.endsWith('\n')) lines.pop();
  const first = lines.find((line) => line.text.trim() !== '');
  if (!first) return [];
  const indent = first.text.length - first.text.trimStart().length;
  let lastContent = -1;
  lines.forEach((line, index) => {
    if (line.text.trim() !== '') lastContent = index;
  });

  const out: Segment[] = [];
  const breakAt = (offset: number) => out.push({ char: '\n', offset, blank: false });
  let previousKind: 'none' | 'text' | 'more' = 'none';
  let emptyRun: number[] = [];
  for (let index = 0; index <= lastContent; index++) {
    const line = lines[index];
    const body = line.text.slice(Math.min(indent, line.text.length));
    const empty = line.text.trim() === '' && line.text.length <= indent;
    if (empty) {
      emptyRun.push(line.end);
      continue;
    }
    const kind = body.startsWith(' ') || body.startsWith('\t') ? 'more' : 'text';
    if (previousKind !== 'none') {
      const previousEnd = lines[index - 1 - emptyRun.length].end;
      if (folded && previousKind === 'text' && kind === 'text') {
        if (emptyRun.length === 0) out.push({ char: ' ', offset: previousEnd, blank: false });
        else for (const end of emptyRun) breakAt(end);
      } else {
        breakAt(previousEnd);
        for (const end of emptyRun) breakAt(end);
      }
    } else {
      for (const end of emptyRun) breakAt(end);
    }
    emptyRun = [];
    for (let i = 0; i < body.length; i++)
      out.push({ char: body[i], offset: line.offset + Math.min(indent, line.text.length) + i, blank: false });
    previousKind = kind;
  }
  if (chomp === '-') return out;
  const lastEnd = lines[lastContent].end;
  breakAt(lastEnd);
  if (chomp === '+') for (const line of lines.slice(lastContent + 1)) breakAt(line.end);
  return out;
}
