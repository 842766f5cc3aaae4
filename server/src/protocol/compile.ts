import type { LspRange, Severity } from './common';

// A compile's result as it travels to an editor (`skillgraph/compile`, `skillgraph/checkCompiled`).

/** A compiled file as it travels to an editor: text as text, anything else as base64. */
export type WireFile = { path: string; text: string } | { path: string; base64: string };

/**
 * A result as the language server sends it (`skillgraph/compile`, `skillgraph/checkCompiled`): its files, and its
 * findings with their file's URI and range.
 */
export interface CompileAnswer {
  outDir: string;
  files: WireFile[];
  diagnostics: { uri: string; range: LspRange; severity: Severity; code: string; message: string }[];
}
