import { changedRegion } from '../../parse/text/textChange';
import type { TextLike } from '../../parse/text/textLike';
import type { Diagnostic } from '../engine/diagnostic';

/** Reads [from, to) of a text (whole lines) and returns what it finds there, with offsets in the whole text. */
export type LineRead = (from: number, to: number) => Diagnostic[];

/**
 * The findings of rules that read a text a line at a time (hidden characters, encoded text, secrets), kept from one
 * version of a SKILL.md to the next: the language server analyses it on every keystroke, and a 1,000-step procedure
 * read whole each time costs more than the rest of the analysis. An edit has the lines it touched read again, with a
 * line more on each side (a secret's name may stand on the line above its value), widened until no finding kept
 * crosses its edge; the findings before it are kept as they were, those after it moved by the change in length.
 */
export class ReusedLineScan {
  private last?: { text: TextLike; findings: Diagnostic[] };

  /**
   * The findings in `text`, the SKILL.md at `file`. What a line holds does not depend on where the file is: the
   * findings kept are given this file's path (a diff analyses two folders' copies of a skill as one edit).
   */
  scan(file: string, text: TextLike, read: LineRead, linesAround: number): Diagnostic[] {
    const findings = this.last ? this.rescan(this.last, text, read, linesAround) : read(0, text.length);
    this.last = { text, findings };
    // The findings are kept for the next version: each analysis gets its own copies.
    return findings.map((found) => ({ ...found, file, span: { ...found.span } }));
  }

  private rescan(
    last: { text: TextLike; findings: Diagnostic[] },
    text: TextLike,
    read: LineRead,
    linesAround: number,
  ): Diagnostic[] {
    const { before, after } = changedRegion(last.text, text);
    const delta = text.length - last.text.length;
    // [start, end) in the new text; the old text holds the same before `start` and, moved by `delta`, after `end`. A
    // finding on a line up to `linesAround` before the edit may depend on what the edit changed: those lines are read
    // again.
    let start = lineStart(text, Math.max(0, lineStart(text, before) - 1 - linesAround));
    let end = lineEnd(text, lineEnd(text, text.length - after));
    for (let widened = true; widened;) {
      widened = false;
      for (const found of last.findings) {
        if (found.span.end <= start || found.span.start >= end - delta) continue;
        // A finding may be the value of a name on the line above it: that line is read again with it.
        const from = lineStart(text, lineStart(text, found.span.start) - 1);
        const to = lineEnd(text, found.span.end + delta);
        if (from >= start && to <= end) continue;
        start = Math.min(start, from);
        end = Math.max(end, to);
        widened = true;
      }
    }
    return [
      ...last.findings.filter((found) => found.span.end <= start),
      ...read(start, end),
      ...last.findings
        .filter((found) => found.span.start >= end - delta)
        .map((found) => ({
          ...found,
          span: { ...found.span, start: found.span.start + delta, end: found.span.end + delta },
        })),
    ];
  }
}

/** Where the line holding `at` starts (0 before the text). */
function lineStart(text: TextLike, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

/** Where the line holding `at` ends, its line break included (the text's length past it). */
function lineEnd(text: TextLike, at: number): number {
  if (at >= text.length) return text.length;
  const newline = text.indexOf('\n', at);
  return newline === -1 ? text.length : newline + 1;
}
