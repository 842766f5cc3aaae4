import type { Span } from './lineIndex';

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
  code: 'missing_frontmatter' | 'invalid_frontmatter' | 'unclosed_fence' | 'crlf_line_endings';
  message: string;
  span: Span;
}

/** The SKILL.md container: frontmatter, body and the body's fenced blocks. */
export interface SkillFileSyntax {
  text: string;
  frontmatter?: Frontmatter;
  body: Span;
  fences: Fence[];
  crlf: boolean;
  problems: SkillFileProblem[];
}

interface Line {
  span: Span;
  text: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    const next = end === -1 ? text.length + 1 : end + 1;
    if (end === -1) end = text.length;
    const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    lines.push({ span: { start, end: contentEnd }, text: text.slice(start, contentEnd) });
    start = next;
  }
  return lines;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}[`~]+\s*$/;

/**
 * Reads the container of a SKILL.md. Never throws: what cannot be read is
 * reported in `problems` and the rest is still returned. The text must
 * already be free of a byte-order mark (the workspace layer strips it).
 */
export function parseSkillFile(text: string): SkillFileSyntax {
  const lines = splitLines(text);
  const problems: SkillFileProblem[] = [];
  const crlf = text.includes('\r\n');
  if (crlf) {
    problems.push({
      code: 'crlf_line_endings',
      message: 'SKILL.md uses CRLF line endings; most clients accept them, but some packagers reject the file. Prefer LF.',
      span: lines[0].span,
    });
  }

  let frontmatter: Frontmatter | undefined;
  let bodyStartLine = 0;
  if (lines[0].text.trimEnd() === '---') {
    const closeIndex = lines.findIndex((line, i) => i > 0 && line.text.trimEnd() === '---');
    if (closeIndex === -1) {
      frontmatter = { open: lines[0].span, content: { start: nextLineStart(text, lines[0]), end: text.length } };
      problems.push({
        code: 'invalid_frontmatter',
        message: 'The frontmatter opened here never closes: add a line holding only `---` after its last key. Until then agents cannot read this skill.',
        span: lines[0].span,
      });
      bodyStartLine = lines.length;
    } else {
      const contentStart = nextLineStart(text, lines[0]);
      const contentEnd = closeIndex === 1 ? contentStart : lines[closeIndex].span.start;
      frontmatter = { open: lines[0].span, content: { start: contentStart, end: contentEnd }, close: lines[closeIndex].span };
      bodyStartLine = closeIndex + 1;
    }
  } else {
    problems.push({
      code: 'missing_frontmatter',
      message: 'SKILL.md must start with YAML frontmatter: a first line `---`, the `name` and `description` keys, and a closing `---`.',
      span: lines[0].span,
    });
  }

  const bodyStart = bodyStartLine < lines.length ? lines[bodyStartLine].span.start : text.length;
  const body: Span = { start: bodyStart, end: text.length };
  const fences = readFences(text, lines.slice(bodyStartLine), problems);
  return { text, frontmatter, body, fences, crlf, problems };
}

function nextLineStart(text: string, line: Line): number {
  return Math.min(text.length, line.span.end + (text.charCodeAt(line.span.end) === 13 ? 2 : 1));
}

function readFences(text: string, lines: Line[], problems: SkillFileProblem[]): Fence[] {
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i].text);
    if (!open) continue;
    const marker = open[1];
    // A backtick fence's info string may not contain a backtick (CommonMark).
    if (marker[0] === '`' && open[2].includes('`')) continue;
    const contentStart = nextLineStart(text, lines[i]);
    let closeAt = -1;
    for (let j = i + 1; j < lines.length; j++) {
      // The pattern first: it rejects a content line at its first characters, where trimming would copy each one.
      if (!FENCE_CLOSE.test(lines[j].text)) continue;
      const candidate = lines[j].text.trim();
      if (candidate[0] === marker[0] && candidate.length >= marker.length) {
        closeAt = j;
        break;
      }
    }
    if (closeAt === -1) {
      fences.push({ info: open[2].trim(), open: lines[i].span, content: { start: contentStart, end: text.length } });
      problems.push({
        code: 'unclosed_fence',
        message: `This code fence (${marker}) never closes, so everything after it is read as code. Add a closing ${marker} line.`,
        span: lines[i].span,
      });
      break;
    }
    fences.push({
      info: open[2].trim(),
      open: lines[i].span,
      content: { start: contentStart, end: lines[closeAt].span.start },
      close: lines[closeAt].span,
    });
    i = closeAt;
  }
  return fences;
}

/** The language of a fence: the first word of its info string, lower-cased. */
export function fenceLanguage(fence: Fence): string {
  return fence.info.split(/\s+/)[0].toLowerCase();
}
