import type { CheckReport } from './report';

/** One JSON object (schemas/check-report.schema.json), 0-based LSP positions. */
export function formatJson(report: CheckReport): string {
  const { skills, diagnostics, baselines, shard } = report;
  return (
    JSON.stringify(
      { version: 1, skills, diagnostics, ...(baselines ? { baselines } : {}), ...(shard ? { shard } : {}) },
      null,
      2,
    ) + '\n'
  );
}
