import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkSkills } from '../../../server/src/cli/checkSkills';
import { RunSettings } from '../../../server/src/config/runSettings';
import { skillFiles, skillHash } from '../../../server/src/workspace/skillHash';
import type { FoundSkill } from '../../../server/src/workspace/discover';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';

function skills(count: number): FoundSkill[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-threads-'));
  return Array.from({ length: count }, (_, i) => {
    mkdirSync(path.join(dir, `s${i}`));
    const file = path.join(dir, `s${i}`, 'SKILL.md');
    writeFileSync(
      file,
      `---\nname: s${i}\ndescription: Skill ${i}. Use when testing threads.\n---\nSee [the script](scripts/missing-${i}.sh).\n`,
    );
    return { file, display: path.join(`s${i}`, 'SKILL.md') };
  });
}

test('threads that cannot start leave their batches to this one: every skill is still reported, in order', async () => {
  const found = skills(60);
  const fs = new NodeFileSystem();
  const alone = await checkSkills('/nonexistent/skillgraph-cli.js', found, {
    explicit: {},
    settings: new RunSettings(fs, {}),
    withFixes: true,
    withHash: true,
    jobs: 1,
    fs,
    home: '/nonexistent-home',
  });
  const progress: number[] = [];
  // Workers on a missing entry file fail to load; the run must neither hang nor lose a skill.
  const withBrokenThreads = await checkSkills('/nonexistent/skillgraph-cli.js', found, {
    explicit: {},
    settings: new RunSettings(fs, {}),
    withFixes: true,
    withHash: true,
    jobs: 3,
    fs,
    home: '/nonexistent-home',
    onProgress: (done) => progress.push(done),
  });
  assert.equal(withBrokenThreads.length, 60);
  assert.deepEqual(withBrokenThreads, alone);
  assert.deepEqual(
    alone.map(({ report }) => report.diagnostics.map((item) => item.code)),
    found.map(() => ['missing_file']),
  );
  assert.equal(progress[progress.length - 1], 60);
  // Each skill's hash is its folder's, whichever thread made the report.
  assert.deepEqual(
    alone.map(({ report }) => report.skill.hash),
    found.map((skill) => skillHash(skillFiles(fs, path.dirname(skill.file)))),
  );
});
