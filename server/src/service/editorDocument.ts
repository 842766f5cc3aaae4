import { firstNotBefore } from '../parse/text/bisect';
import { PieceText } from '../parse/text/pieceText';
import type { LspRange, Position } from '../protocol';

/** A change as the client sends it: a range replaced, or (no range) the whole text. */
export interface ContentChange {
  range?: LspRange;
  text: string;
}

/**
 * An open document as the language server keeps it: its text in pieces
 * (PieceText), so a keystroke in a long SKILL.md never makes the whole text
 * one new string, and the start of each line, so a change's positions are
 * found without reading the text. Lines end at LF, CRLF or a lone CR, as
 * LSP counts them.
 */
export class EditorDocument {
  private constructor(
    readonly uri: string,
    readonly languageId: string,
    readonly version: number,
    readonly text: PieceText,
    private readonly lineStarts: Uint32Array,
  ) {}

  static create(uri: string, languageId: string, version: number, content: string): EditorDocument {
    const text = PieceText.of(content);
    return new EditorDocument(uri, languageId, version, text, linesOf(text));
  }

  /** The document after `changes`, applied in order, each to the text the one before left. */
  static update(document: EditorDocument, changes: readonly ContentChange[], version: number): EditorDocument {
    let text = document.text;
    let starts = document.lineStarts;
    for (const change of changes) {
      if (!change.range) {
        text = PieceText.of(change.text);
        starts = linesOf(text);
        continue;
      }
      // A range given end first is read start first (as the reference library reads it).
      const first = wholePosition(change.range.start);
      const last = wholePosition(change.range.end);
      const reversed = last.line < first.line || (last.line === first.line && last.character < first.character);
      const start = offsetAt(text, starts, reversed ? last : first);
      const end = Math.max(start, offsetAt(text, starts, reversed ? first : last));
      text = text.edited(start, end, change.text);
      starts = linesAfter(starts, text, start, end, change.text.length);
    }
    return new EditorDocument(document.uri, document.languageId, version, text, starts);
  }

  /** The whole text as one string: features that read it whole ask for it; the analysis of an edit does not. */
  getText(): string {
    return this.text.toString();
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  offsetAt(position: Position): number {
    return offsetAt(this.text, this.lineStarts, wholePosition(position));
  }
}

/**
 * A position of whole numbers: a line or character that is not one (a client's bug) is read as the whole number below
 * it, or 0.
 */
function wholePosition(position: Position): Position {
  return { line: Math.trunc(position.line) || 0, character: Math.trunc(position.character) || 0 };
}

/**
 * The offset of an LSP position (of whole numbers): a line past the last is
 * the end of the text; a character past the end of its line is the end of
 * the line, before its line break.
 */
function offsetAt(text: PieceText, starts: Uint32Array, position: Position): number {
  if (position.line >= starts.length) return text.length;
  if (position.line < 0) return 0;
  const lineStart = starts[position.line];
  const next = position.line + 1 < starts.length ? starts[position.line + 1] : text.length;
  let offset = Math.min(lineStart + Math.max(0, position.character), next);
  while (offset > lineStart && isLineBreak(text.charCodeAt(offset - 1))) offset--;
  return offset;
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

function linesOf(text: PieceText): Uint32Array {
  return new Uint32Array([0, ...lineBreaks(text, 0, text.length)]);
}

/**
 * How much of the text a search for line breaks reads at once: a search for a CR in a text without one reads no
 * further.
 */
const SCAN = 16 * 1024;

/** The starts of the lines whose line break (LF, CRLF, lone CR) lies in [from, to) of `text`. */
function lineBreaks(text: PieceText, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let base = from; base < to; base += SCAN) {
    const part = text.slice(base, Math.min(to, base + SCAN));
    let lf = part.indexOf('\n');
    let cr = part.indexOf('\r');
    while (lf !== -1 || cr !== -1) {
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      // A CR before an LF is one break with it, counted at the LF (which may be the first unit of the next part).
      if (at === lf || text.charCodeAt(base + at + 1) !== 10) starts.push(base + at + 1);
      if (at === lf) lf = part.indexOf('\n', at + 1);
      else cr = part.indexOf('\r', at + 1);
    }
  }
  return starts;
}

/**
 * The line starts after [start, end) of the old text became `inserted`
 * units at `start` of `text`. Breaks before the change keep their place and
 * those after it move; the inserted text and one unit either side (a CR and
 * an LF may join or part there) are read again.
 */
function linesAfter(starts: Uint32Array, text: PieceText, start: number, end: number, inserted: number): Uint32Array {
  // The first line always starts at 0; of the others, those whose break lies before start - 1 stay, those whose break
  // lay past end move.
  const kept = Math.max(
    1,
    firstNotBefore(starts.length, (index) => starts[index] < start),
  );
  const moved = Math.max(
    kept,
    firstNotBefore(starts.length, (index) => starts[index] < end + 2),
  );
  const added = lineBreaks(text, Math.max(0, start - 1), Math.min(text.length, start + inserted + 1));
  const result = new Uint32Array(kept + added.length + starts.length - moved);
  result.set(starts.subarray(0, kept));
  result.set(added, kept);
  const delta = inserted - (end - start);
  for (let index = moved, at = kept + added.length; index < starts.length; index++, at++)
    result[at] = starts[index] + delta;
  return result;
}
