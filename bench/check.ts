import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { writePlainSkill, writeWorkspace } from './lib/generate';
import { runNode } from './lib/run';
import { round } from './lib/stats';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

export interface ScaleResult {
  skills: number;
  ms: number;
  maxRssMiB: number;
  diagnostics: number;
  msPerSkill: number;
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

/** `skillgraph check` on workspaces of 100, 1,000 and 10,000 generated skills. */
export function benchCheckScale(root: string): ScaleResult[] {
  return [100, 1000, 10000].map((count) => {
    const dir = path.join(root, `workspace-${count}`);
    if (!existsSync(dir)) writeWorkspace(dir, count);
    const run = runNode(CLI, ['check', dir, '--format', 'json']);
    const report = JSON.parse(run.stdout) as { skills: unknown[]; diagnostics: unknown[] };
    if (report.skills.length !== count) throw new Error(`expected ${count} skills, found ${report.skills.length}`);
    return { skills: count, ms: round(run.ms), maxRssMiB: round(run.maxRssMiB), diagnostics: report.diagnostics.length, msPerSkill: round(run.ms / count, 3) };
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
    { tool: 'skills-ref', how: 'node skills-ref/dist/cli.js validate <skill> once per skill, sequentially (its CLI takes one skill); time summed, memory the largest run, findings the "- " lines it prints', corpus: label, skills: dirs.length, ms: round(refMs), maxRssMiB: round(refRss), findings: refFindings },
    { tool: 'claude-code-lint', how: 'claudelint check-all --no-cache --format json, in a project holding the same skills under .claude/skills/; findings = errorCount + warningCount', corpus: label, skills: dirs.length, ms: round(claudelint.ms), maxRssMiB: round(claudelint.maxRssMiB), findings: claudeReport.errorCount + claudeReport.warningCount },
  ];
}

/** A plain corpus large enough to time: `count` generated plain skills. */
export function plainCorpus(root: string, count: number): string {
  const dir = path.join(root, `plain-${count}`);
  if (!existsSync(dir)) for (let i = 0; i < count; i++) writePlainSkill(dir, `plain-${String(i).padStart(4, '0')}`, i);
  return dir;
}
