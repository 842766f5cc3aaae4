import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { writePlainSkill, writeWorkspace } from './lib/generate';
import { runNode } from './lib/run';
import { yamlRegions } from './lib/floor';
import { percentile, round } from './lib/stats';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

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
  /** The floor: bare `yaml.parse` of every SKILL.md's frontmatter and procedure block, one after another, in one process. */
  yamlParseMs: number;
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

const RUNS = 3;

/** RUNS runs of `skillgraph check` on `dir`, checked for the expected number of skills. */
function checkRuns(dir: string, count: number, extra: string[]) {
  const runs = Array.from({ length: RUNS }, () => {
    const run = runNode(CLI, ['check', dir, '--format', 'json', ...extra]);
    const report = JSON.parse(run.stdout) as { skills: unknown[]; diagnostics: unknown[] };
    if (report.skills.length !== count) throw new Error(`expected ${count} skills, found ${report.skills.length}`);
    return { ms: run.ms, maxRssMiB: run.maxRssMiB, diagnostics: report.diagnostics.length };
  });
  return { ms: round(percentile(runs.map((run) => run.ms), 50)), runs: runs.map((run) => round(run.ms)), maxRssMiB: round(Math.max(...runs.map((run) => run.maxRssMiB))), diagnostics: runs[0].diagnostics };
}

/** What parsing alone costs on a workspace: the YAML of every SKILL.md through `yaml.parse`. */
function yamlParseFloor(dir: string): number {
  const start = performance.now();
  for (const skill of skillDirs(dir)) {
    for (const region of yamlRegions(readFileSync(path.join(skill, 'SKILL.md'), 'utf8'))) parse(region);
  }
  return round(performance.now() - start);
}

/** `skillgraph check` on workspaces of 100, 1,000 and 10,000 generated skills, by default and on one thread. */
export function benchCheckScale(root: string): ScaleResult[] {
  return [100, 1000, 10000].map((count) => {
    const dir = path.join(root, `workspace-${count}`);
    if (!existsSync(dir)) writeWorkspace(dir, count);
    const text = runNode(CLI, ['check', dir]);
    const threads = Number(/checked on (\d+) threads/.exec(text.stderr)?.[1] ?? 1);
    const byDefault = checkRuns(dir, count, []);
    const oneThread = threads > 1 ? checkRuns(dir, count, ['--jobs', '1']) : undefined;
    return {
      skills: count,
      threads,
      ...byDefault,
      msPerSkill: round(byDefault.ms / count, 3),
      ...(oneThread ? { oneThread: { ms: oneThread.ms, runs: oneThread.runs, maxRssMiB: oneThread.maxRssMiB } } : {}),
      yamlParseMs: yamlParseFloor(dir),
    };
  });
}

function skillDirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (!entry.isDirectory()) return [];
    return existsSync(path.join(full, 'SKILL.md')) ? [full] : skillDirs(full);
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
    for (const dir of dirs) cpSync(dir, path.join(project, '.claude', 'skills', path.basename(dir)), { recursive: true });
  }
  const claudelint = runNode(path.join(peers, 'node_modules', 'claude-code-lint', 'bin', 'claudelint'), ['check-all', '--no-cache', '--format', 'json'], { cwd: project });
  const claudeReport = JSON.parse(claudelint.stdout) as { errorCount: number; warningCount: number };

  return [
    { tool: 'skillgraph', how: `node dist/cli.js check <corpus> --format json (every rule, default profile)`, corpus: label, skills: dirs.length, ms: round(ours.ms), maxRssMiB: round(ours.maxRssMiB), findings: oursReport.diagnostics.length },
    { tool: 'skills-ref (CLI, one process per skill)', how: 'node skills-ref/dist/cli.js validate <skill> once per skill, sequentially (its CLI takes one skill, so this counts a Node start per skill: its library in one process is compared below); time summed, memory the largest run, findings the "- " lines it prints', corpus: label, skills: dirs.length, ms: round(refMs), maxRssMiB: round(refRss), findings: refFindings },
    { tool: 'claude-code-lint', how: 'claudelint check-all --no-cache --format json, in a project holding the same skills under .claude/skills/; findings = errorCount + warningCount', corpus: label, skills: dirs.length, ms: round(claudelint.ms), maxRssMiB: round(claudelint.maxRssMiB), findings: claudeReport.errorCount + claudeReport.warningCount },
  ];
}

/** A plain corpus large enough to time: `count` generated plain skills. */
export function plainCorpus(root: string, count: number): string {
  const dir = path.join(root, `plain-${count}`);
  if (!existsSync(dir)) for (let i = 0; i < count; i++) writePlainSkill(dir, `plain-${String(i).padStart(4, '0')}`, i);
  return dir;
}
