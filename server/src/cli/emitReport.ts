import * as path from 'node:path';
import { version } from '../../../package.json';
import type { CheckFormat } from './commandOptions';
import { EXIT_CLEAN, EXIT_FINDINGS } from './exits';
import { plural, printErr, printOut } from './output';
import { formatGithub } from './reporters/github';
import { formatJson } from './reporters/json';
import { countBySeverity, type CheckReport } from './reporters/report';
import { formatSarif } from './reporters/sarif';
import { formatText } from './reporters/text';

/** Docs ship beside dist/ in the package: dist/cli-main.js → docs/rules. */
const DOCS_DIR = path.join(__dirname, '..', 'docs', 'rules');

/**
 * A check report written in `format`, with text's summary on stderr, and the run's exit status: findings with errors,
 * or more warnings than `maxWarnings`, exit 1. `check` and `merge-reports` end here alike.
 */
export function emitReport(
  report: CheckReport,
  format: CheckFormat,
  options: { maxWarnings?: number; summary?: string } = {},
): number {
  printOut(formatReport(report, format));
  const counts = countBySeverity(report.diagnostics);
  if (format === 'text') {
    const baselines = report.baselines ?? [];
    const accepted = baselines.reduce((sum, baseline) => sum + baseline.matched, 0);
    const stale = baselines.reduce((sum, baseline) => sum + baseline.stale, 0);
    printErr(
      `${plural(report.skills.length, 'skill')} checked${options.summary ?? ''}: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.information + counts.hint, 'note')}${accepted > 0 ? `; ${accepted} more in the baseline` : ''}\n`,
    );
    if (stale > 0)
      printErr(
        `skillgraph: ${plural(stale, 'finding')} in the baseline ${stale === 1 ? 'is' : 'are'} gone; --update-baseline drops ${stale === 1 ? 'it' : 'them'}\n`,
      );
  }
  return exitStatus(report, options.maxWarnings);
}

/** A report in one of check's formats. */
export function formatReport(report: CheckReport, format: CheckFormat): string {
  return format === 'json'
    ? formatJson(report)
    : format === 'sarif'
      ? formatSarif(report, { version, docsDir: DOCS_DIR })
      : format === 'github'
        ? formatGithub(report)
        : formatText(report);
}

/** Exit 1 with errors, or with more warnings than `maxWarnings` (said on stderr); else 0. */
export function exitStatus(report: Pick<CheckReport, 'diagnostics'>, maxWarnings: number | undefined): number {
  const counts = countBySeverity(report.diagnostics);
  if (counts.error > 0) return EXIT_FINDINGS;
  if (maxWarnings !== undefined && counts.warning > maxWarnings) {
    printErr(`skillgraph: ${counts.warning} warnings, more than --max-warnings ${maxWarnings}\n`);
    return EXIT_FINDINGS;
  }
  return EXIT_CLEAN;
}
