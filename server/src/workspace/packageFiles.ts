import * as path from 'node:path';
import type { FileSystem } from './fileSystem';

export interface PackageListing {
  /** Regular files below the folder, `/`-separated relative paths, in a stable order. */
  files: { path: string; size: number }[];
  total: number;
  /** The walk stopped early because the files passed `limit` bytes. */
  overLimit: boolean;
}

/**
 * The regular files of a skill folder. Links are not followed (so nothing
 * outside the folder is listed) and the walk stops once the sizes pass
 * `limit`, so a huge folder costs no more than the limit.
 */
export function listPackageFiles(fs: FileSystem, dir: string, limit: number): PackageListing {
  const files: PackageListing['files'] = [];
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= limit) {
    const current = pending.pop()!;
    for (const entry of fs.readDirectory(current)) {
      const child = path.join(current, entry.name);
      if (entry.kind === 'directory') pending.push(child);
      else if (entry.kind === 'file') {
        const size = fs.stat(child)?.size ?? 0;
        total += size;
        files.push({ path: path.relative(dir, child).split(path.sep).join('/'), size });
      }
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, total, overLimit: total > limit };
}
