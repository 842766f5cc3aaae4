import type { Range } from 'vscode-languageserver-types';
import type { ControlRef, FileLink, GraphNode, Port, SkillModel, SkillRef } from '../model/skillModel';
import type { Span } from '../parse/text/lineIndex';
import type { YamlLocation } from '../parse/yaml/yamlNodes';
import type { CatalogSkill } from '../workspace/skillCatalog';
import type { DocumentView } from './documentView';
import type { AnalysisBase } from './skillAnalysis';

// What the features of every format, and each format's own, are asked about: what lies at an offset, a completion
// request, the lenses of a document.

/** What the cursor is on, in model terms. Features switch on this, never on raw text. */
export type Target =
  | { kind: 'port'; node: GraphNode; port: Port }
  | { kind: 'step'; node: GraphNode }
  | { kind: 'controlRef'; node: GraphNode; ref: ControlRef }
  | { kind: 'link'; node?: GraphNode; link: FileLink }
  | { kind: 'skillRef'; node: GraphNode; ref: SkillRef }
  | { kind: 'filter'; node: GraphNode; name: string; span: Span }
  | { kind: 'key'; region: 'frontmatter' | 'procedure'; location: YamlLocation; span: Span }
  | { kind: 'none' };

/** A completion request: the document, the offset, and what the current text may lack. */
export interface CompletionRequest<A extends AnalysisBase = AnalysisBase> {
  view: DocumentView<A>;
  offset: number;
  /** The last model that loaded, for step names while the current text does not parse. */
  lastGoodModel?: SkillModel;
  /** The skills a MetaSkill may compose. */
  catalog?: Map<string, CatalogSkill>;
}

/** What clicking a lens does; the host names the command that does it. */
export type LensAction = 'openPreview' | 'compile' | 'showReferences';

/** A code lens: where it sits, what it says, what it does (`showReferences` shows those of the step it sits on). */
export interface SkillLens {
  range: Range;
  title: string;
  action: LensAction;
}
