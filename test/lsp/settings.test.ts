import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { copyExamples, startServer, type ServerSession } from '../support/lspClient';

// Where the settings come from, as each kind of editor sends them: the `skillgraph` section of the workspace
// configuration when the editor has one, the `initializationOptions` otherwise, key by key.

const root = copyExamples();
const sessions: ServerSession[] = [];
after(async () => {
  for (const session of sessions) await session.close();
  rmSync(root, { recursive: true, force: true });
});

// An unknown frontmatter key: a warning by default, an error under claude-api (its upload rejects it).
const tagged = path.join(root, 'tagged', 'SKILL.md');
mkdirSync(path.dirname(tagged), { recursive: true });
writeFileSync(tagged, '---\nname: tagged\ndescription: Tags a thing.\ntags: [a]\n---\n');

const codesOf = (items: { code?: unknown; severity?: number }[]) => items.map((item) => [item.code, item.severity]);
const settingsLogs = (session: ServerSession) =>
  session.logs.map((log) => log.message).filter((message) => message.includes('settings:'));

async function pushAfter(session: ServerSession, uri: string, count: number) {
  // Each settings change makes the findings again: wait for the push that follows it.
  const seen = session.pushed.get(uri);
  return session.waitForPush(uri, (items) => items !== seen && settingsLogs(session).length >= count);
}

test('initializationOptions apply in a client without workspace/configuration, and a later push without the section keeps them', async () => {
  const session = await startServer({ root, initializationOptions: { profile: 'claude-api' } });
  sessions.push(session);
  const uri = await session.open(tagged);
  assert.deepEqual(codesOf(await session.waitForPush(uri, (items) => items.length > 0)), [
    ['unknown_frontmatter_key', 1],
  ]);
  // Neovim 0.7 pushes its `settings` after initialize, `{}` when the user gave none.
  await session.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
  assert.deepEqual(codesOf(await pushAfter(session, uri, 2)), [['unknown_frontmatter_key', 1]]);
  await session.connection.sendNotification('workspace/didChangeConfiguration', {
    settings: { skillgraph: { rules: { unknown_frontmatter_key: 'off' } } },
  });
  assert.deepEqual(codesOf(await pushAfter(session, uri, 3)), []);
  assert.match(
    settingsLogs(session).at(-1)!,
    /profile claude-api \(initializationOptions\); rules unknown_frontmatter_key off \(workspace configuration\)/,
  );
});

test('a client whose workspace/configuration has no skillgraph section (eglot, Helix) keeps its initializationOptions', async () => {
  const session = await startServer({
    root,
    initializationOptions: { profile: 'claude-api', rules: { unknown_frontmatter_key: 'warning' } },
    configurationSections: {},
  });
  sessions.push(session);
  const uri = await session.open(tagged);
  assert.deepEqual(codesOf(await session.waitForPush(uri, (items) => items.length > 0)), [
    ['unknown_frontmatter_key', 2],
  ]);
  assert.match(
    await session.waitForLog((message) => message.includes('ready')),
    /settings: profile claude-api \(initializationOptions\); rules unknown_frontmatter_key warning \(initializationOptions\)/,
  );
  // eglot pushes `eglot-workspace-configuration` and answers the pull with its `skillgraph` entry, here none.
  await session.connection.sendNotification('workspace/didChangeConfiguration', {
    settings: { skillgraph: { rules: { unknown_frontmatter_key: 'off' } } },
  });
  assert.deepEqual(codesOf(await pushAfter(session, uri, 2)), [], 'what the client pushed, when it answers nothing');
});

test('the section the editor answers wins over initializationOptions key by key', async () => {
  const session = await startServer({
    root,
    initializationOptions: { profile: 'claude-api', rules: { unknown_frontmatter_key: 'off' } },
    configurationSections: { skillgraph: { rules: { unknown_frontmatter_key: 'information' } } },
  });
  sessions.push(session);
  const uri = await session.open(tagged);
  assert.deepEqual(codesOf(await session.waitForPush(uri, (items) => items.length > 0)), [
    ['unknown_frontmatter_key', 3],
  ]);
});

test('didChangeConfiguration is registered only with a client that supports registering it', async () => {
  const without = await startServer({ root, configurationSections: {} });
  const withIt = await startServer({ root, configurationSections: {}, configurationRegistration: true });
  sessions.push(without, withIt);
  // The ready line is logged once registration and the first pull are done.
  for (const session of [without, withIt]) await session.waitForLog((message) => message.includes('ready'));
  assert.deepEqual(without.registrations, []);
  assert.deepEqual(withIt.registrations, ['workspace/didChangeConfiguration']);
});

test('a setting an editor sent that cannot be used is logged, not silently dropped', async () => {
  const session = await startServer({ root, initializationOptions: { profile: 'claud-code' } });
  sessions.push(session);
  const ready = await session.waitForLog((message) => message.includes('ready'));
  assert.match(
    ready,
    /profile not set; .*ignored: profile "claud-code" \(not a profile; did you mean claude-code\?\) in initializationOptions/,
  );
  // And shown where the user looks, once, with what was meant.
  assert.deepEqual(session.shown, [
    {
      type: 2,
      message:
        'Skillgraph did not use these settings: profile "claud-code" (not a profile; did you mean claude-code?) in initializationOptions.',
    },
  ]);
});

test('a misspelt rule in the settings is shown once, with the rule meant; settings that apply show nothing', async () => {
  const session = await startServer({ root, initializationOptions: { rules: { name_mismtch: 'off' } } });
  sessions.push(session);
  await session.waitForLog((message) => message.includes('ready'));
  assert.deepEqual(
    session.shown.map((item) => item.message),
    [
      'Skillgraph did not use these settings: rules.name_mismtch (no such rule; did you mean name_mismatch?) in initializationOptions.',
    ],
  );
  const good = await startServer({ root, initializationOptions: { profile: 'claude-code' } });
  sessions.push(good);
  await good.waitForLog((message) => message.includes('ready'));
  assert.deepEqual(good.shown, []);
});
