import { pathToFileURL } from 'node:url';
import type { AnalysisBase } from './skillAnalysis';
import { SkillLines } from '../parse/text/skillLines';
import type { LineIndex, Span } from '../parse/text/lineIndex';
import { flatText, type TextLike } from '../parse/text/textLike';
import type { FileSystem } from '../workspace/fileSystem';
import type { LspRange } from '../protocol';

/**
 * One open document as the features see it: the analysis of the skill it
 * belongs to and its own line index. For most skills the document is the
 * SKILL.md; for a skill+ package it may be any file of the package
 * (`flow.py`, `state.py`, a tip), all sharing one analysis.
 */
export interface DocumentView<A extends AnalysisBase = AnalysisBase> {
  uri: string;
  /** The editor's version of the text, for versioned workspace edits. */
  version: number | null;
  /** The analysis of the skill: any format's for features of every format, one format's for that format's own. */
  analysis: A;
  /**
   * The document's file and text (the SKILL.md's are `analysis.file` and `analysis.text`), the text made one string
   * when first read.
   */
  file: string;
  readonly text: string;
  lines: LineIndex;
  fs: FileSystem;
  /** Line indexes of every file of the skill, made when first asked for. */
  files: SkillLines;
}

/**
 * The view of `file` in `analysis`; `earlier`, a view of an earlier version of the same document, lends its line
 * indexes.
 */
export function createView<A extends AnalysisBase>(
  uri: string,
  version: number | null,
  analysis: A,
  fs: FileSystem,
  file = analysis.file,
  source: TextLike = analysis.source,
  earlier?: DocumentView,
): DocumentView<A> {
  const files = new SkillLines(analysis, earlier?.files);
  // The document's own text is what the analysis read (SKILL.md, or the package file overlaid with it).
  return {
    uri,
    version,
    analysis,
    file,
    get text() {
      return flatText(source);
    },
    lines: files.of(file),
    fs,
    files,
  };
}

/** The text of any file of the view's skill (the document, SKILL.md, a package file read by the analysis). */
export function textOf(view: DocumentView, file: string | undefined): string {
  if (file === undefined || file === view.file) return view.text;
  return file === view.analysis.file ? view.analysis.text : (view.analysis.sources.get(file) ?? '');
}

/** A span in the view's document (spans without a file are in SKILL.md). */
export function inDocument(view: DocumentView, span: Span): boolean {
  return (span.file ?? view.analysis.file) === view.file;
}

export function rangeOf(view: DocumentView, span: Span): LspRange {
  return view.files.rangeOf(span);
}

/** A span in any file of the skill, as an LSP location. */
export function locationOf(view: DocumentView, span: Span): { uri: string; range: LspRange } {
  const file = span.file ?? view.analysis.file;
  return { uri: file === view.file ? view.uri : pathToFileURL(file).href, range: rangeOf(view, span) };
}

export function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}
