import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeWorkspace } from '../test/support/generate';
import { runNode } from './lib/run';
import { percentile, round } from './lib/stats';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
// Five, alternating: on a busy machine one slow run of either side moved a median of three by more than the gap.
const RUNS = 5;

export interface AdoptionResult {
  skills: number;
  /** Findings `check` reports on the workspace before any fix. */
  findings: number;
  /** Fixes `fix` applies (safe ones). */
  fixes: number;
  check: { median: number; runs: number[] };
  /** `fix --dry-run`: every fix made and checked, nothing written. */
  fixDryRun: { median: number; runs: number[]; ratio: number };
  /** `fix` writing its files, on a fresh copy each run. */
  fix: { median: number; runs: number[]; ratio: number };
  baseline: {
    entries: number;
    check: { median: number; runs: number[] };
    withBaseline: { median: number; runs: number[] };
    ratio: number;
  };
}

/**
 * The generated workspace with the mistakes a library really has: a third of
 * the skills with a description YAML cannot read (`Use when: …`), a fifth
 * with CRLF line endings, a seventh linking its guide with a backslash, and
 * half naming a file that does not exist (a finding with no fix).
 */
function untidy(dir: string, count: number): void {
  writeWorkspace(dir, count);
  readdirSync(dir).forEach((name, i) => {
    const file = path.join(dir, name, 'SKILL.md');
    let text = readFileSync(file, 'utf8');
    if (i % 3 === 0) text = text.replace(/\ndescription: ([^\n]*)/, '\ndescription: Use when: $1');
    if (i % 7 === 0) text = text.replace('(references/guide.md)', '(references\\guide.md)');
    if (i % 2 === 0) text += `\nRead \`references/missing-${i}.md\` before starting.\n`;
    if (i % 5 === 0) text = text.replace(/\n/g, '\r\n');
    writeFileSync(file, text);
  });
}

const median = (runs: number[]) => round(percentile(runs, 50));

/**
 * `skillgraph fix` and `check --baseline` on 1,000 skills with fixable
 * findings, each against `check` of the same skills, alternating run by
 * run: fix (dry run, and writing) ≤ 2× check; the baseline's cost ≤ 1.1×.
 */
export function benchAdoption(root: string, count = 1000): AdoptionResult {
  const dir = path.join(root, `untidy-${count}`);
  if (!existsSync(dir)) untidy(dir, count);
  const findings = (JSON.parse(runNode(CLI, ['check', dir, '--format', 'json']).stdout) as { diagnostics: unknown[] })
    .diagnostics.length;
  const baseline = path.join(root, `untidy-${count}-baseline.json`);
  rmSync(baseline, { force: true });
  const update = runNode(CLI, ['check', dir, '--baseline', baseline, '--update-baseline']);
  if (update.status !== 0) throw new Error(`--update-baseline failed: ${update.stderr}`);
  const entries = (JSON.parse(readFileSync(baseline, 'utf8')) as { findings: unknown[] }).findings.length;
  const copy = path.join(root, `untidy-${count}-fixed`);
  const check: number[] = [];
  const dryRun: number[] = [];
  const fix: number[] = [];
  const plain: number[] = [];
  const withBaseline: number[] = [];
  let fixes = 0;
  for (let run = 0; run < RUNS; run++) {
    check.push(runNode(CLI, ['check', dir]).ms);
    const dry = runNode(CLI, ['fix', dir, '--dry-run']);
    if (dry.status !== 1) throw new Error(`fix --dry-run found nothing to change: ${dry.stderr}`);
    dryRun.push(dry.ms);
    rmSync(copy, { recursive: true, force: true });
    cpSync(dir, copy, { recursive: true });
    const written = runNode(CLI, ['fix', copy]);
    fixes = Number(/^Fixed (\d+) problems/m.exec(written.stderr)?.[1] ?? 0);
    if (fixes === 0) throw new Error(`fix fixed nothing: ${written.stderr}`);
    fix.push(written.ms);
    plain.push(runNode(CLI, ['check', dir]).ms);
    withBaseline.push(runNode(CLI, ['check', dir, '--baseline', baseline]).ms);
  }
  rmSync(copy, { recursive: true, force: true });
  const checkMedian = median(check);
  return {
    skills: count,
    findings,
    fixes,
    check: { median: checkMedian, runs: check.map((ms) => round(ms)) },
    fixDryRun: {
      median: median(dryRun),
      runs: dryRun.map((ms) => round(ms)),
      ratio: round(median(dryRun) / checkMedian),
    },
    fix: { median: median(fix), runs: fix.map((ms) => round(ms)), ratio: round(median(fix) / checkMedian) },
    baseline: {
      entries,
      check: { median: median(plain), runs: plain.map((ms) => round(ms)) },
      withBaseline: { median: median(withBaseline), runs: withBaseline.map((ms) => round(ms)) },
      ratio: round(median(withBaseline) / median(plain)),
    },
  };
}
