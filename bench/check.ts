import { cpSync, existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { writePlainSkill, writeWorkspace } from '../test/support/generate';
import { runNode } from './lib/run';
import { skillDirs } from './lib/floor.cjs';
import { percentile, round } from './lib/stats';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const FLOOR = path.join(__dirname, 'lib', 'floor.cjs');

export interface ScaleResult {
  skills: number;
  /** Threads `check` chose on its own for this many skills. */
  threads: number;
  /** Median of RUNS runs. */
  ms: number;
  runs: number[];
  /** The largest peak over the runs. */
  maxRssMiB: number;
  diagnostics: number;
  msPerSkill: number;
  /** The same with `--jobs 1`, where the default uses more threads. */
  oneThread?: { ms: number; runs: number[]; maxRssMiB: number };
  /**
   * The floor: bare `yaml.parse` of every SKILL.md's frontmatter and procedure block, in a process of its own; median
   * of RUNS runs, each after a one-thread run of `check`.
   */
  yamlParseMs: number;
  yamlParseRuns: number[];
}

export interface PeerRun {
  tool: string;
  how: string;
  corpus: string;
  skills: number;
  ms: number;
  maxRssMiB: number;
  findings: number;
}

// Five: on a busy machine one slow run of either side moved a median of three by more than the gap being measured.
const RUNS = 5;

/** One run of `skillgraph check` on `dir`, checked for the expected number of skills. */
function checkRun(dir: string, count: number, extra: string[]) {
  const run = runNode(CLI, ['check', dir, '--format', 'json', ...extra]);
  const report = JSON.parse(run.stdout) as { skills: unknown[]; diagnostics: unknown[] };
  if (report.skills.length !== count) throw new Error(`expected ${count} skills, found ${report.skills.length}`);
  return { ms: run.ms, maxRssMiB: run.maxRssMiB, diagnostics: report.diagnostics.length };
}

/** One run of the floor (bench/lib/floor.cjs) on `dir`, checked for the expected number of skills. */
function floorRun(dir: string, count: number): number {
  const run = runNode(FLOOR, [dir]);
  const skills = (JSON.parse(run.stdout) as { skills: number }).skills;
  if (skills !== count) throw new Error(`the floor parsed ${skills} skills, not ${count}`);
  return run.ms;
}

/** The median, the runs and the largest peak of several runs. */
function summarizeRuns(runs: { ms: number; maxRssMiB: number }[]) {
  return {
    ms: round(
      percentile(
        runs.map((run) => run.ms),
        50,
      ),
    ),
    runs: runs.map((run) => round(run.ms)),
    maxRssMiB: round(Math.max(...runs.map((run) => run.maxRssMiB))),
  };
}

/**
 * `skillgraph check` on workspaces of 100, 1,000 and 10,000 generated
 * skills, by default and on one thread, RUNS times each, every round
 * followed by a run of the floor, so a busier moment of the machine weighs
 * on both sides of the ratio.
 */
export function benchCheckScale(root: string): ScaleResult[] {
  return [100, 1000, 10000].map((count) => {
    const dir = path.join(root, `workspace-${count}`);
    if (!existsSync(dir)) writeWorkspace(dir, count);
    const text = runNode(CLI, ['check', dir]);
    const threads = Number(/checked on (\d+) threads/.exec(text.stderr)?.[1] ?? 1);
    const byDefault: ReturnType<typeof checkRun>[] = [];
    const oneThread: ReturnType<typeof checkRun>[] = [];
    const floor: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      byDefault.push(checkRun(dir, count, []));
      if (threads > 1) oneThread.push(checkRun(dir, count, ['--jobs', '1']));
      floor.push(floorRun(dir, count));
    }
    const summary = summarizeRuns(byDefault);
    return {
      skills: count,
      threads,
      ...summary,
      diagnostics: byDefault[0].diagnostics,
      msPerSkill: round(summary.ms / count, 3),
      ...(threads > 1 ? { oneThread: summarizeRuns(oneThread) } : {}),
      yamlParseMs: round(percentile(floor, 50)),
      yamlParseRuns: floor.map((ms) => round(ms)),
    };
  });
}

/** The same plain-skill corpus through Skillgraph and the offline Agent Skills checkers published on npm. */
export function benchPeers(root: string, corpusDir: string, label: string, peers: string): PeerRun[] {
  const dirs = skillDirs(corpusDir);
  const ours = runNode(CLI, ['check', corpusDir, '--format', 'json']);
  const oursReport = JSON.parse(ours.stdout) as { diagnostics: unknown[] };

  const skillsRef = path.join(peers, 'node_modules', 'skills-ref', 'dist', 'cli.js');
  let refMs = 0;
  let refRss = 0;
  let refFindings = 0;
  for (const dir of dirs) {
    const run = runNode(skillsRef, ['validate', dir]);
    refMs += run.ms;
    refRss = Math.max(refRss, run.maxRssMiB);
    refFindings += (run.stdout + run.stderr).split('\n').filter((line) => /^\s+- /.test(line)).length;
  }

  // claudelint reads a Claude Code project: the same skills under .claude/skills/.
  const project = path.join(root, `claude-project-${label}`);
  if (!existsSync(project)) {
    mkdirSync(path.join(project, '.claude', 'skills'), { recursive: true });
    for (const dir of dirs)
      cpSync(dir, path.join(project, '.claude', 'skills', path.basename(dir)), { recursive: true });
  }
  const claudelint = runNode(
    path.join(peers, 'node_modules', 'claude-code-lint', 'bin', 'claudelint'),
    ['check-all', '--no-cache', '--format', 'json'],
    { cwd: project },
  );
  const claudeReport = JSON.parse(claudelint.stdout) as { errorCount: number; warningCount: number };

  return [
    {
      tool: 'skillgraph',
      how: `node dist/cli.js check <corpus> --format json (every rule, default profile)`,
      corpus: label,
      skills: dirs.length,
      ms: round(ours.ms),
      maxRssMiB: round(ours.maxRssMiB),
      findings: oursReport.diagnostics.length,
    },
    {
      tool: 'skills-ref, the npm port (CLI, one process per skill)',
      how: 'node skills-ref/dist/cli.js validate <skill> once per skill, sequentially (its CLI takes one skill, so this counts a Node start per skill: its library in one process is compared below); time summed, memory the largest run, findings the "- " lines it prints',
      corpus: label,
      skills: dirs.length,
      ms: round(refMs),
      maxRssMiB: round(refRss),
      findings: refFindings,
    },
    {
      tool: 'claude-code-lint',
      how: 'claudelint check-all --no-cache --format json, in a project holding the same skills under .claude/skills/; findings = errorCount + warningCount',
      corpus: label,
      skills: dirs.length,
      ms: round(claudelint.ms),
      maxRssMiB: round(claudelint.maxRssMiB),
      findings: claudeReport.errorCount + claudeReport.warningCount,
    },
  ];
}

/** A plain corpus large enough to time: `count` generated plain skills. */
export function plainCorpus(root: string, count: number): string {
  const dir = path.join(root, `plain-${count}`);
  if (!existsSync(dir)) for (let i = 0; i < count; i++) writePlainSkill(dir, `plain-${String(i).padStart(4, '0')}`, i);
  return dir;
}
