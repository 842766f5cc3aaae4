import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');

function run(args: string[], cwd = root) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file under a folder, relative, sorted: what a user would see with `find`. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1))
    .sort();
}

test('compile --to ir, mermaid, dot, meta: one file, printed on stdout', () => {
  const ir = run(['compile', 'examples/csv-report', '--to', 'ir']);
  assert.equal(ir.status, 0, ir.stderr);
  const parsed = JSON.parse(ir.stdout);
  assert.equal(parsed.format, 'aip-0.3');
  assert.deepEqual(
    parsed.nodes.map((node: { id: string }) => node.id),
    ['load-table', 'profile-columns', 'choose-focus', 'write-report'],
  );
  // The revision compiled, as `skillgraph hash` names it.
  assert.equal(parsed.hash, run(['hash', 'examples/csv-report']).stdout.split(' ')[0]);
  assert.equal(
    run(['compile', 'examples/trip-planner', '--to', 'mermaid']).stdout,
    run(['graph', 'examples/trip-planner', '--format', 'mermaid']).stdout,
  );
  assert.equal(
    run(['compile', 'examples/csv-report', '--to', 'dot']).stdout,
    run(['graph', 'examples/csv-report', '--format', 'dot']).stdout,
  );
  const meta = run(['compile', 'examples/release-digest/SKILL.md', '--to', 'metaskill']);
  assert.equal(meta.status, 0, meta.stderr);
  assert.match(
    meta.stdout,
    /^---\nname: release-digest\n[\s\S]*\nkind: meta\n[\s\S]*composition:\n {2}steps:\n {4}- id: notes\n/,
  );
});

test('compile --to aip --out: the package is written, named after its folder, and checks clean; its TODOs are reported', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const out = join(dir, 'notes-procedure');
  const { status, stderr } = run(
    ['compile', join(root, 'examples/release-notes'), '--to', 'aip', '--aip-version', '0.3', '--out', out],
    dir,
  );
  assert.equal(status, 0, stderr);
  assert.deepEqual(tree(out), [
    'SKILL.md',
    'references/style.md',
    'source/README.md',
    'source/original-SKILL.md',
    'source/procedure.schema.json',
  ]);
  assert.match(readFileSync(join(out, 'SKILL.md'), 'utf8'), /^---\nname: notes-procedure\n/);
  assert.equal(
    readFileSync(join(out, 'source/original-SKILL.md'), 'utf8'),
    readFileSync(join(root, 'examples/release-notes/SKILL.md'), 'utf8'),
  );
  assert.match(
    stderr,
    /notes-procedure\/SKILL\.md:\d+:\d+: warning: Step `group-them` produces no named value .* \[compile_todo\]/,
  );
  assert.match(stderr, /wrote 5 files to .*notes-procedure \(1 to review, above\)\n$/);
  const check = run(['check', out, '--format', 'json']);
  assert.equal(check.status, 0, check.stdout);
  assert.equal(JSON.parse(check.stdout).skills[0].format, 'aip-0.3');
});

test('compile --to aip on an AIP 0.3 skill migrates it to 0.5a1: written, checked clean as 0.5, its 0.3 form kept in source/', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-migrate-'));
  const out = join(dir, 'csv-report');
  const { status, stderr } = run(['compile', join(root, 'examples/csv-report'), '--to', 'aip', '--out', out], dir);
  assert.equal(status, 0, stderr);
  const files = tree(out);
  assert.ok(
    files.includes('source/aip-0.3-SKILL.md') && !files.includes('source/procedure.schema.json'),
    files.join(' '),
  );
  assert.ok(files.includes('scripts/load_table.py'), 'the scripts are kept');
  assert.equal(
    readFileSync(join(out, 'source/aip-0.3-SKILL.md'), 'utf8'),
    readFileSync(join(root, 'examples/csv-report/SKILL.md'), 'utf8'),
  );
  const check = run(['check', out, '--format', 'json']);
  assert.equal(check.status, 0, check.stdout);
  assert.equal(JSON.parse(check.stdout).skills[0].format, 'aip-0.5');
  // Asking for the 0.3 it already is: refused as a usage error, nothing written.
  const again = run([
    'compile',
    join(root, 'examples/csv-report'),
    '--to',
    'aip',
    '--aip-version',
    '0.3',
    '--out',
    join(dir, 'x'),
  ]);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /already AIP 0\.3/);
  assert.ok(!existsSync(join(dir, 'x')));
});

test('compile --to aip carries string metadata only: a list or a map is reported where it is and left out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const source = join(dir, 'tagged');
  mkdirSync(source);
  writeFileSync(
    join(source, 'SKILL.md'),
    [
      '---',
      'name: tagged',
      'description: Writes release notes from merged pull requests. Use when cutting a release.',
      'metadata:',
      '  author: Ana',
      '  tags: [release, notes]',
      '  owner:',
      '    team: docs',
      '---',
      '',
      '## Steps',
      '',
      '1. List the merged pull requests since the last tag.',
      '2. Write the release notes from them.',
      '',
    ].join('\n'),
  );
  const out = join(dir, 'tagged-procedure');
  const { status, stderr } = run(['compile', source, '--to', 'aip', '--out', out], dir);
  assert.equal(status, 0, stderr);
  const skillMd = readFileSync(join(out, 'SKILL.md'), 'utf8');
  assert.match(skillMd, /\nmetadata:\n {2}author: Ana\n {2}aip-version: "?0\.5a1"?\n/);
  assert.doesNotMatch(skillMd, /tags|owner/);
  assert.match(
    stderr,
    /tagged\/SKILL\.md:6:3: warning: `metadata\.tags` is a list; a package's metadata holds strings only.* \[compile_todo\]/,
  );
  assert.match(stderr, /tagged\/SKILL\.md:7:3: warning: `metadata\.owner` is a map; .* \[compile_todo\]/);
  const check = run(['check', out, '--format', 'json']);
  assert.equal(check.status, 0, check.stdout);
});

test('compile never overwrites without --force; with it, the package is replaced and nothing else is touched', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const out = join(dir, 'trip-plain');
  mkdirSync(out);
  writeFileSync(join(out, 'SKILL.md'), 'mine\n');
  writeFileSync(join(out, 'notes.txt'), 'also mine\n');
  const refused = run(['compile', 'examples/trip-planner', '--to', 'agent-skill', '--out', out]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /SKILL\.md already exists; nothing was written \(--force replaces it\)/);
  assert.deepEqual(tree(out), ['SKILL.md', 'notes.txt']);
  assert.equal(readFileSync(join(out, 'SKILL.md'), 'utf8'), 'mine\n');
  const forced = run(['compile', 'examples/trip-planner', '--to', 'agent-skill', '--out', out, '--force']);
  assert.equal(forced.status, 0, forced.stderr);
  assert.match(
    readFileSync(join(out, 'SKILL.md'), 'utf8'),
    /^---\nname: trip-plain\n[\s\S]*## Map\n[\s\S]*## Tips\n[\s\S]*## Rules\n/,
  );
  assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'also mine\n');
  assert.ok(!tree(out).some((file) => file.includes('.skillgraph-')), tree(out).join(', '));
});

test("a failure half-way leaves no file and no folder behind, and the user's files as they were", () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const out = join(dir, 'csv-plain');
  mkdirSync(out);
  // A file where the package needs a folder: the scripts are written, then references/ cannot be made.
  writeFileSync(join(out, 'references'), 'in the way\n');
  const { status, stderr } = run(['compile', 'examples/csv-report', '--to', 'agent-skill', '--out', out]);
  assert.equal(status, 2);
  assert.match(stderr, /cannot write into .*csv-plain: .*references is a file, not a folder; nothing was written/);
  assert.deepEqual(tree(out), ['references']);
  assert.equal(readFileSync(join(out, 'references'), 'utf8'), 'in the way\n');
});

test('exit codes: 1 when the skill or the result has errors (nothing written), 2 for usage, a target that does not fit, and an output that cannot be written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const broken = run(['compile', 'examples/mistakes/broken-procedure', '--to', 'agent-skill', '--out', join(dir, 'x')]);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /error: .*\nskillgraph: \d+ errors; nothing was written\n$/s);
  assert.ok(!existsSync(join(dir, 'x')));
  // A skill with errors still compiles to IR, its diagnostics inside.
  const ir = run(['compile', 'examples/mistakes/broken-procedure', '--to', 'ir']);
  assert.equal(ir.status, 0);
  assert.ok(JSON.parse(ir.stdout).diagnostics.some((item: { severity: string }) => item.severity === 'error'));
  // The result is checked too: a folder name that is no valid skill name gives a result with an error.
  const badName = run(['compile', 'examples/release-notes', '--to', 'aip', '--out', join(dir, 'Not A Name')]);
  assert.equal(badName.status, 1);
  assert.match(badName.stderr, /Not A Name\/SKILL\.md:2:7: error: .*\[invalid_name\]/);
  assert.ok(!existsSync(join(dir, 'Not A Name')));

  assert.equal(run(['compile', 'examples/release-notes']).status, 2);
  assert.match(
    run(['compile', 'examples/release-notes', '--to', 'pdf']).stderr,
    /--to must be one of ir, aip, agent-skill, metaskill, metaskill-sop, mermaid, dot/,
  );
  const unfit = run(['compile', 'examples/release-notes', '--to', 'agent-skill']);
  assert.equal(unfit.status, 2);
  assert.match(
    unfit.stderr,
    /this skill reads as agent-skill, which compiles to ir, aip, mermaid, dot; not to agent-skill/,
  );
  const noOut = run(['compile', 'examples/release-notes', '--to', 'aip']);
  assert.equal(noOut.status, 2);
  assert.match(noOut.stderr, /--to aip makes a package of several files: give --out DIR/);
  // /proc refuses new folders even to root: a read-only place.
  const readOnly = run(['compile', 'examples/csv-report', '--to', 'agent-skill', '--out', '/proc/skillgraph-out']);
  assert.equal(readOnly.status, 2);
  assert.match(readOnly.stderr, /cannot write into \/proc\/skillgraph-out: .*; nothing was written/);
  assert.equal(run(['compile', join(dir, 'missing'), '--to', 'ir']).status, 2);
});

test('a link inside the output folder that leads out of it is not written through', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const outside = join(dir, 'outside');
  mkdirSync(outside);
  const out = join(dir, 'csv-plain');
  mkdirSync(out);
  symlinkSync(outside, join(out, 'scripts'));
  const { status, stderr } = run(['compile', 'examples/csv-report', '--to', 'agent-skill', '--out', out]);
  assert.equal(status, 2);
  assert.match(stderr, /scripts\/load_table\.py: a link inside the output folder leads out of it; nothing was written/);
  assert.deepEqual(readdirSync(outside), []);
  assert.deepEqual(readdirSync(out), ['scripts']);
});

test('a 10 MB SKILL.md is refused with its own error and nothing is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-compile-'));
  const skill = join(dir, 'huge');
  cpSync(join(root, 'examples/release-notes'), skill, { recursive: true });
  writeFileSync(join(skill, 'SKILL.md'), `---\nname: huge\ndescription: Big.\n---\n${'x'.repeat(10 * 1024 * 1024)}\n`);
  const { status, stderr } = run(['compile', skill, '--to', 'aip', '--out', join(dir, 'huge-aip')]);
  assert.equal(status, 1);
  assert.match(stderr, /\[file_too_large\]/);
  assert.ok(!existsSync(join(dir, 'huge-aip')));
});

test('compile --to: the former target names plain, meta and meta_sop still give what the new names give', () => {
  // One-file results go to stdout: the same text, status and messages.
  for (const [former, now, skill] of [
    ['meta', 'metaskill', 'examples/release-digest'],
    ['meta_sop', 'metaskill-sop', 'examples/weekly-digest'],
  ]) {
    const [before, after] = [former, now].map((to) => run(['compile', skill, '--to', to]));
    assert.deepEqual([before.status, before.stdout, before.stderr], [after.status, after.stdout, after.stderr], former);
  }
  // A package: the same files, with the same texts (the skill is named after its folder, the same in both).
  const dir = mkdtempSync(join(tmpdir(), 'sg-former-'));
  const written = ['plain', 'agent-skill'].map((to) => {
    const out = join(dir, to, 'triage');
    assert.equal(run(['compile', 'examples/ticket-triage', '--to', to, '--out', out]).status, 0, to);
    return readdirSync(out, { recursive: true })
      .map(String)
      .sort()
      .map((file) => [file, statSync(join(out, file)).isFile() ? readFileSync(join(out, file), 'utf8') : '']);
  });
  assert.deepEqual(written[0], written[1]);
});
