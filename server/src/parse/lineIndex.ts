import { firstNotBefore } from './bisect';

/** A zero-based LSP position: line and UTF-16 character. */
export interface Position {
  line: number;
  character: number;
}

/** A zero-based LSP range. */
export interface LspRange {
  start: Position;
  end: Position;
}

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

/**
 * Converts offsets to positions and back. The analyzer works in offsets (what
 * the `yaml` package gives) and converts here, once, at the edge.
 */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    // indexOf scans natively: this runs on the whole text after every keystroke.
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    // The last line starting at or before the offset (the first starts at 0).
    const line = firstNotBefore(this.lineStarts.length, (index) => this.lineStarts[index] <= clamped) - 1;
    return { line, character: clamped - this.lineStarts[line] };
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
