import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { repository, writeIn } from '../support/cliRun';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { applyTextEdits, startServer, uriOf, type ServerSession } from '../support/lspClient';

// What a team adopting Skillgraph does in the editor, over stdio: suppress a finding where it is wrong, apply every
// safe fix at once (on save), and see only the findings its baseline does not accept.

const root = repository({}, 'sg-lsp-adoption-');
const sessions: ServerSession[] = [];
after(async () => {
  for (const session of sessions) await session.close();
  rmSync(root, { recursive: true, force: true });
});

const write = (relative: string, text: string) => writeIn(root, relative, text);

async function server(): Promise<ServerSession> {
  const session = await startServer({ root, pull: true });
  sessions.push(session);
  return session;
}

const actionsAt = (session: ServerSession, uri: string, diagnostic: Diagnostic, only?: string[]) =>
  session.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic], ...(only ? { only } : {}) },
  });

/** The text after an action's edits to `uri`. */
const textAfter = (action: CodeAction, uri: string, text: string) => applyTextEdits(text, action.edit!.changes![uri]);

test('a quick fix adds the comment that suppresses a finding on its line; the finding is gone, and nothing else', async () => {
  const text =
    '---\nname: notes\ndescription: Writes notes. Use when asked.\n---\nRead [later](references/later.md).\n';
  const file = write('notes/SKILL.md', text);
  const session = await server();
  const uri = await session.open(file);
  const [missing] = await session.pullDiagnostics(uri);
  assert.equal(missing.code, 'missing_file');
  const actions = await actionsAt(session, uri, missing);
  const suppress = actions.find((action) => action.title === 'Suppress missing_file on this line')!;
  assert.equal(suppress.kind, 'quickfix');
  const suppressed = textAfter(suppress, uri, text);
  assert.match(
    suppressed,
    /\n<!-- skillgraph-disable-next-line missing_file -->\nRead \[later\]\(references\/later\.md\)\./,
  );
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: suppressed }],
  });
  assert.deepEqual(await session.pullDiagnostics(uri), []);
});

test('source.fixAll.skillgraph applies every safe fix of the document, and only safe ones', async () => {
  const session = await server();
  const kinds = (session.initialize.capabilities.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds;
  assert.ok(kinds.includes('source.fixAll.skillgraph'));
  const text = [
    '---',
    'name: fixes',
    'description: Use when: fixing',
    '---',
    'See [guide](references\\guide.md) and `references/gide.md`.',
    '',
  ].join('\n');
  const file = write('fixes/SKILL.md', text);
  write('fixes/references/guide.md', '# Guide\n');
  const uri = await session.open(file);
  const items = await session.pullDiagnostics(uri);
  const [fixAll] = await actionsAt(session, uri, items[0], ['source.fixAll']);
  assert.equal(fixAll.kind, 'source.fixAll.skillgraph');
  assert.equal(fixAll.title, 'Fix all safe Skillgraph problems (2)');
  const fixed = textAfter(fixAll, uri, text);
  assert.match(fixed, /description: "Use when: fixing"/);
  assert.match(fixed, /\(references\/guide\.md\)/);
  assert.match(fixed, /`references\/gide\.md`/, 'the nearest file is a guess: not applied on fix all');
  // Asked for quick fixes only, no source action comes back.
  const quick = await actionsAt(session, uri, items[0], ['quickfix']);
  assert.ok(quick.every((action) => action.kind === 'quickfix'));
});

test('the baseline of the configuration hides the findings it accepts, and a change to it shows them again', async () => {
  write('team/.skillgraph.yaml', 'baseline: accepted.json\n');
  const baseline = write(
    'team/accepted.json',
    JSON.stringify({
      version: 1,
      findings: [{ file: 'review/SKILL.md', code: 'missing_file', text: 'references/old.md', count: 1 }],
    }),
  );
  const text =
    '---\nname: review\ndescription: Reviews. Use when asked.\n---\nRead [old](references/old.md).\n\nRead [new](references/new.md).\n';
  const file = write('team/review/SKILL.md', text);
  const session = await server();
  const uri = await session.open(file);
  const shown = await session.pullDiagnostics(uri);
  assert.deepEqual(
    shown.map((item) => [item.code, item.range.start.line]),
    [['missing_file', 6]],
  );
  const info = (await session.connection.sendRequest('skillgraph/skillInfo', { uri })) as {
    warnings: number;
    baselined: number;
    configFile: string;
  };
  assert.deepEqual([info.warnings, info.baselined], [1, 1]);
  assert.equal(info.configFile, uriOf(path.join(root, 'team/.skillgraph.yaml')));
  writeFileSync(baseline, JSON.stringify({ version: 1, findings: [] }));
  const before = session.refreshes();
  await session.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uriOf(baseline), type: 2 }],
  });
  for (let waited = 0; session.refreshes() === before && waited < 100; waited++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal((await session.pullDiagnostics(uri)).length, 2);
  assert.equal(readFileSync(file, 'utf8'), text, 'the editor wrote nothing');
});
