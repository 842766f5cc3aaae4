import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CLI, commitAll, gitIn, readIn, repository, runCli, writeIn } from '../support/cliRun';

// `skillgraph diff` and `skillgraph hash` against a git repository each test makes: revisions read from git (nothing
// checked out), the working tree, and folders.

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

/** A repository holding copies of `examples`, committed once. */
function committed(...examples: string[]): string {
  const root = repository({});
  for (const name of examples) cpSync(path.join(EXAMPLES, name), path.join(root, name), { recursive: true });
  commitAll(root, 'the skills');
  return root;
}

function edit(root: string, file: string, from: string, to: string): void {
  const text = readIn(root, file);
  assert.ok(text.includes(from), `${file} holds ${JSON.stringify(from)}`);
  writeIn(root, file, text.replace(from, to));
}

test('diff: nothing changed since HEAD: exit 0, and it says so', () => {
  const root = committed('csv-report');
  const result = runCli(root, 'diff');
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'No skill changed.\n');
});

test('diff: before the first commit, HEAD has nothing yet: every skill is added, and a revision git lacks is refused', () => {
  const root = repository({});
  cpSync(path.join(EXAMPLES, 'csv-report'), path.join(root, 'csv-report'), { recursive: true });
  gitIn(root, 'init', '-q');
  const result = runCli(root, 'diff', '--format', 'json');
  assert.equal(result.status, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.before, 'HEAD (no commit yet)');
  const [skill] = report.skills;
  assert.equal(skill.path, 'csv-report');
  assert.equal(skill.hashBefore, undefined);
  assert.ok(skill.files.added.includes('SKILL.md'), JSON.stringify(skill.files));
  assert.deepEqual(
    skill.diff.nodes
      .filter((node: { kind: string }) => node.kind === 'step')
      .map((node: { change: string; id: string }) => `${node.change} ${node.id}`),
    ['added load-table', 'added profile-columns', 'added choose-focus', 'added write-report'],
  );
  // Only HEAD stands for the first commit to come: another name git does not know is still refused.
  const unknown = runCli(root, 'diff', 'no-such-branch');
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stderr, 'skillgraph: no-such-branch: neither a folder nor a git revision\n');
});

test('diff: the working tree against HEAD: a step renamed, an output retyped, the type mismatch it introduces', () => {
  const root = committed('csv-report', 'release-notes');
  edit(root, 'csv-report/SKILL.md', '  - name: choose-focus', '  - name: pick-focus');
  edit(
    root,
    'csv-report/SKILL.md',
    'depends_on: [profile-columns, choose-focus]',
    'depends_on: [profile-columns, pick-focus]',
  );
  edit(
    root,
    'csv-report/SKILL.md',
    '      - name: stats\n        type: list[object]\n\n',
    '      - name: stats\n        type: object\n\n',
  );
  const result = runCli(root, 'diff', '--format', 'json');
  // The mismatch is a warning: no error introduced.
  assert.equal(result.status, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.before, 'HEAD');
  assert.equal(report.after, 'the working tree');
  assert.deepEqual(
    report.skills.map((skill: { path: string }) => skill.path),
    ['csv-report'],
    'release-notes did not change',
  );
  const [skill] = report.skills;
  assert.match(skill.hashBefore, /^sha256:[0-9a-f]{64}$/);
  assert.notEqual(skill.hashBefore, skill.hashAfter);
  assert.deepEqual(
    skill.diff.nodes.map((node: { change: string; id: string; from?: string }) => [node.change, node.id, node.from]),
    [
      ['changed', 'profile-columns', undefined],
      ['renamed', 'pick-focus', 'choose-focus'],
    ],
  );
  assert.ok(
    skill.diff.findings.some(
      (item: { change: string; problem: { code: string; file: string } }) =>
        item.change === 'introduced' &&
        item.problem.code === 'type_mismatch' &&
        item.problem.file === 'csv-report/SKILL.md',
    ),
    JSON.stringify(skill.diff.findings),
  );
});

test('diff: two revisions read from git, nothing checked out; an error introduced exits 1; paths after --', () => {
  const root = committed('csv-report', 'weekly-digest', 'release-notes');
  const first = gitIn(root, 'rev-parse', 'HEAD');
  rmSync(path.join(root, 'csv-report', 'scripts', 'load_table.py'));
  edit(root, 'weekly-digest/SKILL.md', '      skill: release-notes\n', '      skill: release-notez\n');
  gitIn(root, 'commit', '-qam', 'break two skills');
  const second = gitIn(root, 'rev-parse', 'HEAD');
  // The working tree goes back to the first revision: what is compared is read from git, not from the disk.
  gitIn(root, 'checkout', '-q', first);
  const branch = runCli(root, 'diff', first, second, '--format', 'text');
  assert.equal(branch.status, 1, branch.stderr);
  assert.match(branch.stdout, /^csv-report \(aip-0\.3\): .*finding introduced/m);
  assert.match(branch.stdout, /^ {2}· file scripts\/load_table\.py removed$/m);
  assert.match(branch.stdout, /introduced warning missing_script csv-report\/SKILL\.md:\d+:\d+ /);
  assert.match(branch.stdout, /introduced error unknown_skill weekly-digest\/SKILL\.md:\d+:\d+ /);
  assert.match(branch.stdout, /^weekly-digest \(metaskill\): /m);
  assert.match(branch.stdout, /~ changed \S+ shipped: skill release-notes → release-notez/);
  assert.equal(readIn(root, 'weekly-digest/SKILL.md').includes('release-notez'), false, 'nothing was checked out');
  // Only the paths asked for.
  const only = runCli(root, 'diff', first, second, '--', 'weekly-digest');
  assert.doesNotMatch(only.stdout, /csv-report/);
  assert.match(only.stdout, /weekly-digest/);
});

test('diff --format markdown: a pull-request comment with a table and a Mermaid drawing of the changed part', () => {
  const root = committed('csv-report');
  edit(
    root,
    'csv-report/SKILL.md',
    '  - name: write-report',
    '  - name: publish\n    description: Publish the report.\n    inputs:\n      - name: report-path\n        type: string\n\n  - name: write-report',
  );
  const result = runCli(root, 'diff', '--format', 'markdown');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^### Skillgraph: 1 skill changed$/m);
  assert.match(result.stdout, /^\| node \| added \| added step publish \|$/m);
  const mermaid = /```mermaid\n([\s\S]*?)\n```/.exec(result.stdout)?.[1] ?? '';
  assert.match(mermaid, /^flowchart TD$/m);
  assert.match(mermaid, /\["publish"\]/);
  assert.match(mermaid, /^ {2}class n\d+ added$/m);
});

test('diff: two folders; a skill added and one removed; a side that is neither a folder nor a revision is a usage error', () => {
  const before = repository({});
  const after = repository({});
  cpSync(path.join(EXAMPLES, 'csv-report'), path.join(before, 'csv-report'), { recursive: true });
  cpSync(path.join(EXAMPLES, 'release-notes'), path.join(after, 'release-notes'), { recursive: true });
  const result = runCli(before, 'diff', before, after);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^csv-report \(aip-0\.3, removed\)/m);
  // A plain skill has no steps: what its line says is the files it brought.
  assert.match(result.stdout, /^release-notes \(agent-skill, added\): 2 files, no steps or findings$/m);
  const wrong = runCli(before, 'diff', 'no-such-revision');
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /no-such-revision: neither a folder nor a git revision \(not in a git repository\)/);
  // Outside a repository there is no HEAD to stand for the first side.
  const alone = runCli(before, 'diff');
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /not in a git repository: name the two folders to compare/);
});

test('diff sees what check sees on each side: skills the configuration ignores are left out', () => {
  const root = repository({ '.skillgraph.yaml': 'ignore:\n  - vendor/**\n' });
  cpSync(path.join(EXAMPLES, 'csv-report'), path.join(root, 'csv-report'), { recursive: true });
  cpSync(path.join(EXAMPLES, 'mistakes', 'broken-procedure'), path.join(root, 'vendor', 'broken-procedure'), {
    recursive: true,
  });
  commitAll(root, 'a skill and a vendored one');
  // A vendored skill, ignored on both sides, changes: nothing to review.
  edit(root, 'vendor/broken-procedure/SKILL.md', '- name: clean-data', '- name: tidy-data');
  assert.equal(runCli(root, 'diff').stdout, 'No skill changed.\n');
  // The change stops ignoring it: the skill comes into view, as added.
  writeIn(root, '.skillgraph.yaml', 'ignore: []\n');
  const report = JSON.parse(runCli(root, 'diff', '--format', 'json').stdout);
  assert.deepEqual(
    report.skills.map((skill: { path: string; hashBefore?: string }) => [skill.path, skill.hashBefore]),
    [['vendor/broken-procedure', undefined]],
  );
});

test('diff: a path on one side only is a skill added or removed; a path on neither side is a usage error', () => {
  const root = committed('csv-report');
  cpSync(path.join(EXAMPLES, 'release-notes'), path.join(root, 'release-notes'), { recursive: true });
  const added = runCli(root, 'diff', '--', 'release-notes');
  assert.equal(added.status, 0, added.stderr);
  assert.match(added.stdout, /^release-notes \(agent-skill, added\)/);
  const typo = runCli(root, 'diff', '--', 'csv-reprot', 'csv-report');
  assert.equal(typo.status, 2);
  assert.equal(typo.stderr, 'skillgraph: csv-reprot: no such file or folder on either side\n');
  assert.equal(typo.stdout, '');
});

test('a skill whose files are the same on both sides is still compared when what it is checked with changed', () => {
  const root = committed('csv-report', 'weekly-digest', 'release-notes');
  // Its settings: a rule's severity, in a configuration the revision did not have.
  writeIn(root, '.skillgraph.yaml', 'rules:\n  external_input: warning\n');
  const retuned = JSON.parse(runCli(root, 'diff', '--format', 'json').stdout);
  const csv = retuned.skills.find((skill: { path: string }) => skill.path === 'csv-report');
  assert.deepEqual(csv?.files, { added: [], removed: [], changed: [] });
  assert.deepEqual(
    csv.diff.findings.map((item: { change: string; problem: { severity: string; code: string } }) =>
      [item.change, item.problem.severity, item.problem.code].join(' '),
    ),
    ['introduced warning external_input', 'fixed information external_input'],
  );
  rmSync(path.join(root, '.skillgraph.yaml'));
  // The skills a MetaSkill composes: one of them renamed, the composition's own files untouched.
  edit(root, 'release-notes/SKILL.md', 'name: release-notes\n', 'name: release-notes-v2\n');
  const renamed = runCli(root, 'diff');
  assert.equal(renamed.status, 1, 'the composition now runs a skill the catalog lacks');
  assert.match(renamed.stdout, /^weekly-digest \(metaskill\): 1 finding introduced$/m);
  assert.match(renamed.stdout, /introduced error unknown_skill weekly-digest\/SKILL\.md:/);
  // Unchanged skills are not reported.
  assert.doesNotMatch(renamed.stdout, /^csv-report /m);
});

test('hash: the same files give the same hash wherever they are; a change to any file changes it', () => {
  const root = committed('csv-report');
  const copy = repository({});
  cpSync(path.join(root, 'csv-report'), path.join(copy, 'csv-report'), { recursive: true });
  const first = runCli(root, 'hash', 'csv-report');
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /^sha256:[0-9a-f]{64} {2}csv-report\n$/);
  assert.equal(runCli(copy, 'hash', 'csv-report').stdout, first.stdout);
  writeIn(
    copy,
    'csv-report/scripts/load_table.py',
    `${readFileSync(path.join(root, 'csv-report/scripts/load_table.py'), 'utf8')}\n`,
  );
  assert.notEqual(runCli(copy, 'hash', 'csv-report').stdout, first.stdout);
  // diff reports the same hash for a revision, and a script whose body changed though the graph did not.
  const report = JSON.parse(runCli(root, 'diff', 'HEAD', copy, '--format', 'json').stdout);
  assert.equal(report.skills[0]?.hashBefore, first.stdout.split(' ')[0]);
  assert.deepEqual(report.skills[0]?.files, { added: [], removed: [], changed: ['scripts/load_table.py'] });
  assert.deepEqual(report.skills[0]?.diff.nodes, []);
});

test('hash and diff read text the same with CRLF line ends (a Windows checkout) as with LF; binary bytes as they are', () => {
  const root = committed('csv-report');
  writeIn(root, 'csv-report/assets/icon.bin', new Uint8Array([0, 1, 13, 10, 2]));
  commitAll(root, 'an icon');
  const committedHash = runCli(root, 'hash', 'csv-report').stdout;
  // What core.autocrlf writes: every text file with CRLF.
  const crlf = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) crlf(relative);
      else if (!relative.endsWith('.bin')) writeIn(root, relative, readIn(root, relative).replace(/\n/g, '\r\n'));
    }
  };
  crlf('csv-report');
  assert.match(readIn(root, 'csv-report/SKILL.md'), /^---\r\nname: csv-report\r\n/);
  assert.equal(runCli(root, 'hash', 'csv-report').stdout, committedHash);
  // No file reads as changed and the graph is the same; what is left is the note the check gives on CRLF itself.
  const unchanged = runCli(root, 'diff', '--format', 'json');
  assert.equal(unchanged.status, 0, unchanged.stderr);
  const [skill] = JSON.parse(unchanged.stdout).skills;
  assert.equal(skill.hashAfter, skill.hashBefore);
  assert.deepEqual(skill.files, { added: [], removed: [], changed: [] });
  assert.deepEqual([skill.diff.nodes, skill.diff.edges], [[], []]);
  assert.deepEqual(
    skill.diff.findings.map(
      (item: { change: string; problem: { code: string } }) => `${item.change} ${item.problem.code}`,
    ),
    ['introduced crlf_line_endings'],
  );
  // In a binary file, a CR before LF is content.
  writeIn(root, 'csv-report/assets/icon.bin', new Uint8Array([0, 1, 10, 2]));
  assert.notEqual(runCli(root, 'hash', 'csv-report').stdout, committedHash);
  assert.match(runCli(root, 'diff').stdout, /^ {2}· file assets\/icon\.bin changed$/m);
});

test('check --hash puts each skill revision hash in the JSON report; outside JSON it is a usage error', () => {
  const root = committed('csv-report');
  const hashed = runCli(root, 'hash', 'csv-report');
  const report = runCli(root, 'check', 'csv-report', '--format', 'json', '--hash');
  assert.equal(report.status, 0, report.stderr);
  assert.deepEqual(
    JSON.parse(report.stdout).skills.map((skill: { dir: string; hash?: string }) => [skill.dir, skill.hash]),
    [['csv-report', hashed.stdout.split(' ')[0]]],
  );
  // Without the flag, the report reads no file for it.
  const plain = JSON.parse(runCli(root, 'check', 'csv-report', '--format', 'json').stdout);
  assert.equal(plain.skills[0].hash, undefined);
  const misused = runCli(root, 'check', 'csv-report', '--hash');
  assert.equal(misused.status, 2);
  assert.match(misused.stderr, /--hash puts each skill's hash in the JSON report: add --format json/);
});

test('diff: a library of 60 skills against HEAD starts git a few times, not once per file or per skill', () => {
  const root = repository({});
  const examples = readdirSync(EXAMPLES).filter((name) => name !== 'mistakes');
  for (let copy = 0; copy < 60 / examples.length; copy++)
    for (const name of examples)
      cpSync(path.join(EXAMPLES, name), path.join(root, 'skills', `${name}-${copy}`), { recursive: true });
  commitAll(root, 'a library');
  edit(root, 'skills/csv-report-3/SKILL.md', '  - name: choose-focus', '  - name: pick-focus');
  edit(root, 'skills/csv-report-3/SKILL.md', '[profile-columns, choose-focus]', '[profile-columns, pick-focus]');
  // The git the CLI finds on PATH writes down each start, then runs the real one.
  const shim = repository({}, 'sg-git-shim-');
  const log = path.join(shim, 'starts.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeIn(shim, 'git', `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(path.join(shim, 'git'), 0o755);
  const result = spawnSync(process.execPath, [CLI, 'diff', '--format', 'json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${shim}${path.delimiter}${process.env.PATH}` },
  });
  assert.equal(result.status, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(readdirSync(path.join(root, 'skills')).length, 60);
  assert.deepEqual(
    report.skills.map((skill: { path: string; diff: { nodes: { change: string }[] } }) => [
      skill.path,
      skill.diff.nodes.map((node) => node.change),
    ]),
    [['skills/csv-report-3', ['renamed']]],
  );
  // Finding the repository and the revision, listing its tree, reading its skills in one batch; one git process per
  // file read (and the catalog read again for each skill) made a 60-skill diff take 22 s, and 600 skills ran for
  // minutes.
  const starts = readFileSync(log, 'utf8').trim().split('\n');
  assert.ok(starts.length <= 6, `git started ${starts.length} times:\n${starts.join('\n')}`);
});

test('diff: in text, each change has its mark: a retyped output and its edge are changed (~), not added', () => {
  const root = committed('csv-report');
  edit(
    root,
    'csv-report/SKILL.md',
    '      - name: focus-column\n        type: string\n\n',
    '      - name: focus-column\n        type: integer\n\n',
  );
  const result = runCli(root, 'diff');
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.split('\n').slice(2, 5), [
    '  ~ changed step choose-focus: output "focus-column" retyped string → integer',
    '  ~ retyped data edge choose-focus → write-report focus-column: integer (was string)',
    '  ! introduced warning type_mismatch csv-report/SKILL.md:68:15 Input "focus-column" is declared as string, but step "choose-focus" produces it as integer.',
  ]);
});
