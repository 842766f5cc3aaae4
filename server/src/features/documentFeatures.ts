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
import type { Span } from '../parse/lineIndex';
import type { CatalogSkill } from '../workspace/skillCatalog';
import { isCodexMetadata, isEvalFile } from '../formats/agent-skill';
import { codeActions } from './codeActions';
import { codexMetadataFeatures } from './codexMetadataFeatures';
import { evalFileFeatures } from './evalFileFeatures';
import { completion } from './completion';
import { definition } from './definition';
import { rangeOf, type DocumentView } from './document/documentView';
import { hover } from './hover';
import { references } from './references';
import { prepareRename, rename } from './rename';
import { packageCompletion } from './skillplus/packageCompletion';
import { packageHover } from './skillplus/packageHover';
import {
  packageDefinition,
  packagePrepareRename,
  packageReferences,
  packageRename,
} from './skillplus/packageNavigation';
import { packageOutline } from './skillplus/packageOutline';
import { foldingRanges, selectionRanges, skillFileLenses, type SkillLens } from './structure';
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
 * A SKILL.md's features. A skill+ package's nodes live in its other files, so its SKILL.md's features see the
 * skill without them (its code actions see the package too: a fix may be about a file the brief links).
 */
const skillFileFeatures: DocumentFeatures = {
  definition: (view, offset) => definition(withoutPackageNodes(view), offset),
  references: (view, offset, includeDeclaration) => references(withoutPackageNodes(view), offset, includeDeclaration),
  hover: (view, offset) => hover(withoutPackageNodes(view), offset),
  completion: (view, offset, context) =>
    completion({
      view: withoutPackageNodes(view),
      offset,
      ...(view.analysis.skillplus || !context.lastGoodModel ? {} : { lastGoodModel: context.lastGoodModel }),
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

/** The features of a skill+ package's other files (`flow.py`, `state.py`, tips, rules, `spec.md`). */
const packageFileFeatures: DocumentFeatures = {
  definition: packageDefinition,
  references: packageReferences,
  hover: packageHover,
  completion: (view, offset) => packageCompletion(view, offset),
  codeActions,
  symbols: packageOutline,
  prepareRename: packagePrepareRename,
  rename: packageRename,
  foldingRanges: () => [],
  selectionRanges: () => [],
  lenses: (view) => {
    // The flow file opens the package's graph from its first stage.
    const flow = view.analysis.skillplus?.flow;
    const first = flow?.file === view.file ? flow.stages[0] : undefined;
    return first ? [{ range: rangeOf(view, first.idSpan), title: 'Open graph preview', action: 'openPreview' }] : [];
  },
};

/**
 * The features of a document: a skill's SKILL.md, its Codex metadata, its eval files, or another file of a skill+
 * package.
 */
export function featuresOf(view: DocumentView): DocumentFeatures {
  if (view.file === view.analysis.file) return skillFileFeatures;
  if (isCodexMetadata(view.analysis.dir, view.file)) return codexMetadataFeatures;
  return isEvalFile(view.analysis.dir, view.file) ? evalFileFeatures : packageFileFeatures;
}

/**
 * The view the SKILL.md features work on: for a skill+ package, without the flow's nodes, which live in other files.
 */
function withoutPackageNodes(view: DocumentView): DocumentView {
  if (!view.analysis.skillplus) return view;
  const model = { ...view.analysis.model, nodes: [], edges: [], externalInputs: [] };
  return { ...view, analysis: { ...view.analysis, model } };
}
