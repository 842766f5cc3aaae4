// Loaded before every test file (test/run.mjs passes it to --import): the shell's grammar is WebAssembly, loaded
// asynchronously, and the analyses read shell with it only once their host has awaited its load, as the CLI and the
// language server do.
import { createRequire } from 'node:module';

const { loadShellGrammar, shellGrammarProblem } = createRequire(import.meta.url)(
  '../../server/src/parse/shell/shellGrammar.ts',
);
await loadShellGrammar();
if (shellGrammarProblem()) throw new Error(`test/support: the shell grammar did not load: ${shellGrammarProblem()}`);
