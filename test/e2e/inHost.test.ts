import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { openBrowser } from '../support/browser';
import { packageExtension, packageTestExtension, REPO, startCodeServer } from './codeServer';

test('the in-editor API suite passes inside VS Code (code-server extension host)', async () => {
  const workspace = mkdtempSync(path.join(tmpdir(), 'sg-inhost-ws-'));
  cpSync(path.join(REPO, 'examples'), workspace, { recursive: true });
  const results = path.join(mkdtempSync(path.join(tmpdir(), 'sg-inhost-out-')), 'results.json');
  const runnerVsix = await packageTestExtension(
    path.join(__dirname, 'inHost', 'runnerPackage.json'),
    path.join(__dirname, 'inHost', 'runner.ts'),
    '# Skillgraph in-editor test runner\n\nRuns the in-editor suite; for tests only.',
  );
  const server = await startCodeServer({
    vsix: [packageExtension(), runnerVsix],
    workspace,
    port: 18392,
    env: { SKILLGRAPH_E2E_RESULTS: results },
  });
  // The extension host starts when a window connects, so one browser page is opened.
  const { context } = await openBrowser(server.url);
  try {
    const deadline = Date.now() + 180000;
    while (!existsSync(results) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    assert.ok(existsSync(results), `no results within 3 minutes; see ${server.log}`);
    const report = JSON.parse(readFileSync(results, 'utf8')) as {
      vscode: string;
      results: { name: string; ok: boolean; error?: string }[];
    };
    mkdirSync(path.join(REPO, 'test-artifacts', 'e2e'), { recursive: true });
    cpSync(results, path.join(REPO, 'test-artifacts', 'e2e', 'in-host-results.json'));
    assert.match(report.vscode, /^1\.139\./);
    assert.deepEqual(
      report.results.filter((result) => !result.ok),
      [],
    );
    assert.equal(report.results.length, 12);
  } finally {
    await context.close();
    server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
});
