import type {
  CodeAction,
  CompletionItem,
  DocumentSymbol,
  FoldingRange,
  Hover,
  Location,
  Range,
  SelectionRange,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { SkillModel } from '../model/skillModel';
import type { Span } from '../parse/text/lineIndex';
import type { CatalogSkill } from '../workspace/skillCatalog';
import { isCodexMetadata, isEvalFile } from '../formats/agent-skill';
import { codeActions } from './codeActions';
import { codexMetadataFeatures } from './codexMetadataFeatures';
import { evalFileFeatures } from './evalFileFeatures';
import { completion } from './completion';
import { definition } from './definition';
import type { DocumentView } from '../analysis/documentView';
import { hover } from './hover';
import { references } from './references';
import { prepareRename, rename } from './rename';
import { formatOf } from '../formats';
import type { SkillLens } from '../analysis/target';
import { foldingRanges, selectionRanges, skillFileLenses } from './structure';
import { documentSymbols } from './symbols';

/** What completion may need besides the document: the model to fall back on, the skills a MetaSkill may compose. */
export interface CompletionContext {
  /** The last model of the skill that had steps, for step names while the current text does not parse. */
  lastGoodModel?: SkillModel;
  catalog: Map<string, CatalogSkill>;
}

/** Every feature of a document, from its view and an offset (or span) in its text. */
export interface DocumentFeatures {
  definition(view: DocumentView, offset: number): Location[];
  references(view: DocumentView, offset: number, includeDeclaration: boolean): Location[];
  hover(view: DocumentView, offset: number): Hover | null;
  completion(view: DocumentView, offset: number, context: CompletionContext): CompletionItem[];
  codeActions(view: DocumentView, span: Span, only?: readonly string[]): CodeAction[];
  symbols(view: DocumentView): DocumentSymbol[];
  prepareRename(view: DocumentView, offset: number): { range: Range; placeholder: string } | null;
  /** Throws `RenameError` with the reason when the rename is refused. */
  rename(view: DocumentView, offset: number, newName: string): WorkspaceEdit | null;
  foldingRanges(view: DocumentView): FoldingRange[];
  selectionRanges(view: DocumentView, offsets: number[]): SelectionRange[];
  lenses(view: DocumentView): SkillLens[];
}

/**
 * A SKILL.md's features. Where a format writes its steps in other files (a skill+ package's flow), SKILL.md's
 * features see the skill without them (its code actions see the package too: a fix may be about a file the brief
 * links).
 */
const skillFileFeatures: DocumentFeatures = {
  definition: (view, offset) => definition(withoutPackageNodes(view), offset),
  references: (view, offset, includeDeclaration) => references(withoutPackageNodes(view), offset, includeDeclaration),
  hover: (view, offset) => hover(withoutPackageNodes(view), offset),
  completion: (view, offset, context) =>
    completion({
      view: withoutPackageNodes(view),
      offset,
      ...(formatOf(view.analysis).features?.packageFiles || !context.lastGoodModel
        ? {}
        : { lastGoodModel: context.lastGoodModel }),
      catalog: context.catalog,
    }),
  codeActions,
  symbols: (view) => documentSymbols(withoutPackageNodes(view)),
  prepareRename: (view, offset) => prepareRename(withoutPackageNodes(view), offset),
  rename: (view, offset, newName) => rename(withoutPackageNodes(view), offset, newName),
  foldingRanges: (view) => foldingRanges(withoutPackageNodes(view)),
  selectionRanges: (view, offsets) => selectionRanges(withoutPackageNodes(view), offsets),
  lenses: (view) => skillFileLenses(view),
};

/**
 * The features of a document: a skill's SKILL.md, its Codex metadata, its eval files, or another file of a skill+
 * package.
 */
export function featuresOf(view: DocumentView): DocumentFeatures {
  if (view.file === view.analysis.file) return skillFileFeatures;
  if (isCodexMetadata(view.analysis.dir, view.file)) return codexMetadataFeatures;
  if (isEvalFile(view.analysis.dir, view.file)) return evalFileFeatures;
  const own = formatOf(view.analysis).features?.packageFiles;
  return own ? { ...own, codeActions, foldingRanges: () => [], selectionRanges: () => [] } : NO_FEATURES;
}

/** A file of the skill no feature reads. */
const NO_FEATURES: DocumentFeatures = {
  definition: () => [],
  references: () => [],
  hover: () => null,
  completion: () => [],
  codeActions,
  symbols: () => [],
  prepareRename: () => null,
  rename: () => null,
  foldingRanges: () => [],
  selectionRanges: () => [],
  lenses: () => [],
};

/**
 * The view the SKILL.md features work on: without the steps a format writes in other files (skill+'s flow).
 */
function withoutPackageNodes(view: DocumentView): DocumentView {
  if (!formatOf(view.analysis).features?.packageFiles) return view;
  const model = { ...view.analysis.model, nodes: [], edges: [], externalInputs: [] };
  return { ...view, analysis: { ...view.analysis, model } };
}
