import * as path from 'node:path';
import { opensFrontmatter } from '../parse/markdown/skillFile';
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
  /** File arguments that belong to no skill (no skill's SKILL.md in their folder or above it). */
  outside: string[];
  /**
   * The SKILL.md files whose frontmatter decided which SKILL.md files below them are skills (those read in the walks):
   * the list is found again when one of them changes.
   */
  enclosing: string[];
}

/** Folders below an argument that hold no skill of the library: version control, packages and test fixtures. */
const SKIPPED = new Set([
  '.git',
  'node_modules',
  'fixtures',
  '__fixtures__',
  'testdata',
  'test-fixtures',
  'test_fixtures',
]);

/**
 * Finds skills under the given files and folders. A folder whose SKILL.md has frontmatter is a skill, and everything
 * below it is its files: a SKILL.md deeper inside (a template, an example, a part of it) is not a skill of its own. A
 * SKILL.md without frontmatter with skills below it is an index of them, not a skill. Skips `.git`, `node_modules`,
 * test fixtures, folders whose name starts with `_` (`_template`, `_archive`: never a skill's, whose folder is its
 * lowercase-hyphen name) and eval workspaces; follows a linked folder only when it stays inside the argument's tree,
 * and visits every real folder once, so link loops end. A SKILL.md given as an argument is a skill wherever it is. A
 * file other than a SKILL.md stands for the skill it belongs to (not above `cwd` when it is inside it): a hook passes
 * changed files, a `flow.py` or a script among them.
 */
export function discoverSkills(fs: FileSystem, args: string[], cwd: string): Discovery {
  const discovery: Discovery = { skills: [], misnamed: [], missing: [], outside: [], enclosing: [] };
  const seenFiles = new Set<string>();
  const owners = new Map<string, string | undefined>();
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
        const owner = owningSkill(fs, absolute, cwd, owners);
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
 * The SKILL.md of the skill a file belongs to (looked for up to `cwd` when the file is inside it): the outermost
 * SKILL.md above it with frontmatter, whose files are all below it; else the nearest, unless it is an index of the
 * skills below it. `owners` remembers the answer for each nearest SKILL.md (a hook passes many files of one skill).
 */
function owningSkill(
  fs: FileSystem,
  file: string,
  cwd: string,
  owners: Map<string, string | undefined>,
): string | undefined {
  const top = isWithin(cwd, file) ? cwd : path.parse(file).root;
  // The SKILL.md files in the file's folder and above, nearest first.
  const above: string[] = [];
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'SKILL.md');
    if (fs.stat(candidate)?.kind === 'file') above.push(candidate);
    if (dir === top || path.dirname(dir) === dir) break;
  }
  if (above.length === 0) return undefined;
  if (owners.has(above[0])) return owners.get(above[0]);
  let owner: string | undefined;
  for (let at = above.length - 1; at >= 0 && !owner; at--) if (hasFrontmatter(fs, above[at])) owner = above[at];
  if (!owner) {
    // The skill's folder as a walk from it finds it: none when the SKILL.md is an index of skills below it.
    const folder = path.dirname(above[0]);
    const probe = discoverSkills(fs, [folder], folder).skills;
    owner = probe.some((found) => found.file === above[0]) ? above[0] : undefined;
  }
  owners.set(above[0], owner);
  return owner;
}

function addOnce(list: FoundSkill[], seen: Set<string>, found: FoundSkill): void {
  if (seen.has(found.file)) return;
  seen.add(found.file);
  list.push(found);
}

/** A folder to walk, and the nearest SKILL.md met above it. */
interface Pending {
  dir: string;
  display: string;
  real: string;
  above: Met | undefined;
}

/** A SKILL.md met in a walk, and the nearest met in a folder above it. */
interface Met {
  found: FoundSkill;
  above: Met | undefined;
  /** Whether a SKILL.md was met in a folder below it: only then does its frontmatter decide anything. */
  enclosing: boolean;
  headed?: boolean;
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
  const met: Met[] = [];
  const misnamed: { found: FoundSkill; above: Met | undefined }[] = [];
  // Each folder carries its real path (a plain subfolder's is its parent's plus its name, so only links cost a lookup)
  // and the nearest SKILL.md above it. Linked folders wait until the plain ones are walked: a folder reached both ways
  // is met at its own place, not as a file of the skill that links to it.
  const pending: Pending[] = [{ dir: root, display, real: realRoot, above: undefined }];
  const linked: Pending[] = [];
  for (let next = pending.pop(); next; next = pending.pop() ?? linked.pop()) {
    const { dir, display: shown, real } = next;
    // Every folder queued is inside the root: a plain subfolder by construction, a linked one checked before it is
    // queued.
    if (visited.has(real)) continue;
    visited.add(real);
    const entries = fs.readDirectory(dir);
    const hasSkill = entries.some((entry) => entry.name === 'SKILL.md');
    const children: { folder: Pending; link: boolean }[] = [];
    let above = next.above;
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
      if (kind === 'directory' && !skipped(fs, child, entry.name))
        children.push({
          folder: { dir: child, display: childShown, real: childReal, above: undefined },
          link: entry.kind === 'symlink',
        });
      if (kind !== 'file') continue;
      if (entry.name === 'SKILL.md') {
        if (above) above.enclosing = true;
        above = { found: { file: child, display: childShown }, above, enclosing: false };
        met.push(above);
      } else if (!hasSkill && entry.name.toLowerCase() === 'skill.md' && headedAsSkill(fs, child))
        misnamed.push({ found: { file: child, display: childShown }, above });
    }
    for (const { folder, link } of children) {
      folder.above = above;
      (link ? linked : pending).push(folder);
    }
  }
  // A SKILL.md's frontmatter is read only when SKILL.md files were met below it: a skill's makes them its files (its
  // examples, templates, parts), an index's lack of one leaves them skills of their own.
  const headed = (item: Met) => (item.headed ??= hasFrontmatter(fs, item.found.file));
  const inSkill = (item: { above: Met | undefined }) => {
    for (let above = item.above; above; above = above.above) if (headed(above)) return true;
    return false;
  };
  for (const item of met) {
    if (inSkill(item)) continue;
    const index = item.enclosing && !headed(item);
    if (!index) addOnce(discovery.skills, seenFiles, item.found);
  }
  for (const item of misnamed) if (!inSkill(item)) discovery.misnamed.push(item.found);
  for (const item of met) if (item.headed !== undefined) discovery.enclosing.push(item.found.file);
}

/**
 * Whether a folder below an argument is left out of the walk: `.git`, packages, test fixtures, a folder named `_…`
 * (`_template`, `_archive`: never a skill's, whose folder name is its lowercase-hyphen name) or an eval workspace.
 */
function skipped(fs: FileSystem, dir: string, name: string): boolean {
  return name.startsWith('_') || SKIPPED.has(name) || isEvalWorkspace(fs, dir, name);
}

/**
 * Whether a SKILL.md starts with frontmatter (a first line `---`, as the container parser reads it). A file that cannot
 * be read as text counts as a skill's: its own finding says why it cannot be read.
 */
function hasFrontmatter(fs: FileSystem, file: string): boolean {
  const read = readText(fs, file);
  return read.kind !== 'text' || opensFrontmatter(read.text);
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
