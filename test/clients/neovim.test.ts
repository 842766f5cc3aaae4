import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { copyExamples, positionOf, SERVER } from '../helpers/lspClient';

test('Neovim (headless, built-in LSP client) gets diagnostics, a definition and a hover from the server', () => {
  const root = copyExamples();
  try {
    const file = path.join(root, 'csv-report', 'SKILL.md');
    const text = readFileSync(file, 'utf8');
    const definition = positionOf(text, 'name: focus-column', 8, 2);
    const hover = positionOf(text, 'name: stats', 8, 2);
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
    const lines = result.stdout.split('\n').filter((line) => /^(DIAGNOSTICS|DIAG|DEFINITION|HOVER|ERROR) /.test(line));
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(lines, [
      'DIAGNOSTICS true',
      'DIAG 27:14 3 external_input "csv-path" is an external input: no step produces it, so the user or the environment must supply it.',
      'DEFINITION 56:14-56:26',
      'HOVER **input** `stats`: `list[object]`\\n\\nProduced by `profile-columns` as `list[object]`',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
