import type { Span } from '../parse/lineIndex';
import { RULES, type RuleCode } from './rules';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** One finding, located by offsets in a file. Converted to lines only by hosts. */
export interface Diagnostic {
  code: RuleCode;
  severity: Severity;
  message: string;
  /** Absolute path of the file the span is in. */
  file: string;
  span: Span;
  /** What a quick fix needs (a suggested name, the offending text, …). */
  data?: Record<string, unknown>;
}

/** Builds a diagnostic with its rule's default severity. */
export function diagnostic(
  code: RuleCode,
  file: string,
  span: Span,
  message: string,
  data?: Record<string, unknown>,
): Diagnostic {
  return { code, severity: RULES[code].severity, message, file, span, ...(data ? { data } : {}) };
}
