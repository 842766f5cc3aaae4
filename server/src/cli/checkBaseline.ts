import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { baselineText, BaselineMatch, readBaseline, updatedBaseline, type Baseline } from '../config/baseline';
import type { RunSettings } from '../config/runSettings';
import type { FileSystem } from '../workspace/fileSystem';
import type { FoundSkill } from '../workspace/discover';
import { WriteRefused, writeAllOrNothing } from './atomicWrite';
import { plural, shownPath } from './output';
import type { SkillReport } from './reporters/report';

export class BaselineError extends Error {}

/**
 * The baseline of each checked skill: the one given on the command line,
 * else the one its configuration names, else none. Each file is read once.
 */
export class Baselines {
  private readonly read = new Map<string, Baseline>();

  constructor(
    private readonly fs: FileSystem,
    private readonly settings: RunSettings,
    private readonly given: string | undefined,
  ) {}

  /** The baseline file of a skill, if it has one. */
  fileFor(skillFile: string): string | undefined {
    return this.given !== undefined ? path.resolve(this.given) : this.settings.forSkill(skillFile).baseline;
  }

  /** The baseline in `file` (empty when the file does not exist yet); throws BaselineError when it is not one. */
  baseline(file: string): Baseline {
    let baseline = this.read.get(file);
    if (!baseline) {
      const result = readBaseline(this.fs, file);
      if ('error' in result) throw new BaselineError(result.error);
      this.read.set(file, (baseline = result));
    }
    return baseline;
  }

  /**
   * Each skill's report without the findings its baseline accepts; what was
   * matched, per baseline, for the summary.
   */
  filter(skills: FoundSkill[], parts: SkillReport[]): { parts: SkillReport[]; matches: BaselineMatch[] } {
    const matches = new Map<string, BaselineMatch>();
    const kept = parts.map((part, index) => {
      const file = this.fileFor(skills[index].file);
      if (file === undefined) return part;
      let match = matches.get(file);
      if (!match) matches.set(file, (match = new BaselineMatch(this.baseline(file))));
      const accepting = match;
      return {
        ...part,
        diagnostics: part.diagnostics.filter((item) => !accepting.accepts(path.resolve(item.file), item.fingerprint)),
      };
    });
    return { parts: kept, matches: [...matches.values()] };
  }

  /**
   * Writes every finding of the checked skills into their baselines (the
   * entries of skills not checked this time are kept), all files or none.
   * Returns one line per baseline written.
   */
  update(skills: FoundSkill[], parts: SkillReport[]): string[] {
    const byFile = new Map<string, { file: string; fingerprint: string }[]>();
    const checkedDirs = skills.map((found) => path.dirname(found.file) + path.sep);
    parts.forEach((part, index) => {
      const file = this.fileFor(skills[index].file);
      if (file === undefined) return;
      const findings = byFile.get(file) ?? [];
      for (const item of part.diagnostics)
        findings.push({ file: path.resolve(item.file), fingerprint: item.fingerprint });
      byFile.set(file, findings);
    });
    if (byFile.size === 0)
      throw new BaselineError(
        'no baseline file: give --baseline FILE, or set `baseline:` in .skillgraph.yaml (skillgraph init writes one)',
      );
    const checked = (file: string) => checkedDirs.some((dir) => file.startsWith(dir));
    const written = [...byFile].map(([file, findings]) => {
      const previous = this.baseline(file);
      return { previous, next: updatedBaseline(previous, checked, findings) };
    });
    try {
      writeAllOrNothing(
        written.map(({ next }) => {
          let before: Buffer | undefined;
          try {
            before = readFileSync(next.file);
          } catch {
            before = undefined;
          }
          return before
            ? { target: next.file, content: baselineText(next), expected: before }
            : { target: next.file, content: baselineText(next), create: true, mode: 0o644 };
        }),
        'the baseline',
      );
    } catch (error) {
      if (error instanceof WriteRefused) throw new BaselineError(error.message);
      throw error;
    }
    return written.map(({ previous, next }) => {
      const count = (baseline: Baseline) => baseline.entries.reduce((sum, entry) => sum + entry.count, 0);
      const files = new Set(next.entries.map((entry) => entry.file)).size;
      return `${shownPath(next.file)}: ${plural(count(next), 'finding')} in ${plural(files, 'file')} (it held ${count(previous)})`;
    });
  }
}
