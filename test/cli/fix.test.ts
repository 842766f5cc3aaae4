import * as assert from 'node:assert/strict';
import { readFileSync, statSync, symlinkSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readIn, repository, runCli } from '../support/cliRun';
import { fetchProcedure } from '../support/fixture';

const colon = (name: string) => `---\nname: ${name}\ndescription: Use when: testing ${name}\n---\nBody.\n`;

test('fix --dry-run: a unified diff on stdout, the list on stderr, nothing written; exit 1 while there are changes', () => {
  const root = repository({ 'skills/deploy/SKILL.md': colon('deploy') });
  const dry = runCli(root, 'fix', '--dry-run');
  assert.equal(dry.status, 1);
  assert.equal(
    dry.stdout,
    [
      '--- a/skills/deploy/SKILL.md',
      '+++ b/skills/deploy/SKILL.md',
      '@@ -1,5 +1,5 @@',
      ' ---',
      ' name: deploy',
      '-description: Use when: testing deploy',
      '+description: "Use when: testing deploy"',
      ' ---',
      ' Body.',
      '',
    ].join('\n'),
  );
  assert.match(
    dry.stderr,
    /skills\/deploy\/SKILL\.md:3:22: would fix \[unquoted_colon\] Quote the value of "description"\nWould fix 1 problem in 1 file of 1 skill\.\n/,
  );
  assert.equal(readIn(root, 'skills/deploy/SKILL.md'), colon('deploy'));
});

test('fix writes the safe fixes of every finding reported (line endings too), keeps modes; a second run changes nothing', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const root = repository({
    'skills/deploy/SKILL.md': Buffer.concat([bom, Buffer.from(colon('deploy'))]),
    'skills/review/SKILL.md': colon('review').replace(/\n/g, '\r\n'),
    // A team that keeps its marks turns the finding off: what is not reported is not fixed.
    'kept/.skillgraph.yaml': 'rules:\n  utf8_bom: off\n',
    'kept/mark/SKILL.md': Buffer.concat([bom, Buffer.from(colon('mark'))]),
  });
  chmodSync(path.join(root, 'skills/review/SKILL.md'), 0o640);
  const first = runCli(root, 'fix');
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stderr, /^Fixed 5 problems in 3 files of 3 skills\.$/m);
  assert.equal(
    readIn(root, 'skills/deploy/SKILL.md'),
    '---\nname: deploy\ndescription: "Use when: testing deploy"\n---\nBody.\n',
  );
  assert.deepEqual([...readFileSync(path.join(root, 'kept/mark/SKILL.md')).subarray(0, 3)], [...bom]);
  assert.match(readIn(root, 'kept/mark/SKILL.md'), /description: "Use when: testing mark"/);
  assert.equal(
    readIn(root, 'skills/review/SKILL.md'),
    '---\nname: review\ndescription: "Use when: testing review"\n---\nBody.\n',
  );
  assert.equal(statSync(path.join(root, 'skills/review/SKILL.md')).mode & 0o777, 0o640);
  const second = runCli(root, 'fix');
  assert.equal(second.status, 0);
  assert.equal(second.stdout, '');
  assert.match(second.stderr, /^Nothing to fix in 3 skills/m);
});

test('fix --code fixes one code only; --unsafe adds the guesses; an unknown code is a usage error', () => {
  const root = repository({
    'skills/deploy/SKILL.md': colon('deploy').replace('Body.', 'Read `references/gide.md`.'),
    'skills/deploy/references/guide.md': '# Guide\n',
    'skills/deploy/LICENSE.txt': 'MIT\n',
  });
  const onlyBom = runCli(root, 'fix', '--code', 'utf8_bom');
  assert.equal(onlyBom.stdout, '');
  assert.equal(readIn(root, 'skills/deploy/SKILL.md'), colon('deploy').replace('Body.', 'Read `references/gide.md`.'));
  const safe = runCli(root, 'fix', '--code', 'unquoted_colon,missing_file');
  assert.match(safe.stdout, /fixed \[unquoted_colon\]/);
  assert.doesNotMatch(safe.stdout, /missing_file/, 'the nearest file is a guess');
  assert.match(safe.stderr, /1 more has an unsafe fix: review them in the editor, or run with --unsafe/);
  const unsafe = runCli(root, 'fix', '--unsafe');
  assert.match(unsafe.stdout, /fixed \[missing_file\] Change to "references\/guide\.md"/);
  assert.match(readIn(root, 'skills/deploy/SKILL.md'), /Read `references\/guide\.md`\./);
  const wrong = runCli(root, 'fix', '--code', 'unquoted_colons');
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /no rule has the code "unquoted_colons"; did you mean "unquoted_colon"\?/);
});

test('fix creates a stub script only where no file is, and never through a link that leaves the skill', () => {
  const root = repository({ 'skills/fetch/SKILL.md': fetchProcedure('fetch'), 'outside/keep.txt': 'keep\n' });
  const created = runCli(root, 'fix', '--unsafe');
  assert.match(created.stdout, /fixed \[missing_script\] Create scripts\/fetch\.py/);
  assert.match(readIn(root, 'skills/fetch/scripts/fetch.py'), /^"""Fetch the data\."""/);
  // A skill whose scripts folder is a link out of it: nothing is written there, or anywhere.
  mkdirSync(path.join(root, 'linked'));
  writeFileSync(path.join(root, 'linked/SKILL.md'), fetchProcedure('linked'));
  symlinkSync(path.join(root, 'outside'), path.join(root, 'linked/scripts'));
  const refused = runCli(root, 'fix', 'linked', '--unsafe');
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /leads out of its skill folder; nothing was written/);
  assert.throws(() => statSync(path.join(root, 'outside/fetch.py')));
});

test('fix leaves out a fix that would add an error, says so, and applies the rest', () => {
  const root = repository({ 'skills/My_Tool/SKILL.md': colon('my-tool') });
  const result = runCli(root, 'fix', '--unsafe');
  assert.match(result.stdout, /fixed \[unquoted_colon\]/);
  assert.match(
    result.stderr,
    /SKILL\.md:2:7: not fixed \[name_mismatch\] Rename the skill to "My_Tool" \(its folder name\): the result would have an error the skill does not have/,
  );
  assert.match(result.stderr, /1 fix left out \(each would add an error\)/);
  assert.equal(result.status, 1, 'an error is left');
  assert.match(readIn(root, 'skills/My_Tool/SKILL.md'), /^name: my-tool$/m);
});
