import { LineIndex, type Span } from './lineIndex';
import type { TextLike } from './textLike';
import type { LspRange } from '../../protocol';

/** The texts of a skill's files: SKILL.md's, and every other file a span may point into, by absolute path. */
export interface SkillTexts {
  file: string;
  source: TextLike;
  sources: ReadonlyMap<string, string>;
}

/**
 * Line indexes for every file of a skill: SKILL.md, and for a skill+
 * package each file its spans point into. A span without a file is in
 * SKILL.md. The language server makes one per version of an open
 * document, from the last one (an edit then costs the lines it touched).
 */
export class SkillLines {
  private readonly indexes = new Map<string, LineIndex>();
  /**
   * The indexes of an earlier version of the skill's files, each made into this version's when first asked for (and
   * then dropped, so versions do not chain).
   */
  private readonly earlier: Map<string, LineIndex>;

  constructor(
    private readonly texts: SkillTexts,
    earlier?: SkillLines,
  ) {
    this.earlier = new Map(earlier?.indexes);
  }

  of(file: string | undefined): LineIndex {
    const key = file ?? this.texts.file;
    let index = this.indexes.get(key);
    if (!index) {
      index = LineIndex.after(
        this.earlier.get(key),
        key === this.texts.file ? this.texts.source : (this.texts.sources.get(key) ?? ''),
      );
      this.indexes.set(key, index);
      this.earlier.delete(key);
    }
    return index;
  }

  rangeOf(span: Span): LspRange {
    return this.of(span.file).rangeOf(span);
  }
}
