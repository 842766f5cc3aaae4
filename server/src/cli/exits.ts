import * as path from 'node:path';
import type { NodeFileSystem } from '../workspace/fileSystem';
import { printErr } from './output';

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** The SKILL.md a folder or file argument names, or undefined (reported) when there is none. */
export function skillFileOf(fs: NodeFileSystem, argument: string): { file: string; shownDir: string } | undefined {
  const absolute = path.resolve(argument);
  const real = fs.realpath(absolute);
  const isFile = real !== undefined && fs.stat(real)?.kind === 'file';
  const file = isFile ? absolute : path.join(absolute, 'SKILL.md');
  if (!fs.stat(file)) {
    printErr(`skillgraph: ${argument}: no SKILL.md there\n`);
    return undefined;
  }
  return { file, shownDir: isFile ? path.dirname(argument) : argument };
}
