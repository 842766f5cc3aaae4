import { analyzeSkill, sourceOf, type AnalyzeOptions, type SkillAnalysis } from '../analyze';
import type { Diagnostic, Severity } from '../checks/engine/diagnostic';
import { fingerprintOf, ownText } from '../rules/fingerprint';
import { LineIndex } from '../parse/text/lineIndex';
import { AnalysisFileSystem } from '../workspace/diskSnapshot';
import type { FileSystem } from '../workspace/fileSystem';
import { OverlayFileSystem } from '../workspace/overlayFileSystem';
import { readText } from '../workspace/readText';
import { applyChanges, chosenFix, compatibleFixes, type FixChoice } from './chooseFixes';
import type { Fix, TextChange } from '../checks/engine/fix';
import { fixesFor } from './skillFixes';
import { appendTo } from '../listMap';
import { invalidFlowFile, invalidFlowYaml, stateTypeUnreadable } from '../formats/skillplus';
import { invalidFrontmatter, missingFrontmatter, unclosedFence, yamlAliasLimit } from '../checks/skillFile/container';
import { invalidBodyYaml } from '../formats/aip';
import { unquotedColon } from '../formats/agent-skill';

/** How many rounds of fixes a skill gets: a fix may make room for another, never forever. */
const MAX_PASSES = 8;

/** One file as the fixes leave it. */
export interface FixedFile {
  file: string;
  /** The text the fixes were made against (as the analysis read it: no byte-order mark); empty for a new file. */
  before: string;
  after: string;
  /** A file the fixes create: written only where no file is. */
  created: boolean;
  /** The byte-order mark is removed (the text may be unchanged). */
  markRemoved: boolean;
}

/** A fix, and where its finding was in the text it was made against (0-based). */
export interface PlacedFix {
  fix: Fix;
  line: number;
  character: number;
}

export interface SkillFixes {
  /** The files that change, with their new text. */
  files: FixedFile[];
  /** The fixes applied, in the order they were. */
  applied: PlacedFix[];
  /** Fixes left out because the result had an error the skill did not have. */
  refused: PlacedFix[];
  /** The skill as the fixes leave it (the first analysis, when nothing changed). */
  analysis: SkillAnalysis;
  /** The first analysis: what was found before any fix. */
  initial: SkillAnalysis;
}

/**
 * Findings that mean a file could not be read (its YAML, its Python): the
 * checks of what it says did not run. A fix of one brings those checks'
 * findings to light; it is judged only on whether the file now reads.
 */
const READING: ReadonlySet<string> = new Set([
  missingFrontmatter.code,
  invalidFrontmatter.code,
  unquotedColon.code,
  yamlAliasLimit.code,
  unclosedFence.code,
  invalidBodyYaml.code,
  invalidFlowYaml.code,
  invalidFlowFile.code,
  stateTypeUnreadable.code,
]);

const isReadingFix = (fix: Fix) => READING.has(fix.diagnostic.code);

/**
 * Whether `after` has a finding at `levels` that `before` did not (counted: a second one like one already there is
 * new); after fixes of reading findings only, a finding that the file cannot be read.
 */
function addsProblems(before: SkillAnalysis, after: SkillAnalysis, levels: readonly Severity[], fixes: Fix[]): boolean {
  const readingOnly = fixes.every(isReadingFix);
  const keys = (analysis: SkillAnalysis) =>
    analysis.diagnostics
      .filter((item) => levels.includes(item.severity) && (!readingOnly || READING.has(item.code)))
      .map((item) => `${item.file}\0${fingerprintOf(item, ownText(sourceOf(analysis, item.file), item.span))}`);
  const left = new Map<string, number>();
  for (const key of keys(before)) left.set(key, (left.get(key) ?? 0) + 1);
  return keys(after).some((key) => {
    const count = left.get(key) ?? 0;
    left.set(key, count - 1);
    return count === 0;
  });
}

/** What a round of fixes may not add; what one fix alone may not add (it may bring to light a warning an error hid). */
const ROUND_LEVELS: Severity[] = ['error', 'warning'];
const SINGLE_LEVELS: Severity[] = ['error'];

/**
 * The fixes `choice` allows, applied to one skill in memory: round by
 * round (a fix that overlaps another waits for the next round), each round
 * checked again. A round whose result has an error or a warning the text
 * before it did not have is retried one fix at a time: a fix that adds an
 * error alone is left out; of the rest, the first is applied (two fixes
 * fine alone may clash together, such as two that add the same key). Fixes
 * that make a file readable (quoting a value YAML cannot read) go in a round
 * of their own, judged only on whether the file now reads: what the checks
 * then find was there all along.
 * Reads through `fs`, writes nothing: the caller writes `files`.
 */
export function fixSkill(disk: FileSystem, skillFile: string, options: AnalyzeOptions, choice: FixChoice): SkillFixes {
  // One snapshot of the disk for every analysis of the skill: what the fixes do not change is read once.
  const fs = new AnalysisFileSystem(disk);
  const initial = analyzeSkill(fs, skillFile, options);
  const files = new Map<string, FixedFile>();
  const applied: PlacedFix[] = [];
  const refused: PlacedFix[] = [];
  const placed = (fix: Fix, analysis: SkillAnalysis): PlacedFix => ({
    fix,
    ...new LineIndex(sourceOf(analysis, fix.diagnostic.file)).positionAt(fix.diagnostic.span.start),
  });
  const refusedKeys = new Set<string>();
  const keyOf = (fix: Fix, analysis: SkillAnalysis) =>
    `${fix.diagnostic.file}\0${fingerprintOf(fix.diagnostic, ownText(sourceOf(analysis, fix.diagnostic.file), fix.diagnostic.span))}\0${fix.title}`;

  /** The files as they are with `fixes` applied over what is already fixed; undefined if one cannot be read. */
  const withFixes = (analysis: SkillAnalysis, fixes: Fix[]): Map<string, FixedFile> | undefined => {
    const next = new Map([...files].map(([file, fixed]) => [file, { ...fixed }]));
    const changes = new Map<string, TextChange[]>();
    for (const edit of fixes.flatMap((fix) => fix.edits)) {
      let fixed = next.get(edit.file);
      if (!fixed) {
        const exists = fs.stat(edit.file) !== undefined;
        if (edit.kind === 'create') {
          if (exists) return undefined;
          fixed = { file: edit.file, before: '', after: '', created: true, markRemoved: false };
        } else {
          const read =
            edit.file === analysis.file || analysis.sources.has(edit.file) ? undefined : readText(fs, edit.file);
          if (read && read.kind !== 'text') return undefined;
          const text = read ? read.text : sourceOf(analysis, edit.file);
          fixed = { file: edit.file, before: text, after: text, created: false, markRemoved: false };
        }
        next.set(edit.file, fixed);
      }
      if (edit.kind === 'create') fixed.after = edit.text;
      else if (edit.kind === 'remove-bom') fixed.markRemoved = true;
      else appendTo(changes, edit.file, edit);
    }
    for (const [file, list] of changes) {
      const fixed = next.get(file)!;
      fixed.after = applyChanges(fixed.after, list);
    }
    return next;
  };

  /** The skill analysed with `candidate` files in place of the disk's. */
  const analyse = (candidate: Map<string, FixedFile>): SkillAnalysis => {
    const texts = new Map<string, string>();
    for (const fixed of candidate.values()) {
      // A mark that stays is part of what the analysis reads (it reports it).
      const read = fixed.created ? undefined : readText(fs, fixed.file);
      const mark = read?.kind === 'text' && read.bom && !fixed.markRemoved ? '\uFEFF' : '';
      texts.set(fixed.file, mark + fixed.after);
    }
    return analyzeSkill(new OverlayFileSystem(fs, texts), skillFile, options);
  };

  let analysis = initial;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const chosen = analysis.diagnostics
      .map((item: Diagnostic) => chosenFix(fixesFor(analysis, item), choice))
      .filter((fix): fix is Fix => fix !== undefined && !refusedKeys.has(keyOf(fix, analysis)));
    const compatible = compatibleFixes(chosen);
    // Fixes that make a file readable go first, alone: what the checks then find is judged in the next round.
    const reading = compatible.filter(isReadingFix);
    const round = reading.length > 0 ? reading : compatible;
    if (round.length === 0) break;
    const candidate = withFixes(analysis, round);
    const result = candidate && analyse(candidate);
    if (candidate && result && !addsProblems(analysis, result, ROUND_LEVELS, round)) {
      for (const [file, fixed] of candidate) files.set(file, fixed);
      applied.push(...round.map((fix) => placed(fix, analysis)));
      analysis = result;
      continue;
    }
    // Something in the round adds a problem: each fix is tried alone. Those that add an error are left out (and not
    // tried again); of the others the first is applied, and the next round makes the rest again against the new text.
    let firstGood: { fix: Fix; files: Map<string, FixedFile>; analysis: SkillAnalysis } | undefined;
    for (const fix of round) {
      const single = withFixes(analysis, [fix]);
      const checked = single && analyse(single);
      if (single && checked && !addsProblems(analysis, checked, SINGLE_LEVELS, [fix])) {
        firstGood ??= { fix, files: single, analysis: checked };
        continue;
      }
      refused.push(placed(fix, analysis));
      refusedKeys.add(keyOf(fix, analysis));
    }
    if (firstGood) {
      for (const [file, fixed] of firstGood.files) files.set(file, fixed);
      applied.push(placed(firstGood.fix, analysis));
      analysis = firstGood.analysis;
    }
  }
  const changed = [...files.values()].filter(
    (fixed) => fixed.created || fixed.markRemoved || fixed.after !== fixed.before,
  );
  return { files: changed, applied, refused, analysis, initial };
}
