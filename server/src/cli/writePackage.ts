import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isPackagePath, type CompiledFile } from '../forms/compiled';
import { WriteRefused, writeAllOrNothing } from './atomicWrite';

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
 * nothing (writeAllOrNothing). An existing file is replaced only with
 * `force`. Returns the paths written.
 */
export function writePackage(outDir: string, files: CompiledFile[], force: boolean): string[] {
  const targets = files.map((file) => ({ file, target: targetOf(outDir, file.path) }));
  const existing = targets.filter(({ target }) => existsSync(target));
  if (existing.length > 0 && !force) {
    throw new WriteRefused(
      `${existing.map(({ target }) => target).join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written (--force replaces ${existing.length === 1 ? 'it' : 'them'})`,
    );
  }
  let root: string | undefined;
  writeAllOrNothing(
    targets.map(({ file, target }) => ({ target, content: file.content })),
    `into ${outDir}`,
    {
      folder: outDir,
      check: (target) => {
        // Every file must land inside the output folder, links followed.
        root ??= realpathSync(outDir);
        const file = targets.find((candidate) => candidate.target === target)!.file;
        if (!staysInside(root, target))
          throw new WriteRefused(`${file.path}: a link inside the output folder leads out of it; nothing was written`);
      },
    },
  );
  return targets.map(({ target }) => target);
}
