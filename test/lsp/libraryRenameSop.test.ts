import * as assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { LineIndex } from '../../server/src/parse/text/lineIndex';
import { repository, runCli } from '../support/cliRun';
import { sharedServer } from '../support/lspClient';

// A `meta_sop` MetaSkill's ``Run `beta` `` line is an edge of the library: renaming `beta` over stdio renames it there
// too, and `check` then finds every composed skill (no `unknown_skill`).

const sop =
  '---\nname: pipeline\ndescription: Builds and ships. Use on a release.\nkind: meta_sop\n---\n\n' +
  '## Phase 1: Build\n\nRun `beta` as agent with:\n- task: build it\nSave as `built`.\n';
const root = repository(
  {
    'pipeline/SKILL.md': sop,
    'beta/SKILL.md': '---\nname: beta\ndescription: Builds the thing. Use before shipping.\n---\n\nBuild it.\n',
  },
  'sg-lsp-rename-sop-',
);
const beta = path.join(root, 'beta', 'SKILL.md');
const shared = sharedServer(root);

/** Applies a rename's edits and folder moves to the disk, as an editor would. */
function apply(edit: WorkspaceEdit) {
  for (const change of edit.documentChanges ?? []) {
    if ('kind' in change) {
      if (change.kind === 'rename') renameSync(new URL(change.oldUri).pathname, new URL(change.newUri).pathname);
      continue;
    }
    const file = new URL(change.textDocument.uri).pathname;
    const text = readFileSync(file, 'utf8');
    const lines = new LineIndex(text);
    const edits = (change.edits as TextEdit[])
      .map((item) => ({
        start: lines.offsetAt(item.range.start),
        end: lines.offsetAt(item.range.end),
        text: item.newText,
      }))
      .sort((a, b) => b.start - a.start);
    writeFileSync(
      file,
      edits.reduce((out, item) => out.slice(0, item.start) + item.text + out.slice(item.end), text),
    );
  }
}

test('renaming a skill a meta_sop runs edits its Run line; check then finds no unknown_skill', async () => {
  const uri = await shared().open(beta);
  const edit = (await shared().connection.sendRequest('textDocument/rename', {
    textDocument: { uri },
    position: { line: 1, character: 7 },
    newName: 'build-it',
  })) as WorkspaceEdit;
  const sopEdits = (edit.documentChanges ?? []).flatMap((change) =>
    'kind' in change || !change.textDocument.uri.endsWith('pipeline/SKILL.md') ? [] : (change.edits as TextEdit[]),
  );
  assert.deepEqual(
    sopEdits.map((item) => [item.range.start.line, item.range.start.character, item.range.end.character, item.newText]),
    [[8, 5, 9, 'build-it']],
  );
  apply(edit);
  assert.match(readFileSync(path.join(root, 'pipeline', 'SKILL.md'), 'utf8'), /Run `build-it` as agent with:/);
  const report = JSON.parse(runCli(root, 'check', '.', '--format', 'json').stdout) as {
    diagnostics: { code: string; file: string }[];
  };
  assert.deepEqual(
    report.diagnostics.filter((item) => item.code === 'unknown_skill'),
    [],
  );
});
