// The `skillgraph` command. It runs the CLI's bundle (cli-main.js) with the
// V8 code cache the build made by running it on the examples, so a run on
// one skill does not spend its start-up compiling a megabyte of JavaScript
// (Node 20 has no compile cache of its own). A cache that does not fit this
// Node (another V8, other flags) is refused by V8 and the bundle is compiled
// as usual; a missing one costs only that time.
import { readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

const bundle = path.join(__dirname, 'cli-main.js');
const cacheFile = path.join(__dirname, 'cli-main.cache');
/** Set by the build: run, then write the cache of everything the run compiled. */
const writing = process.env.SKILLGRAPH_WRITE_CODE_CACHE === '1';

function readCache(): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

const cachedData = writing ? undefined : readCache();
const script = new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle, ...(cachedData ? { cachedData } : {}) });
const main = new Module(bundle, module);
main.filename = bundle;
if (writing) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
(script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void)(main.exports, require, main, bundle, __dirname);
