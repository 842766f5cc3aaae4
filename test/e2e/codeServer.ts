import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';

export const REPO = path.join(__dirname, '..', '..');
export const TOOLS = process.env.E2E_TOOLS ?? path.join(REPO, '.e2e-tools');
const NODE24 = path.join(TOOLS, 'node24', 'bin', 'node');
const ENTRY = path.join(TOOLS, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export interface CodeServer {
  url: string;
  dir: string;
  log: string;
  stop(): void;
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get(`${url}/healthz`, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      })
      .on('error', () => resolve(false));
  });
}

/**
 * Starts a throw-away code-server (real VS Code 1.139) on loopback with a
 * fresh user-data and extensions folder, the given .vsix files installed and
 * `workspace` open. It runs in its own process group, so `stop()` ends the
 * whole tree, file watchers included.
 */
export async function startCodeServer(options: {
  vsix: string[];
  workspace: string;
  port: number;
  env?: Record<string, string>;
  settings?: object;
}): Promise<CodeServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-code-server-'));
  const userData = path.join(dir, 'user-data');
  const extensions = path.join(dir, 'extensions');
  const config = path.join(dir, 'config.yaml');
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  writeFileSync(config, `bind-addr: 127.0.0.1:${options.port}\nauth: none\ncert: false\n`);
  writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'security.workspace.trust.enabled': false,
      'chat.disableAIFeatures': true,
      'git.enabled': false,
      'files.hotExit': 'off',
      'editor.hover.delay': 100,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      ...options.settings,
    }),
  );
  // XDG folders keep code-server's own config and logs out of $HOME.
  const env = {
    ...process.env,
    PATH: `${path.dirname(NODE24)}:${process.env.PATH}`,
    XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
    XDG_DATA_HOME: path.join(dir, 'xdg-data'),
    ...options.env,
  };
  const common = [ENTRY, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];
  for (const vsix of options.vsix)
    execFileSync(NODE24, [...common, '--install-extension', vsix], { env, stdio: 'pipe' });

  const log = path.join(dir, 'code-server.log');
  const out = openSync(log, 'w');
  const child = spawn(
    NODE24,
    [
      ...common,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--reconnection-grace-time',
      '5',
      options.workspace,
    ],
    { env, stdio: ['ignore', out, out], detached: true },
  );
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60000;
  while (!(await healthy(url))) {
    if (Date.now() > deadline) throw new Error(`code-server did not start; see ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `${url}/?folder=${encodeURIComponent(options.workspace)}`,
    dir,
    log,
    stop() {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

/** Ends a test run: keeps code-server's log as an artifact, stops it and removes its folders. */
export function stopCodeServer(server: CodeServer | undefined, artifacts: string): void {
  if (!server) return;
  cpSync(server.log, path.join(artifacts, 'code-server.log'));
  server.stop();
  rmSync(server.dir, { recursive: true, force: true });
}

/**
 * Packages an extension folder as a .vsix with vsce (by default Skillgraph itself, with the options of `npm run
 * package`).
 */
export function packageExtension(
  folder = REPO,
  extraArgs = [
    '--readme-path',
    'client/README.md',
    '--baseImagesUrl',
    'https://github.com/skillgraph/skillgraph/raw/HEAD/client',
  ],
): string {
  const vsix = path.join(mkdtempSync(path.join(tmpdir(), 'sg-vsix-')), 'extension.vsix');
  execFileSync(
    path.join(REPO, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', ...extraArgs, '-o', vsix],
    { cwd: folder, stdio: 'pipe' },
  );
  return vsix;
}

/**
 * A test-only extension packaged from its package.json and TypeScript entry (bundled as `main` names it), with a
 * one-line README.
 */
export async function packageTestExtension(packageJson: string, entry: string, readme: string): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), 'sg-test-ext-'));
  cpSync(packageJson, path.join(folder, 'package.json'));
  writeFileSync(path.join(folder, 'README.md'), `${readme}\n`);
  const main = (JSON.parse(readFileSync(packageJson, 'utf8')) as { main: string }).main;
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    outfile: path.join(folder, main),
    logLevel: 'warning',
  });
  // Test-only extensions have no repository to name.
  return packageExtension(folder, ['--skip-license', '--allow-missing-repository']);
}
