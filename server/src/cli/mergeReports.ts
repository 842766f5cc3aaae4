import { readFileSync } from 'node:fs';
import type { Command } from './commandOptions';
import { emitReport } from './emitReport';
import { EXIT_USAGE } from './exits';
import { printErr } from './output';
import type { CheckReport } from './reporters/report';

// `skillgraph merge-reports`: the JSON reports of `check --shard 1/N … N/N`, run on N CI runners, joined into the
// report one run over all the skills writes (the shards' slices are in the order found, so joining them in order
// keeps it), in any of check's formats and with its exit status.

type ShardReport = Required<Pick<CheckReport, 'shard'>> & CheckReport & { version: number };

class MergeError extends Error {}

function readShard(file: string): ShardReport {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MergeError(`${file}: ${(error as NodeJS.ErrnoException).code ? 'cannot be read' : 'is not JSON'}`);
  }
  const report = value as Partial<ShardReport> | null;
  if (!report || report.version !== 1 || !Array.isArray(report.skills) || !Array.isArray(report.diagnostics))
    throw new MergeError(`${file}: not a report of skillgraph check --format json`);
  if (!report.shard) throw new MergeError(`${file}: a report of all the skills, not of one shard (check --shard K/N)`);
  return report as ShardReport;
}

/** The reports as one: every shard of one count, each once, joined in shard order. */
export function mergeShards(files: string[]): CheckReport {
  const shards = files.map(readShard);
  const count = shards[0].shard.count;
  const byIndex = new Map<number, ShardReport>();
  shards.forEach((report, at) => {
    if (report.shard.count !== count)
      throw new MergeError(
        `${files[at]}: shard ${report.shard.index}/${report.shard.count}, but ${files[0]} is of ${count}`,
      );
    if (byIndex.has(report.shard.index))
      throw new MergeError(`${files[at]}: shard ${report.shard.index}/${count} twice`);
    byIndex.set(report.shard.index, report);
  });
  const missing = Array.from({ length: count }, (_, at) => at + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0)
    throw new MergeError(
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((index) => `${index}/${count}`).join(', ')} missing`,
    );
  const ordered = [...byIndex.keys()].sort((a, b) => a - b).map((index) => byIndex.get(index)!);
  // A baseline is matched by every shard that has skills under it; each counts its own skills' entries.
  const baselines = new Map<string, { file: string; matched: number; stale: number }>();
  for (const report of ordered)
    for (const baseline of report.baselines ?? []) {
      const merged = baselines.get(baseline.file);
      if (merged) {
        merged.matched += baseline.matched;
        merged.stale += baseline.stale;
      } else baselines.set(baseline.file, { ...baseline });
    }
  return {
    skills: ordered.flatMap((report) => report.skills),
    diagnostics: ordered.flatMap((report) => report.diagnostics),
    ...(baselines.size > 0 ? { baselines: [...baselines.values()] } : {}),
  };
}

export function runMergeReports(command: Extract<Command, { command: 'merge-reports' }>): number {
  let report: CheckReport;
  try {
    report = mergeShards(command.files);
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
  return emitReport(report, command.format, {
    ...(command.maxWarnings !== undefined ? { maxWarnings: command.maxWarnings } : {}),
  });
}
