import type { CompletionItem, Hover } from 'vscode-languageserver-types';
import type { DocumentView } from '../analysis/documentView';
import type { DocumentFeatures } from './documentFeatures';

/**
 * The features of a file beside SKILL.md that a client or an eval tool reads (Codex's metadata, the evals): hover and
 * completion from its schema; its findings come with the skill's analysis, and it has nothing to navigate or rename.
 */
export function sideFileFeatures(
  hover: (view: DocumentView, offset: number) => Hover | null,
  completion: (view: DocumentView, offset: number) => CompletionItem[],
): DocumentFeatures {
  return {
    definition: () => [],
    references: () => [],
    hover,
    completion: (view, offset) => completion(view, offset),
    codeActions: () => [],
    symbols: () => [],
    prepareRename: () => null,
    rename: () => null,
    foldingRanges: () => [],
    selectionRanges: () => [],
    lenses: () => [],
  };
}
