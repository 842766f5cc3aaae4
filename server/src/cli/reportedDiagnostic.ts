import * as path from 'node:path';
import type { SkillAnalysis } from '../analyze';
import type { Diagnostic, Severity } from '../checks/diagnostic';
import { RULES, type RuleCode } from '../checks/rules';
import { LineIndex, type LspRange } from '../parse/lineIndex';
import type { FoundSkill } from '../workspace/discover';

/** A diagnostic as every output format sees it: a display path and an LSP range. */
export interface ReportedDiagnostic {
  file: string;
  code: RuleCode;
  severity: Severity;
  message: string;
  range: LspRange;
}

export interface CheckedSkill {
  found: FoundSkill;
  analysis: SkillAnalysis;
}

/** All a check run found, ready for a reporter. */
export interface CheckReport {
  skills: { dir: string; name?: string; format: string }[];
  diagnostics: ReportedDiagnostic[];
}

/** Converts offsets to line/character once, here, for every reporter. */
export function buildReport(checked: CheckedSkill[], misnamed: FoundSkill[]): CheckReport {
  const diagnostics: ReportedDiagnostic[] = [];
  for (const { found, analysis } of checked) {
    const lines = new LineIndex(analysis.text);
    for (const item of analysis.diagnostics) diagnostics.push(toReported(item, found.display, lines));
  }
  for (const file of misnamed) {
    diagnostics.push({
      file: file.display,
      code: 'missing_skill_md',
      severity: RULES.missing_skill_md.severity,
      message: `This skill file is named "${path.basename(file.file)}"; agents look for exactly "SKILL.md" and will not find this skill.`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    });
  }
  return {
    skills: checked.map(({ found, analysis }) => ({ dir: path.dirname(found.display), ...(analysis.name !== undefined ? { name: analysis.name } : {}), format: analysis.format })),
    diagnostics,
  };
}

function toReported(item: Diagnostic, display: string, lines: LineIndex): ReportedDiagnostic {
  return { file: display, code: item.code, severity: item.severity, message: item.message, range: lines.rangeOf(item.span) };
}

export function countBySeverity(diagnostics: ReportedDiagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const item of diagnostics) counts[item.severity]++;
  return counts;
}
