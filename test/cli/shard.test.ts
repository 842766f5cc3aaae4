import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import reportSchema from '../../schemas/check-report.schema.json';
import { CORPUS } from '../support/corpus';
import { repository, runCli } from '../support/cliRun';

// `check --shard K/N` on N runners and `merge-reports` after them give what one `check` gives: the same report in
// every format, the same exit status, every skill checked once.

const repo = path.join(__dirname, '..', '..');
const paths = [CORPUS, 'examples'];
const N = 3;

/** Each shard's JSON report, written to a file; and the files. */
function shardReports(cwd: string, args: string[], dir: string): string[] {
  return Array.from({ length: N }, (_, at) => {
    const file = path.join(dir, `shard-${at + 1}.json`);
    const result = runCli(cwd, 'check', ...args, '--format', 'json', '--shard', `${at + 1}/${N}`);
    assert.ok(result.status === 0 || result.status === 1, result.stderr);
    writeFileSync(file, result.stdout);
    return file;
  });
}

test('the shards of the corpus and the examples, merged, are the report of one check in every format', () => {
  const dir = repository({});
  const files = shardReports(repo, paths, dir);
  const validate = new Ajv2020({ allErrors: true }).compile(reportSchema);
  const reports = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as { skills: unknown[] });
  for (const report of reports) assert.ok(validate(report), JSON.stringify(validate.errors));
  const sizes = reports.map((report) => report.skills.length);
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `slices as equal as can be: ${sizes.join(', ')}`);
  for (const format of ['json', 'sarif', 'github', 'text']) {
    const whole = runCli(repo, 'check', ...paths, '--format', format);
    const merged = runCli(repo, 'merge-reports', ...[...files].reverse(), '--format', format);
    assert.equal(merged.stdout, whole.stdout, format);
    assert.equal(merged.status, whole.status, format);
    if (format === 'text') assert.equal(merged.stderr, whole.stderr.replace(/ on \d+ threads/, ''));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A skill that links `missing` reference files (each a warning a baseline can accept). */
const skill = (name: string, missing: string[]) =>
  `---\nname: ${name}\ndescription: Does one thing. Use when testing.\n---\n${missing.map((file) => `Read [the notes](references/${file}).\n`).join('')}`;

test('a baseline across shards: what each accepted and what is gone add up to one run, each entry counted once', () => {
  const root = repository({
    'skills/a/SKILL.md': skill('a', ['one.md', 'two.md']),
    'skills/b/SKILL.md': skill('b', ['three.md']),
    'skills/c/SKILL.md': skill('c', ['four.md']),
    'skills/d/SKILL.md': skill('d', ['five.md']),
    '.skillgraph.yaml': 'baseline: baseline.json\n',
  });
  assert.equal(runCli(root, 'check', '--update-baseline').status, 0);
  // One finding fixed, one skill deleted: three entries of the baseline are gone, one finding is new.
  writeFileSync(path.join(root, 'skills/a/SKILL.md'), skill('a', ['one.md', 'new.md']));
  rmSync(path.join(root, 'skills/d'), { recursive: true });
  const files = shardReports(root, [], root);
  for (const format of ['json', 'text']) {
    const whole = runCli(root, 'check', '--format', format);
    const merged = runCli(root, 'merge-reports', ...files, '--format', format);
    assert.equal(merged.stdout, whole.stdout, format);
    assert.equal(merged.stderr, whole.stderr, format);
  }
  const report = JSON.parse(runCli(root, 'merge-reports', ...files, '--format', 'json').stdout) as {
    baselines: { matched: number; stale: number }[];
  };
  assert.deepEqual(report.baselines, [{ file: 'baseline.json', matched: 3, stale: 2 }]);
  assert.equal(runCli(root, 'check', '--shard', '1/2', '--update-baseline').status, 2, 'a shard writes no baseline');
  rmSync(root, { recursive: true, force: true });
});

test('merge-reports refuses what is not every shard once: a missing one, one twice, mixed counts, a whole report', () => {
  const root = repository({
    'a/SKILL.md': skill('a', []),
    'b/SKILL.md': skill('b', []),
  });
  const files = shardReports(root, [], root);
  const refused = (args: string[], message: RegExp) => {
    const result = runCli(root, 'merge-reports', ...args);
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, message);
  };
  refused([files[0], files[2]], /^skillgraph: shard 2\/3 missing\n$/);
  refused([...files, files[1]], /shard 2\/3 twice/);
  const other = path.join(root, 'other.json');
  writeFileSync(other, runCli(root, 'check', '--format', 'json', '--shard', '1/2').stdout);
  refused([...files, other], /other\.json: shard 1\/2, but .+shard-1\.json is of 3/);
  writeFileSync(other, runCli(root, 'check', '--format', 'json').stdout);
  refused([other], /a report of all the skills, not of one shard/);
  writeFileSync(other, 'not json');
  refused([other], /other\.json: is not JSON/);
  assert.match(runCli(root, 'check', '--shard', '4/3').stderr, /--shard needs K\/N with 1 <= K <= N/);
  rmSync(root, { recursive: true, force: true });
});

test("the library's findings across shards: each shard reads the whole library and reports its own skills' findings", () => {
  const described = (name: string, description: string, body = 'Do it.') =>
    `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
  const root = repository({
    // Two alike descriptions, one in the first shard and one in the last; a typo in the second of a skill in the last.
    'a-deploy/SKILL.md': described(
      'a-deploy',
      'Deploy the web application to staging or production with rollback, health checks and release tagging.',
    ),
    'b-notes/SKILL.md': described('b-notes', 'Writes meeting notes. Use after a meeting.'),
    'c-digest/SKILL.md': described('c-digest', 'Sums up the week. Use on Fridays.', 'Then run /e-relase.'),
    'd-lint/SKILL.md': described('d-lint', 'Lints prose. Use before a commit.'),
    'e-release/SKILL.md': described('e-release', 'Cuts a release. Use when one is due.'),
    'f-ship/SKILL.md': described(
      'f-ship',
      'Deploy the web application to production or staging, with health checks, release tagging and rollback.',
    ),
  });
  const files = shardReports(root, [], root);
  const codes = files.map((file) =>
    (JSON.parse(readFileSync(file, 'utf8')) as { diagnostics: { file: string; code: string }[] }).diagnostics.map(
      (item) => `${item.file} ${item.code}`,
    ),
  );
  assert.deepEqual(codes, [
    ['a-deploy/SKILL.md similar_descriptions'],
    ['c-digest/SKILL.md unknown_skill_mention'],
    ['f-ship/SKILL.md similar_descriptions'],
  ]);
  for (const format of ['json', 'sarif', 'github', 'text']) {
    const whole = runCli(root, 'check', '--format', format);
    const merged = runCli(root, 'merge-reports', ...files, '--format', format);
    assert.equal(merged.stdout, whole.stdout, format);
    assert.equal(merged.status, whole.status, format);
  }
  rmSync(root, { recursive: true, force: true });
});
