import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DocumentView } from '../analysis/documentView';
import type { FileSystem } from '../workspace/fileSystem';
import { isCodexMetadata, isEvalFile } from '../formats/agent-skill';
import { formatOf } from '../formats';
import type { AnalysisCache, OpenDocument } from './analysisCache';
import type { OpenDocuments } from './editorTypes';

// The skill an open document belongs to and the analysis cache's view of it, with the unsaved text of that skill's
// open documents: what LanguageService runs each feature on.

/** The analysed views of the open documents. */
export class DocumentViews {
  constructor(
    private readonly fs: FileSystem,
    private readonly documents: OpenDocuments,
    private readonly cache: AnalysisCache,
  ) {}

  /**
   * The analysed view of an open document: a SKILL.md, or a file of a skill+ package (its SKILL.md in the same folder
   * or the one above, as for `references/` and `rules/`). Any other document gets no view, so ordinary Python and
   * Markdown are left to their own extensions.
   */
  viewOf(uri: string): DocumentView | undefined {
    const document = this.documents.get(uri);
    if (!document || !uri.startsWith('file:')) return undefined;
    const file = fileURLToPath(uri);
    const open: OpenDocument = { uri, file, version: document.version, text: document.text };
    if (path.basename(file) === 'SKILL.md') return this.cache.view(open, file, this.openIn(path.dirname(file)));
    // A file beside SKILL.md that a client or an eval tool reads (`agents/openai.yaml`, `evals/*.json`): its findings
    // and features are the skill's.
    const skillDir = path.dirname(path.dirname(file));
    if (isCodexMetadata(skillDir, file) || isEvalFile(skillDir, file)) {
      const skillFile = path.join(skillDir, 'SKILL.md');
      if (!this.documents.get(pathToFileURL(skillFile).href) && this.fs.stat(skillFile)?.kind !== 'file')
        return undefined;
      return this.cache.view(open, skillFile, this.openIn(skillDir));
    }
    for (const dir of [path.dirname(file), path.dirname(path.dirname(file))]) {
      const skillFile = path.join(dir, 'SKILL.md');
      if (!this.documents.get(pathToFileURL(skillFile).href) && this.fs.stat(skillFile)?.kind !== 'file') continue;
      const view = this.cache.view(open, skillFile, this.openIn(dir));
      if (formatOf(view.analysis).features?.packageFiles && view.analysis.sources.has(file)) return view;
    }
    return undefined;
  }

  /** Open documents on disk inside `dir`, as the analysis overlays them. */
  private openIn(dir: string): OpenDocument[] {
    return this.documents.all().flatMap((document) => {
      if (!document.uri.startsWith('file:')) return [];
      const file = fileURLToPath(document.uri);
      const relative = path.relative(dir, file);
      return relative.startsWith('..') || path.isAbsolute(relative)
        ? []
        : [{ uri: document.uri, file, version: document.version, text: document.text }];
    });
  }
}
