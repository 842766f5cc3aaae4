// The `skillgraph` command. It runs the CLI's bundle (cli-main.js) with the
// V8 code cache the build made by running it on the examples, so a run on
// one skill does not spend its start-up compiling a megabyte of JavaScript
// (Node 20 has no compile cache of its own). The Python grammar, which only
// skill+ packages need, is a bundle of its own (python-grammar.js): the
// main bundle's require loads it the same way, with its own cache, on the
// first Python parse. A cache that does not fit this Node (another V8, other
// flags) is refused by V8 and the bundle is compiled as usual; a missing one
// costs only that time.
import { readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** Set by the build: run, then write the cache of everything the run compiled. */
const writing = process.env.SKILLGRAPH_WRITE_CODE_CACHE === '1';
/** The bundles that have their own cache, as the main bundle requires them. */
const CACHED = new Set(['./python-grammar.js']);
const loaded = new Map<string, unknown>();

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Runs dist/<name>.js as a CommonJS module, with dist/<name>.cache, and returns its exports. */
function runBundle(name: string): unknown {
  const bundle = path.join(__dirname, `${name}.js`);
  const cacheFile = path.join(__dirname, `${name}.cache`);
  const cachedData = writing ? undefined : readCache(cacheFile);
  const script = new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const bundled = new Module(bundle, module);
  bundled.filename = bundle;
  if (writing) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
  (
    script.runInThisContext() as (
      exports: unknown,
      require: (id: string) => unknown,
      module: Module,
      filename: string,
      dirname: string,
    ) => void
  )(bundled.exports, bundleRequire, bundled, bundle, __dirname);
  return bundled.exports;
}

/**
 * The require the bundles see: the cached bundles through runBundle, once each; anything else (Node's modules) as
 * usual.
 */
function bundleRequire(id: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  if (!CACHED.has(id)) return require(id);
  if (!loaded.has(id)) loaded.set(id, runBundle(path.basename(id, '.js')));
  return loaded.get(id);
}

runBundle('cli-main');
