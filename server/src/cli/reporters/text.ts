import type { CheckReport } from './report';

/** `file:line:col: severity: message [code]`, one per line, 1-based like compilers print. */
export function formatText(report: CheckReport): string {
  return report.diagnostics
    .map(
      (item) =>
        `${item.file}:${item.range.start.line + 1}:${item.range.start.character + 1}: ${item.severity}: ${item.message} [${item.code}]\n`,
    )
    .join('');
}
