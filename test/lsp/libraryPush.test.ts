import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-types';
import { repository } from '../support/cliRun';
import { startServer } from '../support/lspClient';

// An editor that does not pull diagnostics (Neovim, Helix, Emacs): an edit of one skill that makes or ends a library
// finding in another open skill has the server push that skill's diagnostics again.

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\nDo it.\n`;
const DEPLOY = 'Deploy the web application to staging or production with rollback, health checks and release tagging.';
const SHIP = 'Deploy the web application to production or staging, with health checks, release tagging and rollback.';

test('a push-only client: editing one description until it collides pushes the other open skill, pointing back', async () => {
  const root = repository({
    'deploy-app/SKILL.md': skill('deploy-app', DEPLOY),
    'ship-app/SKILL.md': skill('ship-app', 'Ships a mobile build to the store. Use for a release of the app.'),
  });
  const server = await startServer({ root });
  try {
    assert.equal(server.initialize.capabilities.diagnosticProvider, undefined, 'the client announced no pull');
    const deploy = await server.open(path.join(root, 'deploy-app', 'SKILL.md'));
    const ship = await server.open(path.join(root, 'ship-app', 'SKILL.md'));
    await server.waitForPush(deploy);
    await server.waitForPush(ship);
    const similar = (items: Diagnostic[]) => items.filter((item) => item.code === 'similar_descriptions');
    assert.deepEqual(similar(server.pushed.get(deploy)!), []);
    const pushesBefore = server.pushCounts.get(deploy) ?? 0;

    // Only ship-app is edited; deploy-app's diagnostics come without anything done to it.
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: ship, version: 2 },
      contentChanges: [{ text: skill('ship-app', SHIP) }],
    });
    const pushed = await server.waitForPush(deploy, (items) => similar(items).length === 1);
    const [finding] = similar(pushed);
    assert.match(String(finding.message), /^This description and that of `ship-app` \(\.\.\/ship-app\/SKILL\.md\)/);
    assert.deepEqual(finding.range, {
      start: { line: 2, character: 13 },
      end: { line: 2, character: 13 + DEPLOY.length },
    });
    assert.deepEqual(finding.relatedInformation, [
      {
        location: {
          uri: ship,
          range: { start: { line: 2, character: 13 }, end: { line: 2, character: 13 + SHIP.length } },
        },
        message: 'The description of `ship-app`',
      },
    ]);
    assert.equal(similar(await server.waitForPush(ship, (items) => similar(items).length === 1)).length, 1);
    assert.ok(server.pushCounts.get(deploy)! > pushesBefore);

    // Edited apart again: the finding leaves the other skill too.
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: ship, version: 3 },
      contentChanges: [{ text: skill('ship-app', 'Ships a mobile build to the store. Use for a release of the app.') }],
    });
    await server.waitForPush(deploy, (items) => similar(items).length === 0);
    // A keystroke that changes nothing of the library's findings elsewhere pushes only the edited skill.
    const settled = server.pushCounts.get(deploy);
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: ship, version: 4 },
      contentChanges: [
        { text: skill('ship-app', 'Ships a mobile build to the store. Use for any release of the app.') },
      ],
    });
    await server.waitForPush(ship, () => server.pushedVersions.get(ship) === 4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(server.pushCounts.get(deploy), settled);

    // A collision made in unsaved text ends when that document is closed: the other skill is told.
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: ship, version: 5 },
      contentChanges: [{ text: skill('ship-app', SHIP) }],
    });
    await server.waitForPush(deploy, (items) => similar(items).length === 1);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: ship } });
    await server.waitForPush(deploy, (items) => similar(items).length === 0);
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
