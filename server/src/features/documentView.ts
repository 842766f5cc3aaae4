import type { SkillAnalysis } from '../analyze';
import { LineIndex, type LspRange, type Span } from '../parse/lineIndex';
import type { FileSystem } from '../workspace/fileSystem';

/** One analysed SKILL.md as the features see it: the analysis and its line index. */
export interface DocumentView {
  uri: string;
  /** The editor's version of the text, for versioned workspace edits. */
  version: number | null;
  analysis: SkillAnalysis;
  lines: LineIndex;
  fs: FileSystem;
}

export function createView(uri: string, version: number | null, analysis: SkillAnalysis, fs: FileSystem): DocumentView {
  return { uri, version, analysis, lines: new LineIndex(analysis.text), fs };
}

export function rangeOf(view: DocumentView, span: Span): LspRange {
  return view.lines.rangeOf(span);
}

export function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}

/** The end of the line holding `offset`, before its line break (LF or CRLF). */
export function lineEndAt(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, Math.min(offset, text.length)));
  const end = newline === -1 ? text.length : newline;
  return text[end - 1] === '\r' ? end - 1 : end;
}
