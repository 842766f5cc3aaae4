import type { TextEdit } from 'vscode-languageserver-types';
import { rangeOf } from '../analysis/documentView';
import type { CompletionRequest } from '../analysis/target';

/** An edit that replaces the `prefix` typed before the cursor with `newText`. */
export function replacing(request: CompletionRequest, prefix: string, newText: string): TextEdit {
  return { range: rangeOf(request.view, { start: request.offset - prefix.length, end: request.offset }), newText };
}
