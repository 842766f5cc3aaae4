import { parseArgs, USAGE, UsageError, type Command } from './args';
import { runCheck } from './checkCommand';
import { CHECK_THREAD_FLAG, serveCheckBatches } from './checkSkills';
import { EXIT_CLEAN, EXIT_USAGE } from './exits';
import { runFix } from './fixCommand';
import { runInit } from './initCommand';
import { runLibrary } from './libraryCommand';
import { exitWith, printErr, printOut } from './output';
import { runCompile, runContext, runGraph } from './skillCommands';
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
    case 'graph':
      return runGraph(command);
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

// The same file runs the check threads a large run starts (they get the flag).
if (!process.argv.includes(CHECK_THREAD_FLAG)) {
  main(process.argv.slice(2)).then(exitWith, fail);
} else {
  serveCheckBatches();
}
