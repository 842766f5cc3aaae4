import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PROFILE_IDS } from '../../server/src/platforms/profiles';
import { RULES } from '../../server/src/rules';
import { SEVERITY_CHOICES } from '../../server/src/checks/engine/severities';
import { LensCommands, SERVER_SETTING_KEYS, SETTINGS_SECTION } from '../../server/src/protocol';
import { editorSettings } from '../../server/src/service/settings';

const readSettings = (raw: unknown, base: string) =>
  editorSettings([{ source: 'workspace configuration', raw }], base).settings;

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    configuration: { properties: Record<string, { enum?: string[]; additionalProperties?: { enum?: string[] } }> };
    commands: { command: string }[];
  };
};
const properties = manifest.contributes.configuration.properties;

test('every setting the server reads is one the extension declares, with the values the server accepts', () => {
  for (const key of SERVER_SETTING_KEYS) assert.ok(properties[`${SETTINGS_SECTION}.${key}`], key);
  assert.deepEqual(properties[`${SETTINGS_SECTION}.profile`].enum, PROFILE_IDS);
  assert.deepEqual(properties[`${SETTINGS_SECTION}.rules`].additionalProperties?.enum, SEVERITY_CHOICES);
});

test('the commands lenses run that the palette offers are declared by the extension', () => {
  const declared = new Set(manifest.contributes.commands.map((entry) => entry.command));
  assert.ok(declared.has(LensCommands.openPreviewToSide));
  assert.ok(declared.has(LensCommands.compileSkill));
});

test('settings as an editor sends them: what is unknown or of the wrong type is left out', () => {
  const code = RULES[0].code;
  assert.deepEqual(
    readSettings(
      {
        profile: 'codex',
        rules: { [code]: 'off', nope: 'error', [RULES[1].code]: 'loud' },
        catalogRoots: ['cat', 3, ''],
      },
      '/ws',
    ),
    { profile: 'codex', rules: { [code]: 'off' }, catalogRoots: ['/ws/cat'] },
  );
  assert.deepEqual(readSettings({ profile: 'emacs', rules: 'all', catalogRoots: 'x' }, '/ws'), {
    rules: {},
    catalogRoots: [],
  });
  assert.deepEqual(readSettings(null, '/ws'), { rules: {}, catalogRoots: [] });
});

test('settings from both places an editor puts them: the section wins key by key and rule by rule, nothing erases', () => {
  const [first, second] = RULES.map((rule) => rule.code);
  const both = editorSettings(
    [
      {
        source: 'initializationOptions',
        raw: { profile: 'claude-code', rules: { [first]: 'off', [second]: 'error' }, userSkillFolders: true },
      },
      {
        source: 'workspace configuration',
        raw: { rules: { [second]: 'information' }, catalogRoots: ['cat'], userSkillFolders: false },
      },
    ],
    '/ws',
  );
  assert.deepEqual(both.settings, {
    profile: 'claude-code',
    rules: { [first]: 'off', [second]: 'information' },
    catalogRoots: ['/ws/cat'],
    userSkillFolders: false,
  });
  assert.equal(
    both.description,
    `profile claude-code (initializationOptions); rules ${first} off (initializationOptions), ${second} information (workspace configuration); catalogRoots /ws/cat (workspace configuration); userSkillFolders off (workspace configuration)`,
  );
  // An editor with no section answers null (eglot, Helix): the options given at start stay.
  const nothing = editorSettings(
    [
      { source: 'initializationOptions', raw: { profile: 'codex' } },
      { source: 'workspace configuration', raw: null },
    ],
    '/ws',
  );
  assert.deepEqual(nothing.settings, { profile: 'codex', rules: {}, catalogRoots: [] });
  assert.equal(
    nothing.description,
    'profile codex (initializationOptions); rules not set; catalogRoots not set; userSkillFolders not set',
  );
});

test('what an editor sent that cannot be used is named in the description, not silently dropped', () => {
  const { description } = editorSettings(
    [
      {
        source: 'initializationOptions',
        raw: {
          profile: 'claud-code',
          rules: { nope: 'off', [RULES[0].code]: 'loud' },
          catalogRoots: 'x',
          userSkillFolders: 'yes',
        },
      },
    ],
    '/ws',
  );
  // What was most likely meant, when something valid is close; nothing when nothing is (`nope`).
  assert.match(
    description,
    /ignored: profile "claud-code" \(not a profile; did you mean claude-code\?\) in initializationOptions/,
  );
  assert.match(description, /rules\.nope \(no such rule\) in initializationOptions/);
  assert.match(description, /\(not one of error, warning, information, hint, off\)/);
  assert.match(description, /catalogRoots \(not a list of folders\) in initializationOptions/);
  assert.match(description, /userSkillFolders \(not true or false\) in initializationOptions/);
});
