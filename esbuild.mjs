// Bundles every host into dist/: one self-contained file per entry, so the
// CLI, the server and the extension run without node_modules beside them.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { build } from 'esbuild';

// `import * as path from 'node:path'` of a CommonJS module makes esbuild copy path's exports, each behind a getter,
// into a new object in every file that imports it: 22 copies, about 2 ms of every start of the CLI. Read through an ES
// module made once, path's functions bind directly.
const pathAsModule = {
  name: 'node-path-as-module',
  setup(build) {
    build.onResolve({ filter: /^(node:)?path$/ }, (args) =>
      args.namespace === 'path-module' ? undefined : { path: 'node:path', namespace: 'path-module' },
    );
    build.onLoad({ filter: /.*/, namespace: 'path-module' }, () => ({
      contents: `const path = require('node:path');\nexport const { ${Object.keys(nodePath)
        .filter((name) => name !== 'default')
        .join(', ')} } = path;\nexport default path;\n`,
      loader: 'js',
    }));
  },
};

// Only skill+ packages parse Python: the CLI and the server load lezer from a file of their own on the first parse
// (server/src/parse/python/pythonGrammar.ts), so a run on other skills neither reads nor compiles it.
const pythonGrammarApart = {
  name: 'python-grammar-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/pythonGrammar$/ }, () => ({ path: './python-grammar.js', external: true }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [pathAsModule],
  alias: {
    // yaml's ES module build: imported functions bind directly, where its CommonJS build puts a getter on every call.
    yaml: './node_modules/yaml/browser/index.js',
    // web-tree-sitter's CommonJS build: its ES module build finds its files through import.meta, which a CommonJS
    // bundle has not.
    'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs',
  },
};

await Promise.all([
  // The CLI: a small launcher (the `skillgraph` command) and the bundle it runs with a code cache.
  build({
    ...common,
    entryPoints: { 'python-grammar': 'server/src/parse/python/pythonGrammar.ts' },
    outdir: 'dist',
    minifyWhitespace: true,
  }),
  build({
    ...common,
    entryPoints: { cli: 'server/src/cli/launch.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // Whitespace minified (names kept, so a stack trace still reads): every `check` reads and decodes this file before it
  // runs.
  build({
    ...common,
    plugins: [...common.plugins, pythonGrammarApart],
    entryPoints: { 'cli-main': 'server/src/cli/main.ts' },
    outdir: 'dist',
    minifyWhitespace: true,
  }),
  build({
    ...common,
    plugins: [...common.plugins, pythonGrammarApart],
    entryPoints: { server: 'server/src/server.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // `vscode` is provided by the editor's extension host.
  build({ ...common, entryPoints: { client: 'client/src/extension.ts' }, outdir: 'dist', external: ['vscode'] }),
  // The graph preview runs in a browser sandbox: one script and one stylesheet, no remote resources.
  // No node:path there: without the plugin, an import of it fails the build instead of becoming a require() in a
  // browser.
  build({
    ...common,
    plugins: [],
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    minify: true,
    entryPoints: {
      webview: 'client/webview/main.ts',
      'webview-style': 'client/webview/preview.css',
      context: 'client/webview/context.ts',
      'context-style': 'client/webview/context.css',
      library: 'client/webview/library.ts',
      'library-style': 'client/webview/library.css',
    },
    outdir: 'dist',
  }),
]);

// One non-ASCII character makes V8 hold a whole bundle as a two-byte string, decoded at twice the cost on every start:
// the bundles the CLI's launcher reads on each run are held to ASCII.
for (const bundle of ['dist/cli-main.js', 'dist/python-grammar.js']) {
  const nonAscii = /[^\x00-\x7f]/.exec(readFileSync(bundle, 'latin1'));
  if (nonAscii)
    throw new Error(
      `${bundle} holds a non-ASCII character at offset ${nonAscii.index}: write it as a \\u escape in the source`,
    );
}

// The shell's grammar (WebAssembly) beside the bundles that load it: server/src/parse/shell/shellGrammar.ts looks for
// both files next to itself.
copyFileSync('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm');
copyFileSync('node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'dist/tree-sitter-bash.wasm');
// Both are MIT-licensed: their licenses travel with them.
writeFileSync(
  'dist/tree-sitter-licenses.txt',
  [
    ['tree-sitter.wasm (web-tree-sitter)', 'node_modules/web-tree-sitter/LICENSE'],
    ['tree-sitter-bash.wasm (tree-sitter-bash)', 'node_modules/tree-sitter-bash/LICENSE'],
  ]
    .map(([file, license]) => `${file}\n\n${readFileSync(license, 'utf8').trim()}\n`)
    .join('\n\n'),
);

// The CLI's code cache: V8's compiled code for everything a check of one skill of each format runs.
execFileSync(
  process.execPath,
  [
    'dist/cli.js',
    'check',
    ...['csv-report', 'ticket-triage', 'release-notes', 'weekly-digest', 'trip-planner'].map(
      (name) => `examples/${name}`,
    ),
    '--format',
    'json',
  ],
  { env: { ...process.env, SKILLGRAPH_WRITE_CODE_CACHE: '1' }, stdio: 'ignore' },
);

// The package's commands run as files (`npm link`, an editor's `skillgraph-server` on PATH): make them executable
// here too, so a checkout works without going through npm.
for (const command of ['dist/cli.js', 'dist/server.js']) chmodSync(command, 0o755);
