import type { SkillAnalysis } from '../analyze';
import { LineIndex, type LspRange, type Span } from '../parse/lineIndex';

/**
 * Line indexes for every file of an analysis: SKILL.md, and for a skill+
 * package each file its spans point into. A span without a file is in
 * SKILL.md.
 */
export class AnalysisLines {
  private readonly indexes = new Map<string, LineIndex>();

  constructor(private readonly analysis: Pick<SkillAnalysis, 'file' | 'text' | 'sources'>) {}

  of(file: string | undefined): LineIndex {
    const key = file ?? this.analysis.file;
    let index = this.indexes.get(key);
    if (!index) {
      index = new LineIndex(key === this.analysis.file ? this.analysis.text : this.analysis.sources.get(key) ?? '');
      this.indexes.set(key, index);
    }
    return index;
  }

  rangeOf(span: Span): LspRange {
    return this.of(span.file).rangeOf(span);
  }
}
