import type * as ChildProcess from 'node:child_process';
import * as path from 'node:path';
import { bounded, type BoundedRead, type EntryKind, type EntryStat, type FileSystem } from './fileSystem';

interface TreeEntry {
  kind: 'file' | 'symlink';
  object: string;
  size: number;
}

let childProcess: typeof ChildProcess | undefined;

/**
 * Runs git in `cwd`; its output, or undefined when it fails. node:child_process is loaded on first use: the CLI is one
 * bundle, and loading it at start-up would cost every `check` a few milliseconds for `diff`'s sake.
 */
export function git(cwd: string, args: string[], input?: string): Buffer | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  childProcess ??= require('node:child_process') as typeof ChildProcess;
  const result = childProcess.spawnSync('git', args, { cwd, maxBuffer: MAX_GIT_OUTPUT, ...(input ? { input } : {}) });
  return result.status === 0 ? result.stdout : undefined;
}

const MAX_GIT_OUTPUT = 512 * 1024 * 1024;
/** Files read ahead at most this large each, and this much in all per batch: what analysis reads is text, and small. */
const READ_AHEAD_FILE_BYTES = 4 * 1024 * 1024;
const READ_AHEAD_BATCH_BYTES = 64 * 1024 * 1024;

/**
 * The objects of `files` in order, in batches of at most READ_AHEAD_BATCH_BYTES (a file larger than that alone), so no
 * batch's output outgrows what git's output may hold.
 */
function batchesOf(files: TreeEntry[]): string[][] {
  const batches: string[][] = [];
  let size = 0;
  for (const file of files) {
    if (batches.length === 0 || size + file.size > READ_AHEAD_BATCH_BYTES) {
      batches.push([]);
      size = 0;
    }
    batches[batches.length - 1].push(file.object);
    size += file.size;
  }
  return batches;
}

/**
 * The blobs `git cat-file --batch` printed, by object: each a header line `<object> blob <size>`, the bytes and a line
 * break (`<object> missing` for one it does not have).
 */
function batchBlobs(output: Buffer): Map<string, Uint8Array> {
  const blobs = new Map<string, Uint8Array>();
  let at = 0;
  while (at < output.length) {
    const lineEnd = output.indexOf(0x0a, at);
    if (lineEnd < 0) break;
    const [object, type, size] = output.toString('utf8', at, lineEnd).split(' ');
    at = lineEnd + 1;
    if (type === 'missing' || size === undefined) continue;
    const end = at + Number(size);
    if (type === 'blob') blobs.set(object, new Uint8Array(output.subarray(at, end)));
    at = end + 1;
  }
  return blobs;
}

/**
 * The top folder of the repository around `dir`, named as `dir` is (git prints the real path, which differs from the
 * caller's when a folder above is a link); undefined outside a repository.
 */
export function repositoryOf(dir: string): string | undefined {
  const up = git(dir, ['rev-parse', '--show-cdup'])?.toString('utf8').trim();
  return up === undefined ? undefined : path.resolve(dir, up);
}

/** The commit `revision` names in the repository at `root` now; an option-like revision is never passed to git. */
function commitOf(root: string, revision: string): string | undefined {
  if (revision === '' || revision.startsWith('-')) return undefined;
  return (
    git(root, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`])
      ?.toString('utf8')
      .trim() || undefined
  );
}

/**
 * What git reads `revision`'s files from: the commit it names; or, for `HEAD` in a repository before its first commit
 * (HEAD names a branch that does not exist yet), git's empty tree, so that everything there is new rather than the
 * revision unknown. Undefined when git does not know the revision.
 */
export function revisionObject(root: string, revision: string): { object: string; unborn?: true } | undefined {
  const commit = commitOf(root, revision);
  if (commit) return { object: commit };
  if (revision !== 'HEAD' || git(root, ['symbolic-ref', '--quiet', 'HEAD']) === undefined) return undefined;
  // The empty tree's name depends on the repository's hash (SHA-1 or SHA-256): git gives it.
  const emptyTree = git(root, ['hash-object', '-t', 'tree', '--stdin'])?.toString('utf8').trim();
  return emptyTree ? { object: emptyTree, unborn: true } : undefined;
}

/**
 * A repository's files at one revision, read from git without checking anything out: the tree is listed once, and a
 * file's bytes are read when asked for. Paths are absolute, under `root` (the repository's top folder), as they would
 * be in a checkout. A link is seen as a link and never followed (its target may be anything).
 */
export class GitTreeFileSystem implements FileSystem {
  private readonly entries = new Map<string, TreeEntry>();
  private readonly folders = new Map<string, Map<string, EntryKind>>();
  /**
   * The bytes of each blob read, by object: a revision does not change, and a skill's files are read more than once
   * (its analysis, its hash, the catalog of the MetaSkills beside it). Read in batches, one git process for many files:
   * one process per file made a diff of a library spend most of its time starting git.
   */
  private readonly blobs = new Map<string, Uint8Array>();

  private constructor(
    private readonly root: string,
    listing: Buffer,
  ) {
    this.folders.set(root, new Map());
    // `<mode> <type> <object> <size>\t<path>`, NUL-separated.
    for (const record of listing.toString('utf8').split('\0')) {
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, object, size] = record.slice(0, tab).split(/\s+/);
      if (type !== 'blob') continue;
      const absolute = path.join(root, record.slice(tab + 1));
      const kind = mode === '120000' ? 'symlink' : 'file';
      this.entries.set(absolute, { kind, object, size: Number(size) || 0 });
      this.add(absolute, kind);
    }
  }

  /** The tree of `revision` in the repository whose top folder is `root`; undefined when git cannot read it. */
  static at(root: string, revision: string): GitTreeFileSystem | undefined {
    const listing = git(root, ['ls-tree', '-r', '-z', '-l', '--full-tree', revision]);
    return listing ? new GitTreeFileSystem(root, listing) : undefined;
  }

  /** Records `entry` in its folder's listing, and each folder above it in its own. */
  private add(entry: string, kind: EntryKind): void {
    const parent = path.dirname(entry);
    let listing = this.folders.get(parent);
    if (!listing) {
      listing = new Map();
      this.folders.set(parent, listing);
      if (parent !== this.root) this.add(parent, 'directory');
    }
    listing.set(path.basename(entry), kind);
  }

  stat(filePath: string): EntryStat | undefined {
    const resolved = path.resolve(filePath);
    const entry = this.entries.get(resolved);
    if (entry) return { kind: entry.kind, size: entry.size, mtimeMs: 0 };
    return this.folders.has(resolved) ? { kind: 'directory', size: 0, mtimeMs: 0 } : undefined;
  }

  readDirectory(dirPath: string): { name: string; kind: EntryKind }[] {
    return [...(this.folders.get(path.resolve(dirPath)) ?? [])].map(([name, kind]) => ({ name, kind }));
  }

  readFile(filePath: string): Uint8Array | undefined {
    const read = this.readWithin(filePath, Infinity);
    return read.kind === 'bytes' ? read.bytes : undefined;
  }

  readWithin(filePath: string, maxBytes: number): BoundedRead {
    const resolved = path.resolve(filePath);
    const entry = this.entries.get(resolved);
    if (!entry || entry.kind !== 'file') return { kind: 'missing' };
    if (entry.size > maxBytes) return { kind: 'too_large', size: entry.size };
    if (!this.blobs.has(entry.object)) {
      // The files beside it come along (a skill's files are read together: its scripts, its references), as many as
      // fit in the batch that reads it.
      const folder = path.dirname(resolved);
      const beside = [...(this.folders.get(folder)?.keys() ?? [])].map((name) =>
        this.entries.get(path.join(folder, name)),
      );
      this.readBatch(
        batchesOf([entry, ...beside.filter((file): file is TreeEntry => file !== entry && this.readsAhead(file))])[0],
      );
    }
    return bounded(this.blobs.get(entry.object), maxBytes);
  }

  /**
   * Reads every small file under `folders` (at any depth), in as few batches as their size allows, so that what
   * analyses them is served without starting git again: `diff` names the skill folders it compares.
   */
  readAheadUnder(folders: string[]): void {
    const under = new Set(folders.map((folder) => path.resolve(folder)));
    const inside = (file: string) => {
      for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
        if (under.has(dir)) return true;
        if (dir === this.root || dir === path.dirname(dir)) return false;
      }
    };
    const files: TreeEntry[] = [];
    for (const [file, entry] of this.entries) if (this.readsAhead(entry) && inside(file)) files.push(entry);
    for (const batch of batchesOf(files)) this.readBatch(batch);
  }

  /** A file not read yet and small enough to read along with others. */
  private readsAhead(entry: TreeEntry | undefined): entry is TreeEntry {
    return entry?.kind === 'file' && entry.size <= READ_AHEAD_FILE_BYTES && !this.blobs.has(entry.object);
  }

  /** Reads the blobs `objects` with one `git cat-file --batch`. */
  private readBatch(objects: string[]): void {
    const output = git(this.root, ['cat-file', '--batch'], `${objects.join('\n')}\n`);
    if (output) for (const [object, bytes] of batchBlobs(output)) this.blobs.set(object, bytes);
  }

  realpath(filePath: string): string | undefined {
    const resolved = path.resolve(filePath);
    const stat = this.stat(resolved);
    return stat && stat.kind !== 'symlink' ? resolved : undefined;
  }
}
