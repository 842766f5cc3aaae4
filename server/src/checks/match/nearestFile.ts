import * as path from 'node:path';
import { rememberedIn } from '../../workspace/diskSnapshot';
import type { FileSystem } from '../../workspace/fileSystem';
import { closestName } from './nameDistance';

/** How many files of a skill folder are looked through for the nearest one: a skill is small, a mistake need not be. */
const MAX_FILES = 2000;

/** The files of a skill folder, as `/`-separated paths from it (links not followed; snapshots list it once). */
function skillFiles(fs: FileSystem, dir: string): string[] {
  return rememberedIn(fs, 'skill files', dir, '', () => {
    const files: string[] = [];
    const pending = [''];
    while (pending.length > 0 && files.length < MAX_FILES) {
      const relative = pending.shift()!;
      for (const entry of fs.readDirectory(path.join(dir, relative))) {
        const child = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.kind === 'directory') pending.push(child);
        else if (entry.kind === 'file') files.push(child);
      }
    }
    return files;
  });
}

/**
 * The file of the skill a missing path most likely means: one of the same
 * name in another folder, one a typo away, or in the same folder one whose
 * name starts with the missing one's (`cleaning.md` → `cleaning-rules.md`).
 */
export function nearestFile(fs: FileSystem, dir: string, target: string): string | undefined {
  const wanted = path.posix.normalize(target.replace(/^\.\//, ''));
  const files = skillFiles(fs, dir);
  const name = path.posix.basename(wanted);
  const sameName = files.filter((file) => path.posix.basename(file) === name);
  if (sameName.length === 1) return sameName[0];
  const typo = closestName(wanted, files);
  if (typo) return typo;
  const folder = path.posix.dirname(wanted);
  const stem = name.replace(/\.[^.]*$/, '').toLowerCase();
  const extension = path.posix.extname(name);
  const started = files.filter(
    (file) =>
      path.posix.dirname(file) === folder &&
      path.posix.extname(file) === extension &&
      stem.length >= 3 &&
      path.posix.basename(file).toLowerCase().startsWith(stem),
  );
  return started.length === 1 ? started[0] : undefined;
}
