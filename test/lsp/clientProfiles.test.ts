import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { CompletionItem, Hover } from 'vscode-languageserver-protocol';
import { completionLabels, hoverText, positionOf, startServer, type ServerSession } from '../support/lspClient';

// The clients' own files and keys over the protocol: a skill's Codex metadata (`agents/openai.yaml`) is checked as
// the editor holds it, with hover and completion from its schema; Claude Code's hooks are checked in SKILL.md.

const root = mkdtempSync(path.join(tmpdir(), 'sg-clients-'));
const skill = path.join(root, 'release-notes');
mkdirSync(path.join(skill, 'agents'), { recursive: true });
mkdirSync(path.join(skill, 'assets'));
writeFileSync(path.join(skill, 'assets', 'icon.png'), 'png');
writeFileSync(
  path.join(skill, 'SKILL.md'),
  '---\nname: release-notes\ndescription: Writes release notes. Use when the user asks for notes.\nhooks:\n  PostToolUse:\n    - matcher: Edit\n      hooks:\n        - type: command\n          command: npx prettier --write .\n  Stopp:\n    - hooks:\n        - type: command\n          command: echo done\n---\n\nWrite the notes.\n',
);
const openai = path.join(skill, 'agents', 'openai.yaml');
const METADATA =
  'interface:\n  display_name: "Release notes"\n  icon_small: "./assets/icon.png"\n  brand_color: "#12AB34"\npolicy:\n  allow_implicit_invocation: false\n';
writeFileSync(openai, METADATA);

let session: ServerSession;
before(async () => {
  session = await startServer({ root, initializationOptions: { profile: 'claude-code' } });
});
after(() => session.close());

test('agents/openai.yaml: checked as the editor holds it, each mistake at its place, clean again when fixed', async () => {
  const uri = await session.open(openai);
  assert.deepEqual(await session.waitForPush(uri), []);
  const broken = METADATA.replace('"#12AB34"', '"green"')
    .replace('icon.png', 'missing.png')
    .replace('policy:', 'polcy:');
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: broken }],
  });
  const found = await session.waitForPush(uri, (items) => items.length > 0);
  assert.deepEqual(
    found.map((item) => [item.code, item.range.start.line, item.range.start.character]),
    [
      ['missing_file', 2, 14],
      ['invalid_openai_yaml', 3, 15],
      ['invalid_openai_yaml', 4, 0],
    ],
  );
  assert.match(String(found[2].message), /Did you mean `policy`\?/);
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 3 },
    contentChanges: [{ text: METADATA }],
  });
  assert.deepEqual(await session.waitForPush(uri, (items) => items.length === 0), []);
});

test('agents/openai.yaml: hover says what a key does for Codex; completion offers the keys and values Codex reads', async () => {
  const uri = await session.open(openai, METADATA);
  const hover = await session.requestAt<Hover>(
    'textDocument/hover',
    uri,
    positionOf(METADATA, 'allow_implicit_invocation', 2),
  );
  assert.match(hoverText(hover), /policy\.allow_implicit_invocation.*Codex[\s\S]*only when the user names it/);
  const typing = METADATA.replace('  display_name', '  d\n  display_name');
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 4 },
    contentChanges: [{ text: typing }],
  });
  const keys = await session.requestAt<CompletionItem[]>(
    'textDocument/completion',
    uri,
    positionOf(typing, '  d\n', 3),
  );
  assert.deepEqual(completionLabels(keys), [
    'display_name',
    'short_description',
    'icon_small',
    'icon_large',
    'brand_color',
    'default_prompt',
  ]);
  const values = await session.requestAt<CompletionItem[]>(
    'textDocument/completion',
    uri,
    positionOf(typing, 'allow_implicit_invocation: ', 'allow_implicit_invocation: '.length),
  );
  assert.deepEqual(completionLabels(values), ['true', 'false']);
});

test('claude-code: a hook event one letter off is reported at its key, with the event meant', async () => {
  const uri = await session.open(path.join(skill, 'SKILL.md'));
  const found = await session.waitForPush(uri, (items) => items.length > 0);
  assert.deepEqual(
    found.map((item) => [item.code, item.range.start.line, item.message]),
    [
      [
        'hook_runs_command',
        8,
        "While the skill is active, Claude Code runs `npx prettier --write .` on every PostToolUse of Edit, with the user's permissions and without asking. Check that it does only what the skill says.",
      ],
      [
        'invalid_hooks',
        9,
        '`Stopp` is not a hook event Claude Code fires, so these hooks never run. Did you mean `Stop`?',
      ],
    ],
    'the hook under the misspelt event never runs, so it is not said to run',
  );
});
