import * as path from 'node:path';
import { sourceOf, type SkillAnalysis } from '../../analyze';
import type { Diagnostic, Severity } from '../../checks/engine/diagnostic';
import type { ProfileChoice } from '../../platforms/profiles';
import { fingerprintOf, ownText } from '../../rules/fingerprint';
import { bestTier } from '../../fixes/chooseFixes';
import type { FixTier } from '../../checks/engine/fix';
import { fixesFor } from '../../fixes/skillFixes';
import { SkillLines } from '../../parse/text/skillLines';
import { FILE_START_RANGE, type LineIndex } from '../../parse/text/lineIndex';
import type { FoundSkill } from '../../workspace/discover';
import type { FileSystem } from '../../workspace/fileSystem';
import { skillFiles, skillHash } from '../../workspace/skillHash';
import { missingSkillMd } from '../../checks/skillFile/unreadableFile';
import type { LspRange } from '../../protocol';

/** A diagnostic as every output format sees it: a display path and an LSP range. */
export interface ReportedDiagnostic {
  file: string;
  code: string;
  severity: Severity;
  message: string;
  range: LspRange;
  /** What the finding is about, not where (rules/fingerprint.ts): its key in a baseline. */
  fingerprint: string;
  /** The tier of the fix `skillgraph fix` would apply, when it has one (reported when asked for: JSON). */
  fix?: FixTier;
  /** The other places a finding about several skills is about, with display paths (the library's). */
  related?: { file: string; range: LspRange; message: string }[];
}

export interface ReportedSkill {
  dir: string;
  name?: string;
  format: string;
  profile: ProfileChoice;
  strict?: true;
  /** The skill revision's content hash, as `skillgraph hash` prints it (check --hash). */
  hash?: string;
}

/** All a check run found, ready for a reporter. */
export interface CheckReport {
  skills: ReportedSkill[];
  diagnostics: ReportedDiagnostic[];
  /** The baselines the findings were matched against: how many each accepted, and how many it holds that are gone. */
  baselines?: { file: string; matched: number; stale: number }[];
  /** The shard of the skills the run checked (`check --shard K/N`): `index` of `count`, from 1. */
  shard?: { index: number; count: number };
}

/** What one skill contributes to a report: small and plain, so it can cross a thread boundary. */
export interface SkillReport {
  skill: ReportedSkill;
  diagnostics: ReportedDiagnostic[];
}

/**
 * One skill's part of the report. Offsets become line/character once, here,
 * for every reporter; the analysis itself (text, syntax trees, model) is not
 * kept, so memory grows with the findings, not with the workspace.
 */
export function reportSkill(
  found: FoundSkill,
  analysis: SkillAnalysis,
  withFixes = false,
  /** Given, the skill's content hash is reported, its files read from here (check --hash). */
  hashFrom?: FileSystem,
): SkillReport {
  const skill = {
    dir: path.dirname(found.display),
    ...(analysis.name !== undefined ? { name: analysis.name } : {}),
    format: analysis.format,
    profile: analysis.profile,
    ...(analysis.strict ? { strict: true as const } : {}),
    ...(hashFrom ? { hash: skillHash(skillFiles(hashFrom, analysis.dir)) } : {}),
  };
  if (analysis.diagnostics.length === 0) return { skill, diagnostics: [] };
  // A skill+ finding is in the package file it is about (flow.py, references/x.md), shown beside the SKILL.md path.
  const lines = new SkillLines(analysis);
  const display = (file: string) =>
    file === analysis.file ? found.display : path.join(path.dirname(found.display), path.relative(analysis.dir, file));
  return {
    skill,
    diagnostics: analysis.diagnostics.map((item) => {
      const reported = toReported(item, display(item.file), lines.of(item.file), sourceOf(analysis, item.file));
      const fix = withFixes ? bestTier(fixesFor(analysis, item)) : undefined;
      return fix ? { ...reported, fix } : reported;
    }),
  };
}

/** The whole report from each skill's part, in the order the skills were found, and the configurations' findings. */
export function assembleReport(
  parts: SkillReport[],
  misnamed: FoundSkill[],
  configFindings: ReportedDiagnostic[] = [],
): CheckReport {
  const diagnostics = [...configFindings, ...parts.flatMap((part) => part.diagnostics)];
  for (const file of misnamed) {
    diagnostics.push({
      file: file.display,
      code: missingSkillMd.code,
      severity: missingSkillMd.severity,
      message: `This skill file is named "${path.basename(file.file)}"; agents look for exactly "SKILL.md" and will not find this skill.`,
      range: FILE_START_RANGE,
      fingerprint: fingerprintOf({ code: missingSkillMd.code }, path.basename(file.file)),
    });
  }
  return { skills: parts.map((part) => part.skill), diagnostics };
}

/**
 * A finding as reported: `text` is the text of its file, for its fingerprint; `shown` gives the display path of a
 * related place's file.
 */
export function toReported(
  item: Diagnostic,
  display: string,
  lines: LineIndex,
  text: string,
  shown: (file: string) => string = (file) => file,
): ReportedDiagnostic {
  return {
    file: display,
    code: item.code,
    severity: item.severity,
    message: item.message,
    range: lines.rangeOf(item.span),
    fingerprint: fingerprintOf(item, ownText(text, item.span)),
    ...(item.related ? { related: item.related.map((place) => ({ ...place, file: shown(place.file) })) } : {}),
  };
}

export function countBySeverity(diagnostics: ReportedDiagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const item of diagnostics) counts[item.severity]++;
  return counts;
}
