import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PROFILE_IDS } from '../../server/src/checks/profiles';
import { RULES } from '../../server/src/checks/rules';
import { SEVERITY_CHOICES } from '../../server/src/checks/severities';
import { LensCommands, SERVER_SETTING_KEYS, SETTINGS_SECTION } from '../../server/src/protocol';
import { readSettings } from '../../server/src/service/settings';

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
  const code = Object.keys(RULES)[0];
  assert.deepEqual(
    readSettings(
      {
        profile: 'codex',
        rules: { [code]: 'off', nope: 'error', [Object.keys(RULES)[1]]: 'loud' },
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
