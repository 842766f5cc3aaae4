import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { editorFixture, positions, skillFileKinds } from './editorFixture';

// Headless Neovim (Debian's 0.7) configured by docs/editors.md's recipe itself, with `skillgraph-server` on PATH as
// `npm link` leaves it.

const { root, home, env: editorEnv, recipe, settingsSkill, remove } = editorFixture('Neovim', 'lua', 'lua');
after(remove);

/**
 * Runs headless Neovim on `file` and returns the result lines neovim.lua prints. The docs/editors.md recipe is loaded
 * first, as a user's init.lua would, unless the run starts its own client (SKILLGRAPH_INIT_OPTIONS).
 */
function neovim(file: string, env: Record<string, string> = {}): string[] {
  const recipeFirst = env.SKILLGRAPH_INIT_OPTIONS ? [] : ['-c', `luafile ${env.RECIPE ?? recipe}`];
  const result = spawnSync(
    'nvim',
    ['--headless', '--clean', ...recipeFirst, '-c', `luafile ${path.join(__dirname, 'neovim.lua')}`],
    {
      encoding: 'utf8',
      timeout: 180000,
      env: {
        ...process.env,
        ...editorEnv,
        SKILL_FILE: file,
        XDG_STATE_HOME: home,
        XDG_DATA_HOME: home,
        XDG_CACHE_HOME: home,
        ...env,
      },
    },
  );
  assert.equal(result.status, 0, result.stdout + result.stderr);
  return result.stdout
    .split('\n')
    .filter((line) => /^(ATTACHED|DIAGNOSTICS|DIAG|DEFINITION|HOVER|CHANGED|AFTER|LSPLOG|ERROR) /.test(line));
}

const codes = (lines: string[], prefix: string) =>
  lines.filter((line) => line.startsWith(`${prefix} `)).map((line) => line.split(' ').slice(1, 4).join(' '));

test('Neovim (the docs/editors.md recipe): diagnostics, a definition and a hover; settings changed as the page says change the findings', () => {
  const file = path.join(root, 'csv-report', 'SKILL.md');
  const lines = neovim(file, {
    ...positions(file, ['name: focus-column', 8, 2], ['name: stats', 8, 2]),
    SKILLGRAPH_SETTINGS: JSON.stringify({ skillgraph: { profile: 'agentskills', rules: { external_input: 'error' } } }),
  });
  assert.deepEqual(lines, [
    'DIAGNOSTICS true',
    'DIAG 27:14 3 external_input "csv-path" is an external input: no step produces it, so the user or the environment must supply it.',
    'DEFINITION SKILL.md 56:14-56:26',
    'HOVER **input** `stats`: `list[object]`\\n\\nProduced by `profile-columns` as `list[object]`',
    'CHANGED true',
    'AFTER 27:14 1 external_input "csv-path" is an external input: no step produces it, so the user or the environment must supply it.',
  ]);
});

test('Neovim: the profile and a rule severity in the settings, and in init_options, change the findings', () => {
  const byRecipe = neovim(settingsSkill, {
    SKILLGRAPH_SETTINGS: JSON.stringify({
      skillgraph: { profile: 'claude-code', rules: { name_mismatch: 'warning' } },
    }),
  });
  assert.deepEqual(codes(byRecipe, 'DIAG'), ['1:6 1 name_mismatch', '3:0 3 client_frontmatter_key']);
  assert.deepEqual(codes(byRecipe, 'AFTER'), ['1:6 2 name_mismatch']);
  const byInitOptions = neovim(settingsSkill, {
    SKILLGRAPH_INIT_OPTIONS: JSON.stringify({ profile: 'claude-code', rules: { name_mismatch: 'warning' } }),
  });
  assert.deepEqual(codes(byInitOptions, 'DIAG'), ['1:6 2 name_mismatch']);
  assert.deepEqual(
    [...byRecipe, ...byInitOptions].filter((line) => line.startsWith('LSPLOG ')),
    [],
    'no warning or error in Neovim’s LSP log',
  );
});

test('Neovim: the settings of the recipe reach the server from the start (0.7 asks for none)', () => {
  // The user's edit of the block's settings line: a rule turned off there is off on the first diagnostics.
  const edited = path.join(home, 'recipe-settings.lua');
  const text = readFileSync(recipe, 'utf8');
  const line = "settings = { skillgraph = { profile = 'agentskills' } },";
  assert.ok(text.includes(line), 'the recipe has the settings line the README shows');
  writeFileSync(
    edited,
    text.replace(line, "settings = { skillgraph = { profile = 'agentskills', rules = { name_mismatch = 'off' } } },"),
  );
  const lines = neovim(settingsSkill, { RECIPE: edited });
  assert.deepEqual(codes(lines, 'DIAG'), ['3:0 3 client_frontmatter_key']);
  // The block as written: its profile (agentskills) on the first diagnostics, the rule on.
  assert.deepEqual(codes(neovim(settingsSkill), 'DIAG'), ['1:6 1 name_mismatch', '3:0 3 client_frontmatter_key']);
});

test('Neovim on a skill+ flow.py: its own findings, a definition in state.py, a hover on a node', () => {
  const file = path.join(root, 'mistakes', 'broken-flow', 'flow.py');
  const lines = neovim(file, positions(file, ['into="depth"', 7], ['"how-deep"', 2]));
  assert.deepEqual(
    lines.filter((line) => !line.startsWith('DIAG ')),
    [
      'DIAGNOSTICS true',
      'DEFINITION state.py 6:4-6:9',
      'HOVER **ask** `how-deep` in stage `scope`\\n\\n> Quick or thorough?\\n\\nWrites `depth`',
    ],
  );
  assert.deepEqual(codes(lines, 'DIAG'), [
    '6:57 1 state_type_mismatch',
    '7:38 1 unknown_placeholder',
    '7:53 1 state_type_mismatch',
    '9:24 1 invalid_loop',
    '9:49 1 predicate_syntax',
    '10:83 2 missing_script',
    '10:109 1 unknown_rule',
  ]);
});

test('Neovim: the recipe attaches the server to every kind of skill file, and to no other file', () => {
  const { skill, other } = skillFileKinds(root);
  const lines = neovim('', { SKILLGRAPH_ATTACH_FILES: [...skill, ...other].join('\n') });
  assert.deepEqual(lines, [
    ...skill.map((file) => `ATTACHED ${file} true`),
    ...other.map((file) => `ATTACHED ${file} false`),
  ]);
});
