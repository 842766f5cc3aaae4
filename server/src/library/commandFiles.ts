import * as path from 'node:path';
import { ListingCache } from '../workspace/diskSnapshot';
import type { FileSystem } from '../workspace/fileSystem';
import { PLUGIN_MANIFEST, PROJECT_COMMANDS } from '../platforms/clients';

// The command files a skill's `/name` may run besides skills: Claude Code's `.claude/commands/*.md` of the project
// the skill sits in, and the `commands/*.md` of the plugin that holds it (named `/name` and `/plugin:name`), or of a
// folder that keeps `commands/` beside `skills/` as a plugin does, or of the skill's own folder. Found in
// the folders above the skill, up to the user's home, as the plugin a skill belongs to is.

const NONE: ReadonlySet<string> = new Set();
/** Subfolders of a commands folder read (Claude Code names `frontend/component.md` `/component`). */
const DEPTH = 2;
/** Listings kept per disk snapshot: the skills of a library share the folders above them. */
const remembered = new WeakMap<FileSystem, Map<string, ReadonlySet<string>>>();

/** The names of the Markdown files in `dir` and its subfolders (to DEPTH), without `.md`. */
function commandNames(fs: FileSystem, dir: string, depth = DEPTH): string[] {
  if (fs.stat(dir)?.kind !== 'directory') return [];
  return fs.readDirectory(dir).flatMap((entry) => {
    if (entry.kind === 'directory') return depth > 1 ? commandNames(fs, path.join(dir, entry.name), depth - 1) : [];
    return entry.name.endsWith('.md') ? [entry.name.slice(0, -3).toLowerCase()] : [];
  });
}

/** The commands a skill in `dir` may name: those of every folder above it (to `home`), shared between skills. */
export function commandsAbove(fs: FileSystem, dir: string, home: string): ReadonlySet<string> {
  let known = fs instanceof ListingCache ? remembered.get(fs) : undefined;
  if (fs instanceof ListingCache && !known) remembered.set(fs, (known = new Map()));
  const lookUp = (up: string): ReadonlySet<string> => {
    const cached = known?.get(up);
    if (cached) return cached;
    const above = up === path.dirname(up) || up === home ? NONE : lookUp(path.dirname(up));
    // A plugin's folder: its manifest, or (a plugin whose marketplace holds its manifest) `commands/` beside `skills/`;
    // and the skill's own `commands/`, which a plugin's installer may copy out.
    const plugin =
      up === dir ||
      fs.stat(path.join(up, PLUGIN_MANIFEST))?.kind === 'file' ||
      fs.stat(path.join(up, 'skills'))?.kind === 'directory'
        ? path.basename(up)
        : undefined;
    const own = [
      ...commandNames(fs, path.join(up, PROJECT_COMMANDS)),
      ...(plugin ? commandNames(fs, path.join(up, 'commands')).flatMap((name) => [name, `${plugin}:${name}`]) : []),
    ];
    // A folder with no commands of its own shares the set above it.
    const found = own.length === 0 ? above : new Set([...above, ...own]);
    known?.set(up, found);
    return found;
  };
  return lookUp(dir);
}
