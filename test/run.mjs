// Runs every test file with Node's own test runner (TypeScript through tsx).
// Node 20's runner does not expand globs, so the file list is built here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('.', import.meta.url).pathname;
const only = process.argv.slice(2);

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = find(root)
  .filter((file) => only.length === 0 || only.some((part) => relative(root, file).includes(part)))
  .sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
