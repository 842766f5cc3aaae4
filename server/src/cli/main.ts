import { parseArgs, UsageError } from './args';
import type { Command } from './commandOptions';
import { USAGE } from './usage';
import { runCheck } from './checkCommand';
import { runDiff, runHash } from './diffCommand';
import { checkOne, type CheckThreadSetup } from './checkSkills';
import { EXIT_CLEAN, EXIT_USAGE } from './exits';
import { runFix } from './fixCommand';
import { runInit } from './initCommand';
import { runLibrary, runQuery } from './libraryCommand';
import { runMergeReports } from './mergeReports';
import { exitWith, printErr, printOut } from './output';
import { runCompile, runContext, runGraph } from './skillCommands';
import { readSkillPart, type GraphThreadSetup } from './libraryThreads';
import { serveBatches, THREAD_FLAG } from './threadBatches';
import { RunSettings } from '../config/runSettings';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem } from '../workspace/fileSystem';
import type { FoundSkill } from '../workspace/discover';
import { loadShellGrammar } from '../parse/shell/shellGrammar';
import { version } from '../../../package.json';

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      printErr(`skillgraph: ${error.message}\n\n${USAGE}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  // Every command that analyses reads shell with the shell's grammar, which loads asynchronously (WebAssembly).
  if (command.command !== 'help' && command.command !== 'version') await loadShellGrammar();
  switch (command.command) {
    case 'help':
      printOut(`${USAGE}\n`);
      return EXIT_CLEAN;
    case 'version':
      printOut(`${version}\n`);
      return EXIT_CLEAN;
    case 'check':
      return runCheck(command);
    case 'fix':
      return runFix(command);
    case 'init':
      return runInit(command);
    case 'library':
      return runLibrary(command);
    case 'query':
      return runQuery(command);
    case 'merge-reports':
      return runMergeReports(command);
    case 'graph':
      return runGraph(command);
    case 'diff':
      return runDiff(command);
    case 'hash':
      return runHash(command);
    case 'context':
      return runContext(command);
    case 'compile':
      return runCompile(command);
  }
}

function fail(error: unknown): void {
  printErr(`skillgraph: internal error: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = EXIT_USAGE;
}

/** A thread's work on one item, from what it was set up with: a skill's check, or its part of the library graph. */
function threadWork(setup: CheckThreadSetup | GraphThreadSetup): (item: unknown) => unknown {
  const fs = new ListingCache(new NodeFileSystem());
  if (setup.work === 'graph') return (file) => readSkillPart(fs, file as string, setup);
  const settings = new RunSettings(fs, setup.explicit);
  return (found) => checkOne(fs, settings, setup, found as FoundSkill);
}

// The same file runs the threads a large run starts (they get the flag).
if (!process.argv.includes(THREAD_FLAG)) {
  main(process.argv.slice(2)).then(exitWith, fail);
} else {
  // A thread analyses too: it loads the grammar before it says it is ready.
  void loadShellGrammar().then(() => serveBatches((setup) => threadWork(setup as CheckThreadSetup | GraphThreadSetup)));
}
