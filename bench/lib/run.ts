import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface Run {
  ms: number;
  maxRssMiB: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a Node program to completion, timing it and reading its peak memory
 * through the maxRss preload (`memory: false` leaves the preload out, for
 * start-up times, where even it would count); `execArgv` goes to Node
 * before the script.
 */
export function runNode(
  script: string,
  args: string[],
  options: { cwd?: string; memory?: boolean; execArgv?: string[] } = {},
): Run {
  // The preload writes the peak into a folder of its own, removed once read: a bench starts thousands of processes.
  const rssDir = mkdtempSync(path.join(tmpdir(), 'sg-rss-'));
  const rssFile = path.join(rssDir, 'maxrss');
  const preload = options.memory === false ? [] : ['--require', path.join(__dirname, 'maxRss.cjs')];
  try {
    const start = performance.now();
    const result = spawnSync(process.execPath, [...(options.execArgv ?? []), ...preload, script, ...args], {
      cwd: options.cwd,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      env: { ...process.env, SKILLGRAPH_MAXRSS_FILE: rssFile, NO_COLOR: '1' },
    });
    const ms = performance.now() - start;
    let maxRssMiB = Number.NaN;
    try {
      maxRssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
    } catch {
      // the process died before writing it
    }
    return { ms, maxRssMiB, status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  } finally {
    rmSync(rssDir, { recursive: true, force: true });
  }
}
