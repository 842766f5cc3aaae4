import * as path from 'node:path';
import { sha256 } from '../workspace/sha256';
import type { FileSystem } from '../workspace/fileSystem';
import { MAX_TEXT_BYTES } from '../workspace/readText';
import { resolveSkillPath } from '../workspace/skillPaths';

// A skill's scripts by content: the same script copied into two skills is one script of the library, whatever each
// calls it, which is how a team finds the code it would have to fix in many places.

export interface SkillScript {
  /** As the skill names it, from its folder (`scripts/deploy.sh`). */
  path: string;
  /** `sha256:` and the hex digest of its bytes. */
  hash: string;
  size: number;
}

/** At most this many files are hashed per skill: a vendored tree under `scripts/` is not a library's concern. */
const MAX_SCRIPTS = 200;
const MAX_DEPTH = 4;

/**
 * The files under the skill's `scripts/` (links not followed, nearest first and in name order, so every disk lists the
 * same ones), and the paths its steps run (`runs`) that stay inside the skill, each read once.
 */
export function skillScripts(fs: FileSystem, dir: string, runs: readonly string[] = []): SkillScript[] {
  const found = new Map<string, SkillScript>();
  const add = (relative: string, absolute: string) => {
    if (found.has(relative)) return;
    const read = fs.readWithin(absolute, MAX_TEXT_BYTES);
    if (read.kind === 'bytes')
      found.set(relative, { path: relative, hash: `sha256:${sha256(read.bytes)}`, size: read.bytes.length });
  };
  let level = [{ relative: 'scripts', absolute: path.join(dir, 'scripts') }];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && found.size < MAX_SCRIPTS; depth++) {
    const next: typeof level = [];
    for (const folder of level)
      for (const entry of [...fs.readDirectory(folder.absolute)].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const relative = `${folder.relative}/${entry.name}`;
        const absolute = path.join(folder.absolute, entry.name);
        if (entry.kind === 'directory') next.push({ relative, absolute });
        else if (entry.kind === 'file' && found.size < MAX_SCRIPTS) add(relative, absolute);
      }
    level = next;
  }
  for (const run of runs) {
    const resolved = resolveSkillPath(fs, dir, run);
    if (resolved.status === 'found' && resolved.kind === 'file') add(run, resolved.absolute);
  }
  return [...found.values()];
}
