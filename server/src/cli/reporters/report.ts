import * as path from 'node:path';
import type { SkillAnalysis } from '../../analyze';
import type { Diagnostic, Severity } from '../../checks/diagnostic';
import type { ProfileChoice } from '../../checks/profiles';
import { RULES, type RuleCode } from '../../checks/rules';
import { SkillLines } from '../../parse/skillLines';
import type { LineIndex, LspRange } from '../../parse/lineIndex';
import type { FoundSkill } from '../../workspace/discover';

/** A diagnostic as every output format sees it: a display path and an LSP range. */
export interface ReportedDiagnostic {
  file: string;
  code: RuleCode;
  severity: Severity;
  message: string;
  range: LspRange;
}

export interface ReportedSkill {
  dir: string;
  name?: string;
  format: string;
  profile: ProfileChoice;
  strict?: true;
}

/** All a check run found, ready for a reporter. */
export interface CheckReport {
  skills: ReportedSkill[];
  diagnostics: ReportedDiagnostic[];
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
export function reportSkill(found: FoundSkill, analysis: SkillAnalysis): SkillReport {
  const skill = {
    dir: path.dirname(found.display),
    ...(analysis.name !== undefined ? { name: analysis.name } : {}),
    format: analysis.format,
    profile: analysis.profile,
    ...(analysis.strict ? { strict: true as const } : {}),
  };
  if (analysis.diagnostics.length === 0) return { skill, diagnostics: [] };
  // A skill+ finding is in the package file it is about (flow.py, references/x.md), shown beside the SKILL.md path.
  const lines = new SkillLines(analysis);
  const display = (file: string) =>
    file === analysis.file ? found.display : path.join(path.dirname(found.display), path.relative(analysis.dir, file));
  return {
    skill,
    diagnostics: analysis.diagnostics.map((item) => toReported(item, display(item.file), lines.of(item.file))),
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
      code: 'missing_skill_md',
      severity: RULES.missing_skill_md.severity,
      message: `This skill file is named "${path.basename(file.file)}"; agents look for exactly "SKILL.md" and will not find this skill.`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    });
  }
  return { skills: parts.map((part) => part.skill), diagnostics };
}

export function toReported(item: Diagnostic, display: string, lines: LineIndex): ReportedDiagnostic {
  return {
    file: display,
    code: item.code,
    severity: item.severity,
    message: item.message,
    range: lines.rangeOf(item.span),
  };
}

export function countBySeverity(diagnostics: ReportedDiagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const item of diagnostics) counts[item.severity]++;
  return counts;
}
