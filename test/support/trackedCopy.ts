import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const REPO = path.join(__dirname, '..', '..');

/**
 * A copy of the repository's tracked files (as a clone would have them,
 * with the working tree's content), for tests that build or install from
 * it without touching the checkout other tests are reading.
 */
export function trackedCopy(prefix: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), prefix));
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(copy, file));
  }
  return copy;
}
