import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

// The shell's grammar: tree-sitter-bash, run by web-tree-sitter (both WebAssembly). WebAssembly loads asynchronously,
// so every host (the CLI, the language server, its threads, the benches and the tests) awaits loadShellGrammar once
// before it analyses; parsing is synchronous after that. A host that did not, or a load that failed, leaves the
// parser unset: the security rules then read shell a line at a time, as they read PowerShell.

let parser: Parser | undefined;
let loading: Promise<void> | undefined;
/** Why the grammar is not loaded, once a load failed. */
let problem: string | undefined;

/**
 * A .wasm file: beside the bundle that runs (esbuild.mjs copies both into dist/), else in its package (running from
 * the sources).
 */
function wasmFile(name: string, inPackage: string): string {
  const beside = path.join(__dirname, name);
  return existsSync(beside) ? beside : require.resolve(`${inPackage}/${name}`);
}

/** Loads the grammar, once however often it is called. Never throws: a failure is kept in shellGrammarProblem. */
export function loadShellGrammar(): Promise<void> {
  loading ??= (async () => {
    try {
      const runtime = wasmFile('tree-sitter.wasm', 'web-tree-sitter');
      await Parser.init({ locateFile: () => runtime });
      const bash = await Language.load(readFileSync(wasmFile('tree-sitter-bash.wasm', 'tree-sitter-bash')));
      const loaded = new Parser();
      loaded.setLanguage(bash);
      parser = loaded;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
  })();
  return loading;
}

/** The parser, once the grammar is loaded. */
export function shellParser(): Parser | undefined {
  return parser;
}

/** Why shell is read a line at a time: the grammar was never loaded, or its load failed (and how). */
export function shellGrammarProblem(): string | undefined {
  if (parser) return undefined;
  return problem ?? 'the shell grammar was not loaded';
}
