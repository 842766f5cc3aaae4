import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { editorFixture, positions, skillFileKinds } from './editorFixture';
import { recipeSnippet } from './recipeSnippet';

// Emacs 28 with eglot 1.9 and markdown-mode (Debian's emacs-nox, elpa-eglot, elpa-markdown-mode), configured by
// docs/editors.md's recipe itself, with `skillgraph-server` on PATH as `npm link` leaves it.

const { root, env: editorEnv, recipe, settingsSkill, remove } = editorFixture('Emacs', 'elisp', 'el');
after(remove);

const NAME_MISMATCH_WARNING =
  'DIAG 1:6 eglot-warning skillgraph [name_mismatch]: `name` is "other-name" but the skill folder is "wrong"; they must be equal.';

interface Run {
  lines: string[];
  stderr: string;
}

/** Emacs in batch mode, the recipe loaded as a user's init would load it, then emacs.el driving it. */
function emacs(file: string, env: Record<string, string> = {}): Run {
  const result = spawnSync('emacs', ['--batch', '-q', '-l', recipe, '-l', path.join(__dirname, 'emacs.el')], {
    encoding: 'utf8',
    timeout: 90000,
    env: { ...process.env, ...editorEnv, SKILL_FILE: file, ...env },
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  return {
    lines: result.stdout
      .split('\n')
      .filter((line) => /^(MODE|MODEFOR|DIAGNOSTICS|DIAG|HOVER|DEFINITION|CHANGED|LOG|ERROR) /.test(line)),
    stderr: result.stderr,
  };
}

/** eglot warns when a server registers a capability it did not offer to take. */
function assertNoWarnings(run: Run): void {
  assert.doesNotMatch(run.stderr, /unsupported capability|Warning \(eglot\)/, run.stderr);
}

test('Emacs (eglot, the docs/editors.md recipe): diagnostics, a hover and a definition; a change to eglot-workspace-configuration changes the findings', () => {
  const file = path.join(root, 'csv-report', 'SKILL.md');
  const run = emacs(file, {
    ...positions(file, ['name: focus-column', 8, 2], ['name: stats', 8, 2]),
    SKILLGRAPH_WORKSPACE_CONFIGURATION: '(:skillgraph (:rules (:external_input "error")))',
  });
  assert.deepEqual(
    run.lines.filter((line) => !line.startsWith('LOG ')),
    [
      'MODE skillgraph-markdown-mode',
      'DIAGNOSTICS t',
      'DIAG 27:14 eglot-note skillgraph [external_input]: "csv-path" is an external input: no step produces it, so the user or the environment must supply it.',
      'HOVER **input** `stats`: `list[object]`\\n\\nProduced by `profile-columns` as `list[object]`',
      'DEFINITION SKILL.md 56:14',
      'CHANGED t',
      'DIAG 27:14 eglot-error skillgraph [external_input]: "csv-path" is an external input: no step produces it, so the user or the environment must supply it.',
    ],
  );
  const logs = run.lines.filter((line) => line.startsWith('LOG '));
  assert.match(
    logs[0],
    /^LOG skillgraph: ready \(push diagnostics\); settings: profile agentskills \(initializationOptions\)/,
  );
  assert.match(logs.at(-1)!, /rules external_input error \(workspace configuration\)/);
  assertNoWarnings(run);
});

test('Emacs: the profile and a rule severity through the recipe’s :initializationOptions change the findings', () => {
  const before = emacs(settingsSkill);
  assert.deepEqual(
    before.lines.filter((line) => line.startsWith('DIAG ')).map((line) => line.split(' ').slice(1, 4).join(' ')),
    ['1:6 eglot-error skillgraph', '3:0 eglot-note skillgraph'],
  );
  assert.match(
    before.lines.find((line) => line.startsWith('DIAG 1:6'))!,
    /\[name_mismatch\]/,
  );
  const run = emacs(settingsSkill, {
    SKILLGRAPH_INIT_OPTIONS: '(:profile "claude-code" :rules (:name_mismatch "warning"))',
  });
  assert.deepEqual(
    run.lines.filter((line) => line.startsWith('DIAG ')),
    [NAME_MISMATCH_WARNING],
  );
  assert.match(
    run.lines.find((line) => line.startsWith('LOG skillgraph: ready'))!,
    /profile claude-code \(initializationOptions\); rules name_mismatch warning \(initializationOptions\)/,
  );
  assertNoWarnings(run);
});

test('Emacs: a project’s .dir-locals.el (docs/editors.md’s) wins over the recipe’s :initializationOptions', () => {
  const dirLocals = path.join(root, 'settings', '.dir-locals.el');
  writeFileSync(dirLocals, recipeSnippet('Emacs', 'elisp', 1));
  try {
    const run = emacs(settingsSkill);
    assert.deepEqual(
      run.lines.filter((line) => line.startsWith('DIAG ')),
      [NAME_MISMATCH_WARNING],
    );
    assert.match(
      run.lines.find((line) => line.startsWith('LOG skillgraph: ready'))!,
      /profile claude-code \(workspace configuration\); rules name_mismatch warning \(workspace configuration\)/,
    );
    assertNoWarnings(run);
  } finally {
    rmSync(dirLocals);
  }
});

test('Emacs on a skill+ flow.py: its own mode, the package’s findings, a definition in state.py, a hover on a node', () => {
  const file = path.join(root, 'mistakes', 'broken-flow', 'flow.py');
  const run = emacs(file, positions(file, ['into="depth"', 7], ['"how-deep"', 2]));
  assert.equal(run.lines[0], 'MODE skillgraph-python-mode');
  assert.deepEqual(
    run.lines.filter((line) => /^(HOVER|DEFINITION) /.test(line)),
    [
      'HOVER **ask** `how-deep` in stage `scope`\\n\\n> Quick or thorough?\\n\\nWrites `depth`',
      'DEFINITION state.py 6:4',
    ],
  );
  assert.deepEqual(
    run.lines
      .filter((line) => line.startsWith('DIAG '))
      .map((line) => line.split(' ').slice(1, 2).join(' '))
      .sort(),
    ['10:109', '10:83', '6:57', '7:38', '7:53', '9:24', '9:49'],
  );
  assertNoWarnings(run);
});

test('Emacs: the recipe opens every kind of skill file in a Skillgraph mode, and other Markdown and Python as before', () => {
  const { skill, other } = skillFileKinds(root);
  const run = emacs('', { SKILLGRAPH_MODES_FOR: [...skill, ...other].join('\n') });
  const modes = new Map(run.lines.map((line) => line.split(' ')).map(([, file, mode]) => [file, mode]));
  for (const file of skill) assert.match(modes.get(file) ?? '', /^skillgraph-(markdown|python|yaml)-mode$/, file);
  assert.deepEqual(
    other.map((file) => modes.get(file)),
    ['markdown-mode', 'python-mode'],
  );
});
