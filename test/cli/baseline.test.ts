import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readIn, repository, runCli } from '../support/cliRun';

/** A skill that links `missing` files that do not exist, after `lead` lines of prose. */
const skill = (name: string, missing: string[], lead = 0) =>
  `---\nname: ${name}\ndescription: Does one thing. Use when testing.\n---\n${'Prose.\n'.repeat(lead)}${missing
    .map((file) => `Read [the notes](references/${file}).\n`)
    .join('')}`;

interface Report {
  diagnostics: { file: string; code: string; fingerprint: string }[];
  baselines?: { file: string; matched: number; stale: number }[];
}

test('the adoption path: init, check --update-baseline, and check then reports only what is new', () => {
  const root = repository({
    '.claude/skills/review/SKILL.md': skill('review', ['a.md', 'b.md']),
    '.claude/skills/deploy/SKILL.md': skill('deploy', ['c.md']),
  });
  assert.equal(runCli(root, 'init').status, 0);
  assert.match(readIn(root, '.skillgraph.yaml'), /^baseline: \.skillgraph-baseline\.json$/m);
  const before = runCli(root, 'check');
  assert.equal(before.status, 0, 'missing files are warnings');
  assert.match(before.stderr, /3 warnings/);
  const update = runCli(root, 'check', '--update-baseline');
  assert.equal(update.status, 0);
  assert.match(update.stderr, /wrote the baseline \.skillgraph-baseline\.json: 3 findings in 2 files \(it held 0\)/);
  const baseline = JSON.parse(readIn(root, '.skillgraph-baseline.json'));
  assert.deepEqual(baseline.findings[0], {
    file: '.claude/skills/deploy/SKILL.md',
    code: 'missing_file',
    text: 'references/c.md',
    count: 1,
  });
  const quiet = runCli(root, 'check');
  assert.equal(quiet.stdout, '');
  assert.match(quiet.stderr, /0 errors, 0 warnings, 0 notes; 3 more in the baseline/);
  // Lines added above the accepted findings, and a new one below: only the new one is reported.
  writeFileSync(path.join(root, '.claude/skills/review/SKILL.md'), skill('review', ['a.md', 'b.md', 'new.md'], 5));
  const moved = runCli(root, 'check', '--format', 'json');
  const report = JSON.parse(moved.stdout) as Report;
  assert.deepEqual(
    report.diagnostics.map((item) => [item.code, item.fingerprint]),
    [['missing_file', 'missing_file:references/new.md']],
  );
  assert.deepEqual(report.baselines, [{ file: '.skillgraph-baseline.json', matched: 3, stale: 0 }]);
});

test('a finding fixed is stale in the baseline until --update-baseline drops it; skills not checked keep theirs', () => {
  const root = repository({
    'skills/review/SKILL.md': skill('review', ['a.md', 'a.md']),
    'skills/deploy/SKILL.md': skill('deploy', ['c.md']),
  });
  const file = path.join(root, 'accepted.json');
  assert.equal(runCli(root, 'check', '--baseline', file, '--update-baseline').status, 0);
  assert.equal(
    JSON.parse(readIn(root, 'accepted.json')).findings.find((item: { text: string }) => item.text === 'references/a.md')
      .count,
    2,
  );
  // One of the two mentions of a.md is gone: the other is still accepted; the gone one is stale.
  writeFileSync(path.join(root, 'skills/review/SKILL.md'), skill('review', ['a.md']));
  const stale = runCli(root, 'check', '--baseline', file);
  assert.equal(stale.stdout, '');
  assert.match(stale.stderr, /1 finding in the baseline is gone; --update-baseline drops it/);
  // Updating from one skill keeps the other skill's entries.
  assert.equal(runCli(root, 'check', 'skills/review', '--baseline', file, '--update-baseline').status, 0);
  const entries = JSON.parse(readIn(root, 'accepted.json')).findings as { file: string; count: number }[];
  assert.deepEqual(
    entries.map((item) => [item.file, item.count]),
    [
      ['skills/deploy/SKILL.md', 1],
      ['skills/review/SKILL.md', 1],
    ],
  );
});

test('a baseline that is not one is a usage error; --update-baseline with none configured says how to name one', () => {
  const root = repository({ 'skills/review/SKILL.md': skill('review', ['a.md']), 'broken.json': '{"version": 7}' });
  const broken = runCli(root, 'check', '--baseline', 'broken.json');
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /broken\.json is not a Skillgraph baseline/);
  const none = runCli(root, 'check', '--update-baseline');
  assert.equal(none.status, 2);
  assert.match(none.stderr, /no baseline file: give --baseline FILE, or set `baseline:` in \.skillgraph\.yaml/);
});

test('sarif: each result carries a fingerprint that stays when lines move', () => {
  const root = repository({ 'skills/review/SKILL.md': skill('review', ['a.md']) });
  const fingerprint = () =>
    JSON.parse(runCli(root, 'check', '--format', 'sarif').stdout).runs[0].results[0].partialFingerprints[
      'skillgraph/v1'
    ] as string;
  const first = fingerprint();
  assert.match(first, /^[0-9a-f]{32}$/);
  writeFileSync(path.join(root, 'skills/review/SKILL.md'), skill('review', ['a.md'], 3));
  assert.equal(fingerprint(), first);
  writeFileSync(path.join(root, 'skills/review/SKILL.md'), skill('review', ['b.md']));
  assert.notEqual(fingerprint(), first);
});
