import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { repository, writeIn } from '../support/cliRun';
import { startServer, uriOf, type ServerSession } from '../support/lspClient';

// The configuration file, as the language server reads it: the same file the CLI reads, under the editor's settings.

const root = repository({}, 'sg-lsp-config-');
const sessions: ServerSession[] = [];
after(async () => {
  for (const session of sessions) await session.close();
  rmSync(root, { recursive: true, force: true });
});

const write = (relative: string, text: string) => writeIn(root, relative, text);

const skillText = (name: string) =>
  `---\nname: ${name}\ndescription: Reviews code. Use when asked for a review.\nwebsite: https://example.test\n---\nRead [the notes](references/missing.md).\n`;
const review = write('skills/review/SKILL.md', skillText('review'));
const overlay = write(
  'overlays/partial/SKILL.md',
  '<!--variant:a:start-->\nOnly a marker block.\n<!--variant:a:end-->\n',
);
const claude = write('.claude/skills/deploy/SKILL.md', skillText('deploy'));
const config = write(
  '.skillgraph.yaml',
  [
    'rules:',
    '  missing_file: off',
    'ignore:',
    '  - overlays',
    'overrides:',
    '  - files: skills/**',
    '    rules: { unknown_frontmatter_key: error }',
    '',
  ].join('\n'),
);

const codes = (items: { code?: string | number }[]) => items.map((item) => String(item.code)).sort();

test('the configuration file applies in the editor: its rules, overrides and ignore globs, and the profile of a folder', async () => {
  const server = await startServer({ root, pull: true });
  sessions.push(server);
  const reviewUri = await server.open(review);
  const items = await server.pullDiagnostics(reviewUri);
  assert.deepEqual(codes(items), ['unknown_frontmatter_key']);
  assert.equal(items[0].severity, 1, 'the override makes it an error');
  const overlayUri = await server.open(overlay);
  assert.deepEqual(await server.pullDiagnostics(overlayUri), [], 'an ignored skill gets no findings');
  const claudeUri = await server.open(claude);
  // Under .claude/skills/ the skill is Claude Code's: a key Claude Code does not read is a note there (the override,
  // for skills/**, does not reach it), and the analysis says where its profile came from.
  const [unknown] = await server.pullDiagnostics(claudeUri);
  assert.deepEqual([unknown.code, unknown.severity], ['unknown_frontmatter_key', 3]);
  const info = (await server.connection.sendRequest('skillgraph/skillInfo', { uri: claudeUri })) as {
    profile: { id: string; source: string };
  };
  assert.deepEqual(info.profile, { id: 'claude-code', source: 'location' });
});

test('an explicit setting wins over the file and the folder; a change to the file reaches open skills', async () => {
  const server = await startServer({
    root,
    pull: true,
    initializationOptions: { profile: 'codex', rules: { missing_file: 'warning' } },
  });
  sessions.push(server);
  const claudeUri = await server.open(claude);
  const info = (await server.connection.sendRequest('skillgraph/skillInfo', { uri: claudeUri })) as {
    profile: { id: string; source: string };
  };
  assert.deepEqual(info.profile, { id: 'codex', source: 'setting' });
  assert.ok(codes(await server.pullDiagnostics(claudeUri)).includes('missing_file'), 'the setting turns it back on');

  const reviewUri = await server.open(review);
  writeFileSync(config, 'rules:\n  unknown_frontmatter_key: off\n');
  const before = server.refreshes();
  await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uriOf(config), type: 2 }],
  });
  for (let waited = 0; server.refreshes() === before && waited < 100; waited++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(codes(await server.pullDiagnostics(reviewUri)), ['missing_file']);
});

test('invalid_config: the mistakes of an open configuration file are reported in it, at their place', async () => {
  const server = await startServer({ root });
  sessions.push(server);
  const text = 'profile: claude\nrules:\n  nested_refrence: off\n';
  const uri = await server.open(config, text);
  const items = await server.waitForPush(uri, (found) => found.length === 2);
  assert.deepEqual(
    items
      .map((item) => [item.code, item.range.start.line, item.range.start.character])
      .sort((x, y) => (x[1] as number) - (y[1] as number)),
    [
      ['invalid_config', 0, 9],
      ['invalid_config', 2, 2],
    ],
  );
  assert.match(items.map((item) => item.message).join('\n'), /did you mean `nested_reference`\?/);
});
