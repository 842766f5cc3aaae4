import * as path from 'node:path';
import type { Diagnostic } from '../checks/engine/diagnostic';
import type { RunSettings } from '../config/runSettings';
import { appendTo } from '../listMap';
import { checkLibrary } from '../library/libraryChecks';
import { linkLibrary, readLibrarySkill, type LibrarySkill } from '../library/libraryModel';
import { profilesFrom } from '../library/skillListBudget';
import { LineIndex } from '../parse/text/lineIndex';
import { libraryFindingsIn } from '../rules/libraryFindings';
import type { FoundSkill } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import type { CheckedSkill } from './checkSkills';
import { toReported, type ReportedDiagnostic, type SkillReport } from './reporters/report';

// `check` reports the library's findings with each skill's own: the library is every skill the run found (a shard
// reads them all, and reports the findings of its own skills only, so the shards joined are one run's report).

export interface LibraryRun {
  fs: FileSystem;
  settings: RunSettings;
  home: string;
  /** Every skill found, in the order found. */
  found: FoundSkill[];
  /** The ones checked (all, or a shard's slice of them), from `from` in `found`. */
  checked: CheckedSkill[];
  from: number;
}

/** Each checked skill's report with the library's findings in its SKILL.md among its own, in their order. */
export function withLibraryFindings(run: LibraryRun): SkillReport[] {
  const { fs, settings, found, checked, from } = run;
  const skills = found.flatMap((skill, at): LibrarySkill[] => {
    const mine = checked[at - from];
    if (mine) return mine.librarySkill ? [mine.librarySkill] : [];
    const read = readLibrarySkill(fs, path.resolve(skill.file), run.home);
    return read ? [read] : [];
  });
  const byFile = new Map<string, Diagnostic[]>();
  for (const item of checkLibrary(linkLibrary(skills), profilesFrom(settings))) appendTo(byFile, item.file, item);
  const shownOf = new Map(found.map((skill) => [path.resolve(skill.file), skill.display]));
  const shown = (file: string) => shownOf.get(file) ?? file;
  return checked.map(({ report, librarySkill }) => {
    if (!librarySkill) return report;
    const { file } = librarySkill;
    const findings = byFile.get(file) ?? [];
    if (findings.length === 0 && !librarySkill.hasSuppressions) return report;
    const read = readText(fs, file);
    if (read.kind !== 'text') return report;
    const lines = new LineIndex(read.text);
    const added = libraryFindingsIn(file, read.text, findings, settings.forSkill(file)).map((item) =>
      toReported(item, shown(file), lines, read.text, shown),
    );
    return added.length === 0 ? report : { ...report, diagnostics: inOrder(report.diagnostics, added) };
  });
}

/** Findings by file (as the analysis orders them), then by place, then by code. */
function compare(a: ReportedDiagnostic, b: ReportedDiagnostic): number {
  return (
    a.file.localeCompare(b.file) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.range.end.line - b.range.end.line ||
    a.range.end.character - b.range.end.character ||
    a.code.localeCompare(b.code)
  );
}

/** `added` put among a skill's findings (already in order), each before the first that comes after it. */
function inOrder(own: ReportedDiagnostic[], added: ReportedDiagnostic[]): ReportedDiagnostic[] {
  const merged = [...own];
  for (const item of [...added].sort(compare)) {
    const at = merged.findIndex((other) => compare(other, item) > 0);
    merged.splice(at === -1 ? merged.length : at, 0, item);
  }
  return merged;
}
