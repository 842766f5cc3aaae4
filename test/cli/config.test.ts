import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { repository, runCli } from '../support/cliRun';

const check = (root: string, ...args: string[]) => runCli(root, 'check', '.', ...args);

const skill = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does one thing. Use when testing.\n${extra}---\nRead [the notes](references/missing.md).\n`;

interface Report {
  skills: { dir: string; profile: { id: string; source: string }; strict?: true }[];
  diagnostics: { file: string; code: string; severity: string; range: { start: { line: number } } }[];
}

test('check reads the nearest .skillgraph.yaml: rules, ignore globs, per-glob overrides; flags win over it', () => {
  const root = repository({
    '.skillgraph.yaml': [
      'rules:',
      '  missing_file: off',
      'ignore:',
      '  - overlays',
      'overrides:',
      '  - files: team-codex/**',
      '    profile: codex',
      '    rules: { missing_file: error }',
      '',
    ].join('\n'),
    'skills/review/SKILL.md': skill('review'),
    'overlays/review/SKILL.md':
      '<!--variant:a:start-->\nA marker block, merged into the real skill at build time.\n<!--variant:a:end-->\n',
    'team-codex/deploy/SKILL.md': skill('deploy'),
  });
  const json = check(root, '--format', 'json');
  const report = JSON.parse(json.stdout) as Report;
  assert.deepEqual(
    report.skills.map((item) => [item.dir, item.profile]),
    [
      ['team-codex/deploy', { id: 'codex', source: 'config' }],
      ['skills/review', { id: 'agentskills', source: 'default' }],
    ].sort(),
  );
  assert.deepEqual(
    report.diagnostics.map((item) => [item.file, item.code, item.severity]),
    [['team-codex/deploy/SKILL.md', 'missing_file', 'error']],
  );
  assert.equal(json.status, 1);
  const text = check(root);
  assert.match(text.stderr, /^2 skills checked \(1 ignored by configuration\): 1 error, 0 warnings, 0 notes\n$/);
  // A flag wins over the file's profile for every skill.
  const flagged = JSON.parse(check(root, '--format', 'json', '--profile', 'claude-code').stdout) as Report;
  assert.deepEqual(
    flagged.skills.map((item) => item.profile),
    [
      { id: 'claude-code', source: 'setting' },
      { id: 'claude-code', source: 'setting' },
    ],
  );
});

test('a mistake in the configuration is an invalid_config finding in it, and fails the check; the rest applies', () => {
  const root = repository({
    '.skillgraph.yaml': 'profile: claude\nrules:\n  missing_file: off\n  nested_refrence: off\n',
    'skills/review/SKILL.md': skill('review'),
  });
  const { status, stdout } = check(root, '--format', 'json');
  const report = JSON.parse(stdout) as Report;
  assert.equal(status, 1);
  assert.deepEqual(
    report.diagnostics.map((item) => [item.file, item.code, item.range.start.line]),
    [
      ['.skillgraph.yaml', 'invalid_config', 3],
      ['.skillgraph.yaml', 'invalid_config', 0],
    ],
  );
});

test('the profile from where a skill lives, in the JSON report', () => {
  const root = repository({
    '.claude/skills/review/SKILL.md': skill('review'),
    '.github/skills/deploy/SKILL.md': skill('deploy'),
  });
  const report = JSON.parse(check(root, '--format', 'json').stdout) as Report;
  assert.deepEqual(report.skills.map((item) => [item.dir, item.profile]).sort(), [
    ['.claude/skills/review', { id: 'claude-code', source: 'location' }],
    ['.github/skills/deploy', { id: 'vscode', source: 'location' }],
  ]);
});

test('--strict, or strict: true in the file, gives the reference validator verdict', () => {
  const files = {
    'tools/SKILL.md':
      '---\nname: tools\ndescription: Lists tools.\nallowed-tools: [Read, Bash]\nwhen_to_use: Always.\n---\nBody.\n',
  };
  const lenient = check(repository(files), '--format', 'json');
  assert.equal(lenient.status, 0, lenient.stdout);
  const strict = check(repository(files), '--format', 'json', '--strict');
  const report = JSON.parse(strict.stdout) as Report;
  assert.equal(strict.status, 1);
  assert.deepEqual(report.skills[0].strict, true);
  assert.deepEqual(
    report.diagnostics.filter((item) => item.severity === 'error').map((item) => item.code),
    ['restricted_yaml', 'unknown_frontmatter_key'],
  );
  const fromFile = check(repository({ ...files, '.skillgraph.json': '{ "strict": true }' }), '--format', 'json');
  assert.equal(fromFile.status, 1);
});
