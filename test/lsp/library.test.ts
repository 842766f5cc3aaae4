import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { CompletionItem, Hover, Location } from 'vscode-languageserver-types';
import { sharedServer, uriOf } from '../support/lspClient';

// What one skill says of others, through the built server over stdio: a workspace of skills read as one library.

const root = mkdtempSync(path.join(tmpdir(), 'sg-lsp-library-'));
const write = (name: string, text: string) => {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, 'SKILL.md'), text);
  return path.join(root, name, 'SKILL.md');
};
const notes = write(
  'release-notes',
  '---\nname: release-notes\ndescription: Writes release notes from merged pull requests. Use when a release is cut.\n---\n\nWrite the notes.\n',
);
// Line 5: a mention that resolves; line 6: one a letter off.
const digest = write(
  'release-digest',
  '---\nname: release-digest\ndescription: Sums up the week. Use on Fridays.\n---\n\nFirst run /release-notes for each release.\nThen run /relase-notes again.\n',
);

const shared = sharedServer(root);

test('a mention a letter off a workspace skill is a finding in the editor, at the name', async () => {
  const uri = await shared().open(digest);
  const found = await shared().waitForPush(uri, (items) => items.some((item) => item.code === 'unknown_skill_mention'));
  assert.deepEqual(
    found
      .filter((item) => item.code === 'unknown_skill_mention')
      .map((item) => [item.range.start.line, item.range.start.character, item.range.end.character]),
    [[6, 10, 22]],
  );
});

test('definition, hover and references follow a mention to the skill it names, and back', async () => {
  const uri = uriOf(digest);
  const at = { line: 5, character: 14 };
  const [definition] = (await shared().connection.sendRequest('textDocument/definition', {
    textDocument: { uri },
    position: at,
  })) as Location[];
  assert.deepEqual(definition, {
    uri: uriOf(notes),
    range: { start: { line: 1, character: 6 }, end: { line: 1, character: 19 } },
  });
  const hover = (await shared().connection.sendRequest('textDocument/hover', {
    textDocument: { uri },
    position: at,
  })) as Hover;
  assert.match(
    (hover.contents as { value: string }).value,
    /\*\*release-notes\*\* \(skill\)\n\nWrites release notes from merged pull requests/,
  );
  const notesUri = await shared().open(notes);
  const references = (await shared().connection.sendRequest('textDocument/references', {
    textDocument: { uri: notesUri },
    position: { line: 1, character: 8 },
    context: { includeDeclaration: false },
  })) as Location[];
  assert.deepEqual(references, [
    { uri, range: { start: { line: 5, character: 11 }, end: { line: 5, character: 24 } } },
  ]);
});

test('completion after / offers the workspace skills, replacing what is typed', async () => {
  const uri = uriOf(digest);
  await shared().connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [
      { range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } }, text: 'Last, /rel' },
    ],
  });
  const items = (await shared().connection.sendRequest('textDocument/completion', {
    textDocument: { uri },
    position: { line: 7, character: 10 },
  })) as CompletionItem[];
  const offered = items.find((item) => item.label === 'release-notes');
  assert.ok(offered, JSON.stringify(items.map((item) => item.label)));
  assert.deepEqual(offered.textEdit, {
    range: { start: { line: 7, character: 7 }, end: { line: 7, character: 10 } },
    newText: 'release-notes',
  });
  assert.ok(!items.some((item) => item.label === 'release-digest'), 'the skill itself is not offered');
});

test('a skill created on disk with the mentioned name resolves the mention: the finding goes', async () => {
  const uri = uriOf(digest);
  await shared().waitForPush(
    uri,
    (items) => shared().pushedVersions.get(uri) === 2 && items.some((item) => item.code === 'unknown_skill_mention'),
  );
  const created = write(
    'relase-notes',
    '---\nname: relase-notes\ndescription: A skill by that name. Use to test.\n---\n\nHi.\n',
  );
  await shared().connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uriOf(created), type: 1 }],
  });
  await shared().waitForPush(uri, (items) => !items.some((item) => item.code === 'unknown_skill_mention'));
});
