import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeSkill } from '../server/src/analyze';
import { NodeFileSystem } from '../server/src/workspace/fileSystem';
import { SkillCatalog } from '../server/src/workspace/skillCatalog';
import { writeWorkspace } from '../test/support/generate';
import { since, summarize, type Summary } from './lib/stats';

export interface CatalogResult {
  skills: number;
  /** Steps of the MetaSkill, each composing a skill of the workspace. */
  steps: number;
  /** Listing and reading every SKILL.md of the catalog, from nothing. */
  build: Summary;
  /** After one composed skill changed on disk: the catalog notices it and the MetaSkill is analysed again. */
  recheck: Summary;
  /** Analysing the MetaSkill with the catalog already known. */
  analysis: Summary;
}

/**
 * The MetaSkill catalog on a workspace of `count` skills: a MetaSkill whose
 * steps compose skills of that workspace (a catalog root). Measured in one
 * process, as the language server works.
 */
export function benchCatalog(root: string, count = 10000, steps = 40): CatalogResult {
  const workspace = path.join(root, `workspace-${count}`);
  if (!existsSync(workspace)) writeWorkspace(workspace, count);
  const planDir = path.join(root, 'catalog-plans', 'composed-plan');
  mkdirSync(planDir, { recursive: true });
  const composed = Array.from(
    { length: steps },
    (_, i) => `skill-${String(Math.floor((i * count) / steps)).padStart(5, '0')}`,
  );
  const lines = composed.map(
    (skill, i) =>
      `    - id: s${i}\n      skill: ${skill}\n${i > 0 ? `      depends_on: [s${i - 1}]\n` : ''}      with:\n        task: "Continue from {{ outputs.${i > 0 ? `s${i - 1}` : 's0'} | truncate(500) }} for {{ inputs.user_message | xml_escape }}"\n`,
  );
  const planFile = path.join(planDir, 'SKILL.md');
  writeFileSync(
    planFile,
    `---\nname: composed-plan\ndescription: A generated MetaSkill for benchmarks.\nkind: meta\ncomposition:\n  steps:\n${lines.join('')}---\n`,
  );
  const fs = new NodeFileSystem();

  const builds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const skills = new SkillCatalog(fs, [workspace]).forSkill(planDir);
    builds.push(since(start));
    if (skills.size < count) throw new Error(`the catalog holds ${skills.size} skills, expected ${count}`);
  }

  const catalog = new SkillCatalog(fs, [workspace]);
  const check = () => {
    const analysis = analyzeSkill(fs, planFile, { catalog });
    if (analysis.diagnostics.some((item) => item.code === 'unknown_skill'))
      throw new Error('a composed skill was not found');
  };
  check();
  const analyses: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    check();
    analyses.push(since(start));
  }
  const rechecks: number[] = [];
  const changed = path.join(workspace, composed[steps / 2], 'SKILL.md');
  for (let i = 0; i < 20; i++) {
    // A new modification time, as an editor's save gives: the catalog reads that one file again.
    const when = new Date(Date.now() + (i + 1) * 1000);
    utimesSync(changed, when, when);
    const start = performance.now();
    catalog.invalidate(changed, 'changed');
    check();
    rechecks.push(since(start));
  }
  return {
    skills: count,
    steps,
    build: summarize(builds),
    recheck: summarize(rechecks),
    analysis: summarize(analyses),
  };
}
