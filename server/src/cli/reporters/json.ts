import type { CheckReport } from './report';

/** One JSON object (schemas/check-report.schema.json), 0-based LSP positions. */
export function formatJson(report: CheckReport): string {
  return JSON.stringify({ version: 1, skills: report.skills, diagnostics: report.diagnostics }, null, 2) + '\n';
}
