import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The built CLI, as the package runs it. */
export const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

/** A repository of skills in a temporary folder: relative path → text (or bytes). */
export function repository(files: Record<string, string | Uint8Array>, prefix = 'sg-cli-'): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  for (const [relative, content] of Object.entries(files)) writeIn(root, relative, content);
  return root;
}

/** Writes a file of the repository, making its folders; returns its path. */
export function writeIn(root: string, relative: string, content: string | Uint8Array): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** Runs the CLI in `cwd`. */
export function runCli(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI in `cwd` without blocking this process (a test's own server must answer it meanwhile). */
export function runCliAsync(
  cwd: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A file of the repository, as text. */
export const readIn = (root: string, relative: string) => readFileSync(path.join(root, relative), 'utf8');

/** Runs git in `root` as a test's own author (a machine may have no git identity); its output, trimmed. */
export function gitIn(root: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.test',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.test',
    },
  }).trim();
}

/** Makes `root` a git repository holding everything in it, committed once. */
export function commitAll(root: string, message: string): void {
  gitIn(root, 'init', '-q');
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-qm', message);
}
