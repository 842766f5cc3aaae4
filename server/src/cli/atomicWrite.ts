import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';

export class WriteRefused extends Error {}

/** One file to write. */
export interface PlannedWrite {
  target: string;
  content: string | Uint8Array;
  /** The bytes the target must still hold when it is replaced (it was read, then changed by someone else: refused). */
  expected?: Uint8Array;
  /** The target must not exist (a new file). */
  create?: boolean;
  /** The file mode to give the new file (an edited file keeps its own). */
  mode?: number;
}

/**
 * Writes every file or none: each goes to a temporary file beside its place
 * first; only when all are written are they renamed into place, a file
 * being replaced set aside until every rename succeeded. `folder` is made
 * first (when missing), then `check` runs for each target before it is
 * written (it throws WriteRefused to stop).
 * On any failure the temporary files, the folders this call created and the
 * set-aside originals are put back as they were, and WriteRefused says why.
 */
export function writeAllOrNothing(
  writes: PlannedWrite[],
  what: string,
  options: { folder?: string; check?: (target: string) => void } = {},
): void {
  const createdDirs: string[] = [];
  const temporary: string[] = [];
  const setAside: { target: string; backup: string }[] = [];
  const placed: string[] = [];
  const makeDir = (dir: string) => {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new Error(`${dir} is a file, not a folder`);
      return;
    }
    makeDir(path.dirname(dir));
    mkdirSync(dir);
    createdDirs.push(dir);
  };
  const suffix = `.skillgraph-${process.pid}-${Date.now().toString(36)}`;
  try {
    if (options.folder) makeDir(options.folder);
    for (const write of writes) {
      options.check?.(write.target);
      makeDir(path.dirname(write.target));
      const temp = `${write.target}${suffix}.tmp`;
      temporary.push(temp);
      writeFileSync(temp, write.content, { flag: 'wx' });
      // A replaced file keeps its mode (an executable script stays executable).
      const mode = existsSync(write.target) ? statSync(write.target).mode & 0o7777 : write.mode;
      if (mode !== undefined) chmodSync(temp, mode);
    }
    for (const [index, write] of writes.entries()) {
      if (existsSync(write.target)) {
        if (write.create) throw new WriteRefused(`${write.target} appeared while fixing; nothing was written`);
        if (write.expected && !Buffer.from(readFileSync(write.target)).equals(Buffer.from(write.expected)))
          throw new WriteRefused(`${write.target} changed while it was being fixed; nothing was written`);
        const backup = `${write.target}${suffix}.old`;
        renameSync(write.target, backup);
        setAside.push({ target: write.target, backup });
      } else if (write.expected)
        throw new WriteRefused(`${write.target} was removed while it was being fixed; nothing was written`);
      renameSync(temporary[index], write.target);
      placed.push(write.target);
    }
  } catch (error) {
    for (const target of placed) rmSync(target, { force: true });
    for (const { target, backup } of setAside) renameSync(backup, target);
    for (const temp of temporary) rmSync(temp, { force: true });
    // Deepest first; a folder that is not empty now holds something else's files and stays.
    for (const dir of createdDirs.reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        // not ours to empty
      }
    }
    if (error instanceof WriteRefused) throw error;
    throw new WriteRefused(`cannot write ${what}: ${(error as Error).message}; nothing was written`);
  }
  for (const { backup } of setAside) rmSync(backup, { force: true });
}
