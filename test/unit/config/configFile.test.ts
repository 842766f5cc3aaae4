import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PROFILE_IDS } from '../../../server/src/platforms/profiles';
import { RULES } from '../../../server/src/rules';
import { parseArgs } from '../../../server/src/cli/args';
import { readConfig, findConfigFile } from '../../../server/src/config/configFile';
import { ConfigStore, configForSkill, effectiveSettings } from '../../../server/src/config/skillConfig';
import { profileFromLocation } from '../../../server/src/platforms/clients';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { unmark } from '../../support/fixture';

/** A configuration file at /repo/.skillgraph.yaml (with «marked» spans), and what reading it gives. */
function configFrom(marked: string, files: Record<string, string> = {}) {
  const { text, spans } = unmark(marked);
  const fs = new MemoryFileSystem({ '/repo/.skillgraph.yaml': text, ...files });
  return { config: readConfig(fs, '/repo/.skillgraph.yaml'), spans, fs };
}

test('a configuration: profile, strictness, rules, ignore globs, overrides, catalogs and the baseline, paths from its folder', () => {
  const { config } = configFrom(
    [
      'profile: claude-code',
      'strict: true',
      'rules:',
      '  missing_file: off',
      '  nested_reference: error',
      'ignore: [overlays/**, "**/templates"]',
      'overrides:',
      '  - files: .codex/**',
      '    profile: codex',
      '    rules: { body_too_long: off }',
      'catalogs: [shared]',
      'baseline: .skillgraph-baseline.json',
      '',
    ].join('\n'),
  );
  assert.deepEqual(config.diagnostics, []);
  assert.equal(config.profile, 'claude-code');
  assert.equal(config.strict, true);
  assert.deepEqual(config.rules, { missing_file: 'off', nested_reference: 'error' });
  assert.deepEqual(config.ignore, [
    { base: '/repo', glob: 'overlays/**' },
    { base: '/repo', glob: '**/templates' },
  ]);
  assert.deepEqual(config.overrides, [
    { base: '/repo', files: ['.codex/**'], profile: 'codex', rules: { body_too_long: 'off' } },
  ]);
  assert.deepEqual(config.catalogs, ['/repo/shared']);
  assert.equal(config.baseline, '/repo/.skillgraph-baseline.json');
});

test('invalid_config: every mistake at its place, and the rest of the configuration still applies', () => {
  const { config, spans } = configFrom(
    [
      'profile: «claude»',
      'rules:',
      '  «nested_refrence»: off',
      '  missing_file: «quiet»',
      '  body_too_long: warning',
      '«colour»: blue',
      'extends: «./base.yaml»',
      '',
    ].join('\n'),
  );
  const found = config.diagnostics
    .map((item) => [item.code, item.span] as const)
    .sort((a, b) => a[1].start - b[1].start);
  assert.deepEqual(
    found,
    spans.map((span) => ['invalid_config', span]),
  );
  const messages = config.diagnostics.map((item) => item.message).join('\n');
  assert.match(messages, /No rule has the code `nested_refrence`; did you mean `nested_reference`\?/);
  assert.match(messages, /`extends`: `\.\/base\.yaml` does not exist/);
  assert.equal(config.profile, undefined);
  assert.deepEqual(config.rules, { body_too_long: 'warning' });
});

test('invalid_config: a file that does not parse, or is no map, is reported and applies nothing', () => {
  const broken = configFrom('profile: «[codex»\n');
  assert.equal(broken.config.diagnostics[0].code, 'invalid_config');
  assert.match(broken.config.diagnostics[0].message, /does not parse/);
  assert.equal(broken.config.profile, undefined);
  const list = configFrom('- codex\n');
  assert.match(list.config.diagnostics[0].message, /must be a map of settings/);
});

test('extends: the base first, this file over it; loops are reported, not followed', () => {
  const { config } = configFrom('extends: team/base.yaml\nprofile: codex\nrules: { missing_file: warning }\n', {
    '/repo/team/base.yaml':
      'profile: claude-code\nrules: { missing_file: off, body_too_long: off }\nignore: [vendor]\n',
  });
  assert.deepEqual(config.diagnostics, []);
  assert.equal(config.profile, 'codex');
  assert.deepEqual(config.rules, { missing_file: 'warning', body_too_long: 'off' });
  assert.deepEqual(config.ignore, [{ base: '/repo/team', glob: 'vendor' }]);
  assert.deepEqual(config.files, ['/repo/.skillgraph.yaml', '/repo/team/base.yaml']);
  const loop = configFrom('extends: «other.yaml»\n', { '/repo/other.yaml': 'extends: .skillgraph.yaml\n' });
  assert.match(loop.config.diagnostics.map((item) => item.message).join('\n'), /makes a loop/);
});

test('the nearest configuration file governs a skill; ignore and overrides match by glob, from its folder', () => {
  const fs = new MemoryFileSystem({
    '/repo/.skillgraph.json': JSON.stringify({
      rules: { body_too_long: 'off' },
      ignore: ['overlays', 'vendor/*/legacy-*'],
      overrides: [{ files: ['codex/**'], profile: 'codex', rules: { missing_file: 'off' } }],
    }),
    '/repo/nested/.skillgraph.yaml': 'profile: vscode\n',
  });
  assert.equal(findConfigFile(fs, '/repo/skills/a'), '/repo/.skillgraph.json');
  assert.equal(findConfigFile(fs, '/repo/nested/deep'), '/repo/nested/.skillgraph.yaml');
  const store = new ConfigStore(fs);
  assert.equal(store.forSkill('/repo/overlays/x/SKILL.md').ignored, true);
  assert.equal(store.forSkill('/repo/a/overlays/x/SKILL.md').ignored, true);
  assert.equal(store.forSkill('/repo/vendor/acme/legacy-x/SKILL.md').ignored, true);
  assert.equal(store.forSkill('/repo/vendor/acme/current/SKILL.md').ignored, false);
  assert.deepEqual(store.forSkill('/repo/codex/review/SKILL.md'), {
    file: '/repo/.skillgraph.json',
    profile: { id: 'codex', source: 'config' },
    strict: false,
    preview: false,
    severities: { body_too_long: 'off', missing_file: 'off' },
    ignored: false,
    catalogs: [],
  });
  assert.deepEqual(store.forSkill('/repo/nested/deep/s/SKILL.md').profile, { id: 'vscode', source: 'config' });
});

test('the profile from where a skill lives, when the configuration does not say; an explicit one wins over both', () => {
  assert.equal(profileFromLocation('/home/me/.claude/skills/review/SKILL.md'), 'claude-code');
  assert.equal(profileFromLocation('/repo/.agents/skills/review/SKILL.md'), 'codex');
  assert.equal(profileFromLocation('/repo/.codex/skills/review/SKILL.md'), 'codex');
  assert.equal(profileFromLocation('/repo/.github/skills/review/SKILL.md'), 'vscode');
  assert.equal(profileFromLocation('/repo/.cursor/skills/review/SKILL.md'), 'cursor');
  assert.equal(profileFromLocation('/repo/skills/review/SKILL.md'), undefined);
  const located = configForSkill(undefined, '/repo/.claude/skills/review/SKILL.md');
  assert.deepEqual(located.profile, { id: 'claude-code', source: 'location' });
  const configured = configForSkill(
    {
      file: '/repo/.skillgraph.yaml',
      profile: 'codex',
      rules: {},
      ignore: [],
      overrides: [],
      catalogs: [],
      files: [],
      diagnostics: [],
    },
    '/repo/.claude/skills/review/SKILL.md',
  );
  assert.deepEqual(configured.profile, { id: 'codex', source: 'config' });
  assert.deepEqual(effectiveSettings({ profile: 'vscode', rules: { missing_file: 'error' } }, configured).profile, {
    id: 'vscode',
    source: 'setting',
  });
});

test('the schema editors read knows every rule code, and only those', () => {
  const schema = JSON.parse(
    readFileSync(path.join(__dirname, '..', '..', '..', 'schemas', 'skillgraph-config.schema.json'), 'utf8'),
  );
  assert.deepEqual(
    schema.$defs.rules.propertyNames.enum,
    RULES.map((rule) => rule.code),
  );
  assert.deepEqual(schema.$defs.profile.enum, PROFILE_IDS);
});

test('extends: skillgraph:security, the audit preset: security rules as errors (grants as warnings), the file wins over it', () => {
  const { config } = configFrom('extends: skillgraph:security\nrules:\n  encoded_text: warning\n');
  assert.equal(config.rules.remote_code, 'error');
  assert.equal(config.rules.hostile_instruction, 'error');
  assert.equal(config.rules.unrestricted_shell, 'warning');
  // A value that only looks like a secret is a guess for the auditor to read, not a gate.
  assert.equal(config.rules.secret_assignment, 'warning');
  // A command run at invocation is for a reviewer to read; one that looks like an example and runs is a fault.
  assert.equal(config.rules.invocation_command, 'warning');
  assert.equal(config.rules.shown_command_runs, 'error');
  assert.equal(config.rules.encoded_text, 'warning');
  assert.equal(config.rules.missing_file, undefined, 'only the security rules');
  const unknown = configFrom('extends: «skillgraph:paranoid»\n');
  assert.deepEqual(
    unknown.config.diagnostics.map((item) => [item.code, item.span.start, item.span.end]),
    [['invalid_config', unknown.spans[0].start, unknown.spans[0].end]],
  );
  assert.match(unknown.config.diagnostics[0].message, /the presets are `skillgraph:security`/);
});

test('preview: off by default; the file turns the preview rules on, an override for its skills, a flag over both', () => {
  const fs = new MemoryFileSystem({
    '/repo/.skillgraph.yaml': 'preview: true\noverrides:\n  - files: quiet/**\n    preview: false\n',
  });
  const store = new ConfigStore(fs);
  assert.equal(store.forSkill('/repo/a/SKILL.md').preview, true);
  assert.equal(store.forSkill('/repo/quiet/a/SKILL.md').preview, false);
  assert.equal(effectiveSettings({ preview: true }, store.forSkill('/repo/quiet/a/SKILL.md')).preview, true);
  assert.equal(new ConfigStore(new MemoryFileSystem({})).forSkill('/elsewhere/a/SKILL.md').preview, false);
  const command = parseArgs(['check', 'skills', '--preview']);
  assert.equal(command.command === 'check' && command.preview, true);
  assert.equal(parseArgs(['fix', '--preview']).command === 'fix', true);
  assert.equal((parseArgs(['check']) as { preview?: boolean }).preview, undefined);
  assert.deepEqual(
    configFrom('preview: «yes please»\n').config.diagnostics.map((item) => item.code),
    ['invalid_config'],
  );
});
