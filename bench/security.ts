import { rmSync, writeFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { SECURITY_RULES } from '../server/src/rules';
import { writeWorkspace } from '../test/support/generate';
import { percentile, round } from './lib/stats';
import { runNode } from './lib/run';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const RUNS = 5;

/** `check` of one workspace with the security rules and without them, alternating. */
export interface SecurityComparison {
  with: { median: number; runs: number[] };
  without: { median: number; runs: number[] };
  ratio: number;
}

export interface SecurityResult extends SecurityComparison {
  skills: number;
}

/**
 * `skillgraph check` on the 1,000-skill workspace with the security rules, and with all of them turned off in its
 * configuration (then the analyzer does not run them, nor read the skills' files for them), alternating, RUNS times.
 */
export function benchSecurity(root: string, count = 1000): SecurityResult {
  const dir = path.join(root, `workspace-${count}`);
  if (!existsSync(dir)) writeWorkspace(dir, count);
  return { skills: count, ...compareSecurity(dir) };
}

/** `check --jobs 1` of `dir` with the security rules and with them off in a configuration at its root, alternating. */
export function compareSecurity(dir: string): SecurityComparison {
  const config = path.join(dir, '.skillgraph.yaml');
  const off = `rules:\n${SECURITY_RULES.map((rule) => `  ${rule.code}: off`).join('\n')}\n`;
  const withRuns: number[] = [];
  const withoutRuns: number[] = [];
  try {
    for (let round = 0; round < RUNS; round++) {
      rmSync(config, { force: true });
      withRuns.push(runNode(CLI, ['check', dir, '--jobs', '1']).ms);
      writeFileSync(config, off);
      withoutRuns.push(runNode(CLI, ['check', dir, '--jobs', '1']).ms);
    }
  } finally {
    rmSync(config, { force: true });
  }
  const median = (runs: number[]) => round(percentile(runs, 50));
  return {
    with: { median: median(withRuns), runs: withRuns.map((ms) => round(ms)) },
    without: { median: median(withoutRuns), runs: withoutRuns.map((ms) => round(ms)) },
    ratio: round(median(withRuns) / median(withoutRuns), 2),
  };
}
