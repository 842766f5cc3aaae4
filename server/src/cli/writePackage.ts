import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isPackagePath, type CompiledFile } from '../compile/compiled';

export class WriteRefused extends Error {}

/** A result's file path, checked (see isPackagePath), under the output folder. */
function targetOf(outDir: string, relative: string): string {
  if (!isPackagePath(relative))
    throw new WriteRefused(`${relative}: this name would leave the output folder; nothing was written`);
  return path.join(outDir, ...relative.split('/'));
}

/**
 * Whether `target`'s nearest existing folder is inside `root` (the output folder's real path) once links are followed.
 */
function staysInside(root: string, target: string): boolean {
  let existing = path.dirname(target);
  while (!existsSync(existing)) existing = path.dirname(existing);
  const real = realpathSync(existing);
  return real === root || real.startsWith(root + path.sep);
}

/**
 * Writes a compiled package into `outDir` (created if missing), all or
 * nothing: every file goes to a temporary file beside its place first;
 * only when all are written are they renamed into place. An existing file
 * is replaced only with `force`, and then kept aside until every rename
 * succeeded. On any failure the temporary files, the folders this call
 * created and the set-aside originals are put back as they were, and a
 * WriteRefused says why. Returns the paths written.
 */
export function writePackage(outDir: string, files: CompiledFile[], force: boolean): string[] {
  const targets = files.map((file) => ({ file, target: targetOf(outDir, file.path) }));
  const existing = targets.filter(({ target }) => existsSync(target));
  if (existing.length > 0 && !force) {
    throw new WriteRefused(
      `${existing.map(({ target }) => target).join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written (--force replaces ${existing.length === 1 ? 'it' : 'them'})`,
    );
  }
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
    makeDir(outDir);
    const root = realpathSync(outDir);
    for (const { file, target } of targets) {
      if (!staysInside(root, target))
        throw new WriteRefused(`${file.path}: a link inside the output folder leads out of it; nothing was written`);
      makeDir(path.dirname(target));
      const temp = `${target}${suffix}.tmp`;
      temporary.push(temp);
      writeFileSync(temp, file.content, { flag: 'wx' });
    }
    for (const [index, { target }] of targets.entries()) {
      if (existsSync(target)) {
        const backup = `${target}${suffix}.old`;
        renameSync(target, backup);
        setAside.push({ target, backup });
      }
      renameSync(temporary[index], target);
      placed.push(target);
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
    throw new WriteRefused(`cannot write into ${outDir}: ${(error as Error).message}; nothing was written`);
  }
  for (const { backup } of setAside) rmSync(backup, { force: true });
  return targets.map(({ target }) => target);
}
