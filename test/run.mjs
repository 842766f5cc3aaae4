// Runs the test files with Node's own test runner (TypeScript through tsx).
// Node 20's runner does not expand globs, so the file list is built here.
//   node test/run.mjs [PART...]   every test file whose path holds one of the parts (all of them without any)
//   node test/run.mjs --quick     the tests that need neither root nor a browser or VS Code: unit, LSP over stdio,
//                                 CLI, corpus, property, robustness and distribution tests, and Neovim and Emacs
//                                 when they are installed; in parallel, one file per core
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('.', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((arg) => arg !== '--quick');
/** What the quick run leaves out: the browser (webview), and VS Code in code-server with Chromium (e2e). */
const NEEDS_A_BROWSER = ['webview/', 'e2e/'];

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The editors the client tests drive, by test file, and whether each is installed. */
const EDITORS = { 'clients/neovim.test.ts': 'nvim', 'clients/emacs.test.ts': 'emacs' };
const installed = (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
let files = find(root)
  .filter((file) => only.length === 0 || only.some((part) => relative(root, file).includes(part)))
  .sort();
if (quick) {
  files = files.filter((file) => !NEEDS_A_BROWSER.some((part) => relative(root, file).startsWith(part)));
  for (const [test, command] of Object.entries(EDITORS))
    if (!installed(command)) {
      files = files.filter((file) => relative(root, file) !== test);
      console.log(`test/run.mjs: ${command} is not installed, so ${test} is not run (npm test installs and runs it)`);
    }
}
const parallel = quick ? [`--test-concurrency=${availableParallelism()}`] : [];
// Every test, and every program a test starts (the CLI, git, Neovim, VS Code, Chromium, npm pack), makes its
// temporary files under one folder of this run, removed when the run ends, passed or failed: a full run writes
// hundreds of megabytes there (copies of the repository, browser profiles), and a test that fails or is stopped
// halfway never reaches its own clean-up.
const runTmp = mkdtempSync(join(tmpdir(), 'sg-tests-'));
// Ctrl-C reaches the tests too: the run waits for them to stop, then cleans up below.
process.on('SIGINT', () => {});
const result = spawnSync(
  process.execPath,
  // Every test file sees the shell's grammar loaded (test/support/shellGrammar.mjs), as every host loads it.
  [
    '--import',
    'tsx',
    '--import',
    join(root, 'support', 'shellGrammar.mjs'),
    '--test',
    '--test-reporter=spec',
    ...parallel,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, TMPDIR: runTmp, TMP: runTmp, TEMP: runTmp } },
);
rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
process.exit(result.status ?? 1);
