import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { repository } from '../support/cliRun';
import { sharedServer, uriOf } from '../support/lspClient';

// Renaming a skill across the library through the built server over stdio: from its `name` or a mention of it, and
// when the user renames its folder (`workspace/willRenameFiles`).

// Line 5 of ship-docs: a slash mention at 4–15; line 6: a Skill() mention at 11–22 and a link at 34–54.
const root = repository(
  {
    'deploy-site/SKILL.md':
      '---\nname: deploy-site\ndescription: Deploys the site to the host. Use when the site must go live.\n---\n\nUpload it.\n',
    'ship-docs/SKILL.md':
      '---\nname: ship-docs\ndescription: Ships the docs. Use when docs changed.\n---\n\nRun /deploy-site once built.\nOr allow Skill(deploy-site), see [it](../deploy-site/SKILL.md).\n',
    'other/SKILL.md': '---\nname: other\ndescription: Another skill. Use in tests.\n---\n\nNothing here.\n',
    // A MetaSkill composing it: line 6 holds `skill: "deploy-site"`, the name at 14–25.
    'release-all/SKILL.md':
      '---\nname: release-all\ndescription: Releases everything. Use on release day.\nkind: meta\ncomposition:\n  steps:\n    - skill: "deploy-site"\n      id: deploy\n---\n\nRuns the deploy.\n',
  },
  'sg-lsp-rename-',
);
const deploy = path.join(root, 'deploy-site', 'SKILL.md');
const docs = path.join(root, 'ship-docs', 'SKILL.md');

const shared = sharedServer(root);

/** A rename's edits as [file, line, start, end, new text], and its resource operations. */
function summary(edit: WorkspaceEdit | null) {
  const edits: [string, number, number, number, string][] = [];
  const moves: [string, string][] = [];
  for (const change of edit?.documentChanges ?? []) {
    if ('kind' in change) {
      if (change.kind === 'rename')
        moves.push([
          path.relative(root, new URL(change.oldUri).pathname),
          path.relative(root, new URL(change.newUri).pathname),
        ]);
    } else
      for (const item of change.edits as TextEdit[])
        edits.push([
          path.relative(root, new URL(change.textDocument.uri).pathname),
          item.range.start.line,
          item.range.start.character,
          item.range.end.character,
          item.newText,
        ]);
  }
  return { edits, moves };
}

test('the server offers to follow folder renames', () => {
  assert.deepEqual(shared().initialize.capabilities.workspace?.fileOperations?.willRename, {
    filters: [{ scheme: 'file', pattern: { glob: '**/*', matches: 'folder' } }],
  });
});

test("rename from a mention: the skill's name, every mention and link of it, and its folder, under one label", async () => {
  const uri = await shared().open(docs);
  const prepared = await shared().connection.sendRequest('textDocument/prepareRename', {
    textDocument: { uri },
    position: { line: 5, character: 8 },
  });
  assert.deepEqual(prepared, {
    range: { start: { line: 5, character: 5 }, end: { line: 5, character: 16 } },
    placeholder: 'deploy-site',
  });
  const edit = (await shared().connection.sendRequest('textDocument/rename', {
    textDocument: { uri },
    position: { line: 5, character: 8 },
    newName: 'publish-site',
  })) as WorkspaceEdit;
  assert.deepEqual(summary(edit), {
    edits: [
      ['deploy-site/SKILL.md', 1, 6, 17, 'publish-site'],
      ['release-all/SKILL.md', 6, 14, 25, 'publish-site'],
      ['ship-docs/SKILL.md', 5, 5, 16, 'publish-site'],
      ['ship-docs/SKILL.md', 6, 15, 26, 'publish-site'],
      ['ship-docs/SKILL.md', 6, 38, 61, '../publish-site/SKILL.md'],
    ],
    moves: [['deploy-site', 'publish-site']],
  });
  assert.deepEqual(Object.values(edit.changeAnnotations ?? {}), [
    {
      label: 'Rename the skill deploy-site to publish-site',
      needsConfirmation: false,
      description: 'its folder becomes publish-site',
    },
  ]);
});

test('rename from the name itself gives the same edits; a name that is taken or not a skill name is refused', async () => {
  const uri = await shared().open(deploy);
  const fromName = (await shared().connection.sendRequest('textDocument/rename', {
    textDocument: { uri },
    position: { line: 1, character: 8 },
    newName: 'publish-site',
  })) as WorkspaceEdit;
  assert.equal(summary(fromName).edits.length, 5);
  const refused = async (newName: string, message: RegExp) =>
    assert.rejects(
      shared().connection.sendRequest('textDocument/rename', {
        textDocument: { uri },
        position: { line: 1, character: 8 },
        newName,
      }),
      (error: Error & { code?: number }) => error.code === -32803 && message.test(error.message),
    );
  await refused('other', /A skill named "other" is already in the library/);
  await refused('Deploy Site', /"Deploy Site" is not a skill name/);
  mkdirSync(path.join(root, 'taken-folder'));
  await refused('taken-folder', /taken-folder is already there/);
});

test('a skill folder renamed in the editor: its name, mentions and links follow, the folder moves by itself', async () => {
  const edit = (await shared().connection.sendRequest('workspace/willRenameFiles', {
    files: [{ oldUri: uriOf(path.join(root, 'deploy-site')), newUri: uriOf(path.join(root, 'site-deploy')) }],
  })) as WorkspaceEdit;
  assert.deepEqual(summary(edit), {
    edits: [
      ['deploy-site/SKILL.md', 1, 6, 17, 'site-deploy'],
      ['release-all/SKILL.md', 6, 14, 25, 'site-deploy'],
      ['ship-docs/SKILL.md', 5, 5, 16, 'site-deploy'],
      ['ship-docs/SKILL.md', 6, 15, 26, 'site-deploy'],
      ['ship-docs/SKILL.md', 6, 38, 61, '../site-deploy/SKILL.md'],
    ],
    moves: [],
  });
  const unrelated = await shared().connection.sendRequest('workspace/willRenameFiles', {
    files: [{ oldUri: uriOf(path.join(root, 'taken-folder')), newUri: uriOf(path.join(root, 'elsewhere')) }],
  });
  assert.equal(unrelated, null, 'a folder with no skill changes nothing');
});

test("the folder move of the server's own rename, asked about as the editor applies it, adds nothing twice", async () => {
  const move = { oldUri: uriOf(path.join(root, 'deploy-site')), newUri: uriOf(path.join(root, 'publish-site')) };
  // The renames above asked for this move: its edits were in them.
  assert.equal(await shared().connection.sendRequest('workspace/willRenameFiles', { files: [move] }), null);
  // The user moving the folder that way afterwards is a rename of their own.
  const own = (await shared().connection.sendRequest('workspace/willRenameFiles', { files: [move] })) as WorkspaceEdit;
  assert.equal(summary(own).edits.length, 5);
});
