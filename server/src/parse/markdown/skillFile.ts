import type { Span } from '../text/lineIndex';
import { flatText, type TextLike } from '../text/textLike';

/** A fenced code block of the Markdown body, with offsets into the whole file. */
export interface Fence {
  /** The info string after the fence marker, trimmed (`yaml`, `yml title=x`, …). */
  info: string;
  /** The opening marker line. */
  open: Span;
  /** The text between the marker lines. */
  content: Span;
  /** The closing marker line; absent when the fence never closes. */
  close?: Span;
}

export interface Frontmatter {
  /** The opening `---` line. */
  open: Span;
  /** The YAML text between the markers. */
  content: Span;
  /** The closing `---` line; absent when the frontmatter never closes. */
  close?: Span;
}

export interface SkillFileProblem {
  kind: 'no-frontmatter' | 'unclosed-frontmatter' | 'unclosed-fence' | 'crlf';
  message: string;
  span: Span;
}

/** The SKILL.md container: frontmatter, body and the body's fenced blocks. */
export interface SkillFileSyntax {
  /** The whole text as one string, made when first read (see PieceText). */
  readonly text: string;
  /** The text as it was given: read it through this where a keystroke's analysis reads. */
  source: TextLike;
  frontmatter?: Frontmatter;
  body: Span;
  fences: Fence[];
  crlf: boolean;
  problems: SkillFileProblem[];
}

/** One line: its span without the line break (and a CR before it), and where the next line starts. */
interface Line {
  span: Span;
  next: number;
}

/** The line starting at `start`. Lines are read one at a time: most of a long body is never sliced or kept. */
function lineAt(text: TextLike, start: number): Line {
  const newline = text.indexOf('\n', start);
  const end = newline === -1 ? text.length : newline;
  const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  return { span: { start, end: contentEnd }, next: newline === -1 ? text.length + 1 : newline + 1 };
}

function lineText(text: TextLike, line: Line): string {
  return text.slice(line.span.start, line.span.end);
}

/**
 * The next line at or after `from` (a line start) that can be a fence
 * marker: up to three spaces, then a backtick or a tilde (what both fence
 * patterns require first). Jumps from one backtick or tilde to the next
 * (native searches) instead of visiting the lines between; a multiline
 * pattern anchored at `^` was slower, trying every position.
 */
function nextFenceLine(text: TextLike, from: number): Line | undefined {
  let tick = -2;
  let tilde = -2;
  for (let at = from; at <= text.length;) {
    if (tick !== -1 && tick < at) tick = text.indexOf('`', at);
    if (tilde !== -1 && tilde < at) tilde = text.indexOf('~', at);
    const hit = tick === -1 ? tilde : tilde === -1 ? tick : Math.min(tick, tilde);
    if (hit === -1) return undefined;
    const lineStart = text.lastIndexOf('\n', hit - 1) + 1;
    let spaces = lineStart;
    while (spaces < hit && text.charCodeAt(spaces) === 32) spaces++;
    if (spaces === hit && hit - lineStart <= 3) return lineAt(text, lineStart);
    const newline = text.indexOf('\n', hit);
    at = newline === -1 ? text.length + 1 : newline + 1;
  }
  return undefined;
}

function isDashes(text: TextLike, line: Line): boolean {
  return text.startsWith('---', line.span.start) && lineText(text, line).trimEnd() === '---';
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}[`~]+\s*$/;

/** Whether a SKILL.md's text opens with frontmatter: a first line of `---`, where parseSkillFile reads its start. */
export function opensFrontmatter(text: TextLike): boolean {
  return lineText(text, lineAt(text, 0)).trimEnd() === '---';
}

/**
 * Reads the container of a SKILL.md. Never throws: what cannot be read is
 * reported in `problems` and the rest is still returned. The text must
 * already be free of a byte-order mark (the workspace layer strips it).
 */
export function parseSkillFile(text: TextLike): SkillFileSyntax {
  const first = lineAt(text, 0);
  const problems: SkillFileProblem[] = [];
  const crlf = text.includes('\r\n');
  if (crlf) {
    problems.push({
      kind: 'crlf',
      message:
        'SKILL.md uses CRLF line endings. The reference validators read them as LF, so the skill is valid; a tool that reads the raw text and looks for `---\\n` misses its frontmatter. Prefer LF.',
      span: first.span,
    });
  }

  let frontmatter: Frontmatter | undefined;
  let bodyStart = 0;
  if (opensFrontmatter(text)) {
    let close: Line | undefined;
    for (let line = first; line.next <= text.length;) {
      line = lineAt(text, line.next);
      if (isDashes(text, line)) {
        close = line;
        break;
      }
    }
    const contentStart = nextLineStart(text, first);
    if (!close) {
      frontmatter = { open: first.span, content: { start: contentStart, end: text.length } };
      problems.push({
        kind: 'unclosed-frontmatter',
        message:
          'The frontmatter opened here never closes: add a line holding only `---` after its last key. Until then agents cannot read this skill.',
        span: first.span,
      });
      bodyStart = text.length;
    } else {
      frontmatter = { open: first.span, content: { start: contentStart, end: close.span.start }, close: close.span };
      bodyStart = Math.min(close.next, text.length);
    }
  } else {
    problems.push({
      kind: 'no-frontmatter',
      message:
        'SKILL.md must start with YAML frontmatter: a first line `---`, the `name` and `description` keys, and a closing `---`.',
      span: first.span,
    });
  }

  const body: Span = { start: bodyStart, end: text.length };
  const fences = readFences(text, bodyStart, problems);
  return {
    get text() {
      return flatText(text);
    },
    source: text,
    frontmatter,
    body,
    fences,
    crlf,
    problems,
  };
}

function nextLineStart(text: TextLike, line: Line): number {
  return Math.min(text.length, line.next);
}

function readFences(text: TextLike, from: number, problems: SkillFileProblem[]): Fence[] {
  const fences: Fence[] = [];
  for (let line = nextFenceLine(text, from); line; line = nextFenceLine(text, line.next)) {
    const open = FENCE_OPEN.exec(lineText(text, line));
    if (!open) continue;
    const marker = open[1];
    // A backtick fence's info string may not contain a backtick (CommonMark).
    if (marker[0] === '`' && open[2].includes('`')) continue;
    const contentStart = nextLineStart(text, line);
    let close: Line | undefined;
    for (let candidate = nextFenceLine(text, line.next); candidate; candidate = nextFenceLine(text, candidate.next)) {
      if (!FENCE_CLOSE.test(lineText(text, candidate))) continue;
      const trimmed = lineText(text, candidate).trim();
      if (trimmed[0] === marker[0] && trimmed.length >= marker.length) {
        close = candidate;
        break;
      }
    }
    if (!close) {
      fences.push({ info: open[2].trim(), open: line.span, content: { start: contentStart, end: text.length } });
      // CommonMark closes a fence at the end of the document: one with nothing after it (a stray marker on the last
      // line) hides nothing.
      if (text.slice(contentStart, text.length).trim() === '') break;
      problems.push({
        kind: 'unclosed-fence',
        message: `This code fence (${marker}) never closes, so everything after it is read as code. Add a closing ${marker} line.`,
        span: line.span,
      });
      break;
    }
    fences.push({
      info: open[2].trim(),
      open: line.span,
      content: { start: contentStart, end: close.span.start },
      close: close.span,
    });
    line = close;
  }
  return fences;
}

/** The parts of `region` outside the fenced blocks (their marker lines included): the prose of a Markdown body. */
export function outsideFences(region: Span, fences: readonly Fence[]): Span[] {
  const parts: Span[] = [];
  let at = region.start;
  for (const fence of fences) {
    if (fence.open.start > at) parts.push({ start: at, end: Math.min(fence.open.start, region.end) });
    at = Math.max(at, (fence.close ?? fence.content).end);
  }
  if (region.end > at) parts.push({ start: at, end: region.end });
  return parts;
}

/** The language of a fence: the first word of its info string, lower-cased. */
export function fenceLanguage(fence: Fence): string {
  return fence.info.split(/\s+/)[0].toLowerCase();
}
