import type { Span } from '../../parse/text/lineIndex';
import type { LspRange } from '../../protocol';
import type { Rule } from './rule';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** One finding, located by offsets in a file. Converted to lines only by hosts. */
export interface Diagnostic {
  /** Its rule's code (checks/engine/rule.ts). */
  code: string;
  severity: Severity;
  message: string;
  /** Absolute path of the file the span is in. */
  file: string;
  span: Span;
  /** What a quick fix needs (a suggested name, the offending text, …). */
  data?: Record<string, unknown>;
  /** The other places a finding about several files is about (the other skill of a pair), each with what it is. */
  related?: RelatedPlace[];
}

/** A place in another file that a finding is about, as the editor counts lines and characters. */
export interface RelatedPlace {
  file: string;
  range: LspRange;
  message: string;
}

/** Builds a finding of `rule`, with the rule's default severity. */
export function diagnostic(
  rule: Rule,
  file: string,
  span: Span,
  message: string,
  data?: Record<string, unknown>,
): Diagnostic {
  return { code: rule.code, severity: rule.severity, message, file, span, ...(data ? { data } : {}) };
}
