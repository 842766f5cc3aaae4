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
 * name in another folder (not for a SKILL.md), one a typo away, or in the same folder, of the
 * same extension, one whose name starts with the missing one's
 * (`cleaning.md` → `cleaning-rules.md`) or whose name the missing one's
 * starts with, then a separator and more (`favicon_pro.html` → `favicon.html`).
 */
export function nearestFile(fs: FileSystem, dir: string, target: string): string | undefined {
  const wanted = path.posix.normalize(target.replace(/^\.\//, ''));
  const files = skillFiles(fs, dir);
  const name = path.posix.basename(wanted);
  // A SKILL.md is a skill's entry, named for what it is: one in another folder is another skill, not where it moved.
  const sameName = name === 'SKILL.md' ? [] : files.filter((file) => path.posix.basename(file) === name);
  if (sameName.length === 1) return sameName[0];
  const typo = closestName(wanted, files);
  if (typo) return typo;
  const folder = path.posix.dirname(wanted);
  const extension = path.posix.extname(name);
  const stem = stemOf(name);
  if (stem.length < 3) return undefined;
  const beside = files.filter((file) => path.posix.dirname(file) === folder && path.posix.extname(file) === extension);
  const started = beside.filter((file) => stemOf(file).startsWith(stem));
  if (started.length > 0) return started.length === 1 ? started[0] : undefined;
  const variantOf = beside.filter((file) => {
    const shorter = stemOf(file);
    return shorter.length >= 3 && stem.startsWith(shorter) && /[-_.]/.test(stem.charAt(shorter.length));
  });
  return variantOf.length === 1 ? variantOf[0] : undefined;
}

/** A file's name without its folder and extension, lower case: what near names are compared by. */
function stemOf(file: string): string {
  return path.posix
    .basename(file)
    .replace(/\.[^.]*$/, '')
    .toLowerCase();
}
