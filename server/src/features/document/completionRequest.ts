import type { TextEdit } from 'vscode-languageserver-types';
import type { SkillModel } from '../../model/skillModel';
import type { CatalogSkill } from '../../workspace/skillCatalog';
import { rangeOf, type DocumentView } from './documentView';

/** A completion request: the document, the offset, and what the current text may lack. */
export interface CompletionRequest {
  view: DocumentView;
  offset: number;
  /** The last model that loaded, for step names while the current text does not parse. */
  lastGoodModel?: SkillModel;
  /** The skills a MetaSkill may compose. */
  catalog?: Map<string, CatalogSkill>;
}

/** An edit that replaces the `prefix` typed before the cursor with `newText`. */
export function replacing(request: CompletionRequest, prefix: string, newText: string): TextEdit {
  return { range: rangeOf(request.view, { start: request.offset - prefix.length, end: request.offset }), newText };
}
