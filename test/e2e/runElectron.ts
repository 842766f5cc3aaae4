// Runs the in-editor suite with @vscode/test-electron: it downloads a desktop
// VS Code and starts it with this folder as the extension under development.
// Use it where VS Code can be downloaded; this workplace cannot (the
// code-server harness in inHost.test.ts runs the same suite here).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { build } from 'esbuild';

async function main(): Promise<void> {
  const repo = path.join(__dirname, '..', '..');
  const out = mkdtempSync(path.join(tmpdir(), 'sg-electron-'));
  const suite = path.join(out, 'suite.js');
  await build({
    entryPoints: [path.join(__dirname, 'inHost', 'suite.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    outfile: suite,
    logLevel: 'warning',
  });
  const workspace = path.join(out, 'workspace');
  cpSync(path.join(repo, 'examples'), workspace, { recursive: true });
  await runTests({
    extensionDevelopmentPath: repo,
    extensionTestsPath: suite,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
}

main().catch((error) => {
  console.error(`test:electron failed: ${(error as Error).message}`);
  process.exit(1);
});
