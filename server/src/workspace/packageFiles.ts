import * as path from 'node:path';
import type { FileSystem } from './fileSystem';

/**
 * Walks the regular files of a skill folder, summing their sizes, and
 * calls `onFile` with each one's absolute path and size. Links are not
 * followed (so nothing outside the folder is reached) and the walk stops
 * once the sizes pass `limit`, so a huge folder costs no more than the limit.
 */
export function walkPackageFiles(
  fs: FileSystem,
  dir: string,
  limit: number,
  onFile?: (file: string, size: number) => void,
): { total: number; overLimit: boolean } {
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
        onFile?.(child, size);
      }
    }
  }
  return { total, overLimit: total > limit };
}
