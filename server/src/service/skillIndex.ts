import { pathToFileURL } from 'node:url';
import { SymbolKind, type SymbolInformation } from 'vscode-languageserver-types';
import { analyzeSkill } from '../analyze';
import type { FormatId } from '../model/skillModel';
import { type Span, LineIndex } from '../parse/text/lineIndex';
import { discoverSkills } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import type { LspRange } from '../protocol';

export interface IndexedSymbol {
  name: string;
  kind: 'skill' | 'step';
  file: string;
  range: LspRange;
  container?: string;
  format: FormatId;
}

/**
 * The skills under the workspace folders, for workspace symbols. Built on
 * first use and rebuilt after a SKILL.md is created, changed or deleted.
 */
export class SkillIndex {
  private symbols: IndexedSymbol[] | undefined;

  constructor(
    private readonly fs: FileSystem,
    private roots: string[] = [],
  ) {}

  setRoots(roots: string[]): void {
    this.roots = roots;
    this.symbols = undefined;
  }

  invalidate(): void {
    this.symbols = undefined;
  }

  /** The skills and steps whose names hold `query`, as workspace symbols. */
  search(query: string): SymbolInformation[] {
    this.symbols ??= this.build();
    const needle = query.toLowerCase();
    return this.symbols
      .filter((symbol) => symbol.name.toLowerCase().includes(needle))
      .map((symbol) => ({
        name: symbol.name,
        kind: symbol.kind === 'skill' ? SymbolKind.Module : SymbolKind.Function,
        location: { uri: pathToFileURL(symbol.file).href, range: symbol.range },
        ...(symbol.container ? { containerName: symbol.container } : {}),
      }));
  }

  private build(): IndexedSymbol[] {
    const symbols: IndexedSymbol[] = [];
    const existing = this.roots.filter((root) => this.fs.stat(root));
    for (const found of discoverSkills(this.fs, existing, '/').skills) {
      const analysis = analyzeSkill(this.fs, found.file);
      const lines = new LineIndex(analysis.text);
      const range = (span: Span) => lines.rangeOf(span);
      const skillName = analysis.name ?? found.file;
      symbols.push({
        name: skillName,
        kind: 'skill',
        file: found.file,
        range: range(analysis.syntax?.frontmatter?.open ?? { start: 0, end: 0 }),
        format: analysis.format,
      });
      for (const node of analysis.model.nodes) {
        symbols.push({
          name: node.id,
          kind: 'step',
          file: found.file,
          range: range(node.nameSpan),
          container: skillName,
          format: analysis.format,
        });
      }
    }
    return symbols;
  }
}
