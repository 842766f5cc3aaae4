import { firstNotBefore } from './bisect';
import type { TextLike } from './textLike';
import { changedRegion } from './textChange';
import type { LspRange, Position } from '../../protocol';

/** The start of a file: where a finding or a place about the file as a whole points (never changed by its users). */
export const FILE_START_RANGE: LspRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * Half-open [start, end) offsets into one file's text, in UTF-16 code units.
 * `file` names that file when it is not the skill's SKILL.md (a skill+
 * package spreads one process over `flow.py`, `state.py`, tips and rules).
 */
export interface Span {
  start: number;
  end: number;
  file?: string;
}

/** How many lines after the last offset's `positionAt` looks at before it searches. */
const NEAR_LINES = 8;

/**
 * Converts offsets to positions and back. The analyzer works in offsets (what
 * the `yaml` package gives) and converts here, once, at the edge.
 */
export class LineIndex {
  /**
   * The offset each line starts at (a typed array: the server makes one per keystroke, for texts of thousands of
   * lines).
   */
  private readonly lineStarts: Uint32Array;
  /** The line of the offset last asked for (see `positionAt`). */
  private lastLine = 0;

  constructor(
    private readonly text: TextLike,
    lineStarts?: Uint32Array,
  ) {
    this.lineStarts = lineStarts ?? new Uint32Array([0, ...lineBreaksIn(text, 0, text.length)]);
  }

  /**
   * The index of `text`, made from `earlier`'s (an index of an earlier
   * version of the same file) where the two texts agree: the lines above
   * and below the change are copied, not searched for again.
   */
  static after(earlier: LineIndex | undefined, text: TextLike): LineIndex {
    if (!earlier) return new LineIndex(text);
    if (earlier.text === text) return earlier;
    const old = earlier.text;
    const { before, after } = changedRegion(old, text);
    const delta = text.length - old.length;
    const starts = earlier.lineStarts;
    // Lines starting at or before the change keep their start; those whose line break is in the common end move by
    // delta.
    const kept = firstNotBefore(starts.length, (index) => starts[index] <= before);
    const moved = firstNotBefore(starts.length, (index) => starts[index] <= old.length - after);
    const added = lineBreaksIn(text, before, text.length - after);
    const result = new Uint32Array(kept + added.length + starts.length - moved);
    result.set(starts.subarray(0, kept));
    result.set(added, kept);
    for (let index = moved, at = kept + added.length; index < starts.length; index++, at++)
      result[at] = starts[index] + delta;
    return new LineIndex(text, result);
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.lineStarts;
    // Offsets are mostly asked for in the order they are written (a step's ports, then the next step's; findings in
    // order): the line of the last one asked, or one a few lines after it, holds this one, found without a search.
    let line = this.lastLine;
    if (starts[line] <= clamped) {
      const near = Math.min(starts.length, line + NEAR_LINES);
      while (line + 1 < near && starts[line + 1] <= clamped) line++;
      if (line + 1 === near && near < starts.length && starts[near] <= clamped) line = this.lineHolding(clamped);
    } else line = this.lineHolding(clamped);
    this.lastLine = line;
    return { line, character: clamped - starts[line] };
  }

  /** The last line starting at or before `offset` (the first starts at 0). */
  private lineHolding(offset: number): number {
    return firstNotBefore(this.lineStarts.length, (index) => this.lineStarts[index] <= offset) - 1;
  }

  offsetAt(position: Position): number {
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[Math.max(0, position.line)];
    const next = position.line + 1 < this.lineStarts.length ? this.lineStarts[position.line + 1] : this.text.length;
    return Math.min(start + Math.max(0, position.character), next);
  }

  rangeOf(span: Span): LspRange {
    return { start: this.positionAt(span.start), end: this.positionAt(span.end) };
  }
}

/** The starts of the lines whose line break lies in [from, to) of `text`. */
export function lineBreaksIn(text: TextLike, from: number, to: number): number[] {
  const starts: number[] = [];
  // indexOf scans natively.
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The end of the line holding `offset`, before its line break (LF or CRLF). */
export function lineEndAt(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, Math.min(offset, text.length)));
  const end = newline === -1 ? text.length : newline;
  return text[end - 1] === '\r' ? end - 1 : end;
}
