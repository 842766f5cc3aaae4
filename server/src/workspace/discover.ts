import * as path from 'node:path';
import type { FileSystem } from './fileSystem';
import { readText } from './readText';

export interface FoundSkill {
  /** Absolute path of the SKILL.md. */
  file: string;
  /** The same path as reached from the argument that found it (for output). */
  display: string;
}

export interface Discovery {
  skills: FoundSkill[];
  /** Files that look like a skill file but are not named exactly `SKILL.md`. */
  misnamed: FoundSkill[];
  /** Arguments that do not exist. */
  missing: string[];
  /** File arguments that belong to no skill (no SKILL.md in their folder or above it). */
  outside: string[];
}

const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * Finds skills under the given files and folders. Skips `.git`,
 * `node_modules` and eval workspaces; follows a linked folder only when it stays inside the
 * argument's tree, and visits every real folder once, so link loops end.
 * A file other than a SKILL.md stands for the skill it belongs to (the
 * nearest SKILL.md in its folder or above, not above `cwd` when it is
 * inside it): a hook passes changed files, a `flow.py` or a script among them.
 */
export function discoverSkills(fs: FileSystem, args: string[], cwd: string): Discovery {
  const discovery: Discovery = { skills: [], misnamed: [], missing: [], outside: [] };
  const seenFiles = new Set<string>();
  for (const arg of args) {
    const absolute = path.resolve(cwd, arg);
    const stat = fs.stat(absolute);
    const real = fs.realpath(absolute);
    if (!stat || !real) {
      discovery.missing.push(arg);
      continue;
    }
    const realStat = fs.stat(real);
    if (realStat?.kind === 'file') {
      const found = { file: absolute, display: arg };
      if (path.basename(absolute) === 'SKILL.md') addOnce(discovery.skills, seenFiles, found);
      else if (path.basename(absolute).toLowerCase() === 'skill.md') discovery.misnamed.push(found);
      else {
        const owner = owningSkill(fs, absolute, cwd);
        if (owner)
          addOnce(discovery.skills, seenFiles, {
            file: owner,
            display: path.isAbsolute(arg) ? owner : path.relative(cwd, owner),
          });
        else discovery.outside.push(arg);
      }
      continue;
    }
    walk(fs, absolute, arg, real, new Set<string>(), discovery, seenFiles);
  }
  // One collator for the whole sort: localeCompare sets one up per comparison (15 ms of a 300-skill check in a
  // profile). Made only when there is something to sort: setting up ICU costs a one-skill run (a hook's) about 17 ms.
  if (discovery.skills.length > 1) {
    const collator = new Intl.Collator();
    discovery.skills.sort((a, b) => collator.compare(a.display, b.display));
  }
  return discovery;
}

/**
 * The SKILL.md of the skill a file belongs to: the nearest in its folder or above (up to `cwd` when the file is inside
 * it).
 */
function owningSkill(fs: FileSystem, file: string, cwd: string): string | undefined {
  const top = isWithin(cwd, file) ? cwd : path.parse(file).root;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'SKILL.md');
    if (fs.stat(candidate)?.kind === 'file') return candidate;
    if (dir === top || path.dirname(dir) === dir) return undefined;
  }
}

function addOnce(list: FoundSkill[], seen: Set<string>, found: FoundSkill): void {
  if (seen.has(found.file)) return;
  seen.add(found.file);
  list.push(found);
}

function walk(
  fs: FileSystem,
  root: string,
  display: string,
  realRoot: string,
  visited: Set<string>,
  discovery: Discovery,
  seenFiles: Set<string>,
): void {
  // Each folder carries its real path: a plain subfolder's is its parent's plus its name, so only links cost a lookup.
  const pending: { dir: string; display: string; real: string }[] = [{ dir: root, display, real: realRoot }];
  while (pending.length > 0) {
    const { dir, display: shown, real } = pending.pop()!;
    // Every folder queued is inside the root: a plain subfolder by construction, a linked one checked before it is
    // queued.
    if (visited.has(real)) continue;
    visited.add(real);
    const entries = fs.readDirectory(dir);
    const hasSkill = entries.some((entry) => entry.name === 'SKILL.md');
    for (const entry of entries) {
      // Paths made by joining strings (path.join normalises each one: a third of the walk, which lists every folder of
      // a workspace): a folder's path and real path are already normal, and so is its shown path below the argument,
      // which may not be.
      const child = childPath(dir, entry.name);
      const childShown =
        shown === '.' ? entry.name : dir === root ? path.join(shown, entry.name) : childPath(shown, entry.name);
      let kind = entry.kind;
      let childReal = childPath(real, entry.name);
      if (kind === 'symlink') {
        const target = fs.realpath(child);
        if (!target || !isWithin(realRoot, target)) continue;
        kind = fs.stat(target)?.kind ?? 'other';
        childReal = target;
      }
      if (kind === 'directory' && !SKIPPED.has(entry.name) && !isEvalWorkspace(fs, child, entry.name))
        pending.push({ dir: child, display: childShown, real: childReal });
      if (kind !== 'file') continue;
      if (entry.name === 'SKILL.md') addOnce(discovery.skills, seenFiles, { file: child, display: childShown });
      else if (!hasSkill && entry.name.toLowerCase() === 'skill.md' && headedAsSkill(fs, child))
        discovery.misnamed.push({ file: child, display: childShown });
    }
  }
}

/**
 * Whether a file named like a skill file in another case is headed as a skill: frontmatter with a `name` or a
 * `description`. A `skill.md` is as often a page about skills (a wiki's entry for the word, generated with its own
 * keys) as a skill whose file was misnamed; only the second is a skill agents will not find.
 */
function headedAsSkill(fs: FileSystem, file: string): boolean {
  const read = readText(fs, file);
  if (read.kind !== 'text') return false;
  const head = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(read.text.slice(0, 64 * 1024));
  return head !== null && /^(?:name|description)[ \t]*:/m.test(head[1]);
}

/**
 * An eval workspace (`<skill>-workspace/iteration-N/…`, the Agent Skills guide's layout): runs' outputs and a snapshot
 * of an earlier version of the skill, which is not a skill of the library (it would shadow the real one).
 */
function isEvalWorkspace(fs: FileSystem, dir: string, name: string): boolean {
  return (
    name.endsWith('-workspace') &&
    fs.readDirectory(dir).some((entry) => entry.kind === 'directory' && /^iteration-\d+$/.test(entry.name))
  );
}

/** `path.join(dir, name)` for a normal `dir` and a name listed in it. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
