// The words every message of the wire shares: where a thing is (LSP's own range), and how bad a finding is.

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

/** How bad a finding is, as LSP names its severities. */
export type Severity = 'error' | 'warning' | 'information' | 'hint';
