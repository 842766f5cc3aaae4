import * as path from 'node:path';
import { rememberedIn } from './diskSnapshot';
import { type EntryKind, type FileSystem } from './fileSystem';

export type PathResolution =
  | { status: 'found'; absolute: string; kind: 'file' | 'directory' }
  | { status: 'missing'; absolute: string }
  | { status: 'case_mismatch'; absolute: string; actual: string }
  | { status: 'escapes' }
  | { status: 'backslash' };

/**
 * Resolves a path a skill names, relative to the skill folder, without ever
 * looking outside it: `..`, absolute paths and links leading out are
 * reported, not followed. A snapshot of the disk resolves each path once.
 */
export function resolveSkillPath(fs: FileSystem, skillDir: string, relative: string): PathResolution {
  const resolve = () => resolveUncached(fs, skillDir, relative);
  return rememberedIn(fs, 'resolution', skillDir, relative, resolve);
}

function resolveUncached(fs: FileSystem, skillDir: string, relative: string): PathResolution {
  if (relative.includes('\\')) return { status: 'backslash' };
  if (path.posix.isAbsolute(relative) || /^[A-Za-z]:/.test(relative) || relative.startsWith('~'))
    return { status: 'escapes' };
  const normalized = path.posix.normalize(relative.replace(/\/+$/, ''));
  if (normalized === '..' || normalized.startsWith('../')) return { status: 'escapes' };

  let current = skillDir;
  let kind: EntryKind = 'directory';
  let linked = false;
  for (const segment of normalized.split('/').filter((part) => part !== '' && part !== '.')) {
    const entries: { name: string; kind: EntryKind }[] =
      kind === 'directory' || kind === 'symlink' ? fs.readDirectory(current) : [];
    const exact = entries.find((entry) => entry.name === segment);
    if (!exact) {
      const folded = entries.find((entry) => entry.name.toLowerCase() === segment.toLowerCase());
      const absolute = path.join(skillDir, normalized);
      if (folded) {
        const actual = path.posix.join(path.relative(skillDir, current).split(path.sep).join('/'), folded.name);
        return { status: 'case_mismatch', absolute, actual };
      }
      return { status: 'missing', absolute };
    }
    current = path.join(current, segment);
    kind = exact.kind;
    linked ||= kind === 'symlink';
  }
  // Without a link below the skill folder the listings already say what the path is and that it stays inside;
  // only a link needs its target resolved (a real path per component costs a system call each).
  if (!linked) return { status: 'found', absolute: current, kind: kind === 'directory' ? 'directory' : 'file' };
  if (!isInside(fs, skillDir, current)) return { status: 'escapes' };
  const stat = fs.stat(fs.realpath(current) ?? current);
  if (!stat) return { status: 'missing', absolute: current };
  return { status: 'found', absolute: current, kind: stat.kind === 'directory' ? 'directory' : 'file' };
}

/** True when `target`, with links followed, stays under `dir` (links followed too). */
export function isInside(fs: FileSystem, dir: string, target: string): boolean {
  const realDir = fs.realpath(dir) ?? dir;
  const realTarget = fs.realpath(target);
  if (!realTarget) return true; // nothing there to escape to; existence is checked separately
  const relative = path.relative(realDir, realTarget);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
