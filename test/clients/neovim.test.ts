import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { copyExamples, positionOf, SERVER } from '../support/lspClient';

/** Runs headless Neovim on `file` and returns the result lines neovim.lua prints. */
function neovim(
  root: string,
  file: string,
  definition: { line: number; character: number },
  hover: { line: number; character: number },
): string[] {
  const result = spawnSync('nvim', ['--headless', '--clean', '-c', `luafile ${path.join(__dirname, 'neovim.lua')}`], {
    encoding: 'utf8',
    timeout: 60000,
    env: {
      ...process.env,
      SKILL_FILE: file,
      SKILLGRAPH_SERVER: SERVER,
      DEFINITION_LINE: String(definition.line),
      DEFINITION_CHAR: String(definition.character),
      HOVER_LINE: String(hover.line),
      HOVER_CHAR: String(hover.character),
      XDG_STATE_HOME: root,
      XDG_DATA_HOME: root,
    },
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  return result.stdout.split('\n').filter((line) => /^(DIAGNOSTICS|DIAG|DEFINITION|HOVER|ERROR) /.test(line));
}

test('Neovim (headless, built-in LSP client) gets diagnostics, a definition and a hover from the server', () => {
  const root = copyExamples();
  try {
    const file = path.join(root, 'csv-report', 'SKILL.md');
    const text = readFileSync(file, 'utf8');
    const lines = neovim(
      root,
      file,
      positionOf(text, 'name: focus-column', 8, 2),
      positionOf(text, 'name: stats', 8, 2),
    );
    assert.deepEqual(lines, [
      'DIAGNOSTICS true',
      'DIAG 27:14 3 external_input "csv-path" is an external input: no step produces it, so the user or the environment must supply it.',
      'DEFINITION SKILL.md 56:14-56:26',
      'HOVER **input** `stats`: `list[object]`\\n\\nProduced by `profile-columns` as `list[object]`',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('Neovim on a skill+ flow.py: its own findings, a definition in state.py, a hover on a node', () => {
  const root = copyExamples();
  try {
    const file = path.join(root, 'mistakes', 'broken-flow', 'flow.py');
    const text = readFileSync(file, 'utf8');
    const lines = neovim(root, file, positionOf(text, 'into="depth"', 7), positionOf(text, '"how-deep"', 2));
    assert.deepEqual(
      lines.filter((line) => !line.startsWith('DIAG ')),
      [
        'DIAGNOSTICS true',
        'DEFINITION state.py 6:4-6:9',
        'HOVER **ask** `how-deep` in stage `scope`\\n\\n> Quick or thorough?\\n\\nWrites `depth`',
      ],
    );
    assert.deepEqual(
      lines.filter((line) => line.startsWith('DIAG ')).map((line) => line.split(' ').slice(1, 4).join(' ')),
      [
        '6:57 1 state_type_mismatch',
        '7:38 1 unknown_placeholder',
        '7:53 1 state_type_mismatch',
        '9:24 1 invalid_loop',
        '9:49 1 predicate_syntax',
        '10:83 2 missing_script',
        '10:109 1 unknown_rule',
      ],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
