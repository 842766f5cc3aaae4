import {
  type Dirent,
  type Stats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  readdirSync,
  realpathSync,
} from 'node:fs';
import * as path from 'node:path';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface EntryStat {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
}

/** A read that stops at a size: the bytes, or only the size when there are more than asked for. */
export type BoundedRead =
  { kind: 'bytes'; bytes: Uint8Array } | { kind: 'too_large'; size: number } | { kind: 'missing' };

const MISSING: BoundedRead = { kind: 'missing' };

/**
 * The only way the analyzer touches files. Injected, so tests run on an
 * in-memory tree and the language server can overlay open documents.
 * Paths are absolute. `stat` does not follow links; `realpath` does.
 */
export interface FileSystem {
  stat(filePath: string): EntryStat | undefined;
  readDirectory(dirPath: string): { name: string; kind: EntryKind }[];
  readFile(filePath: string): Uint8Array | undefined;
  /**
   * A regular file's bytes (links followed) when it holds at most `maxBytes`, its size when it holds more;
   * missing for anything else: a folder, and a pipe or a device, whose read could wait forever.
   */
  readWithin(filePath: string, maxBytes: number): BoundedRead;
  realpath(filePath: string): string | undefined;
  /**
   * The unsaved text of a file open in the editor (links followed as on disk), for readers of text; undefined for every
   * other file.
   */
  openText?(filePath: string): string | undefined;
}

function kindOf(stats: Stats | Dirent): EntryKind {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFile()) return 'file';
  return 'other';
}

/** The real disk. Every failure (missing, permission, loop) reads as absent. */
export class NodeFileSystem implements FileSystem {
  stat(filePath: string): EntryStat | undefined {
    try {
      const stats = lstatSync(filePath);
      return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
    } catch {
      return undefined;
    }
  }

  readDirectory(dirPath: string): { name: string; kind: EntryKind }[] {
    try {
      return readdirSync(dirPath, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    } catch {
      return [];
    }
  }

  readFile(filePath: string): Uint8Array | undefined {
    // The bounded read with no bound: a pipe or a device is never waited on, whichever reader asks.
    const read = this.readWithin(filePath, Infinity);
    return read.kind === 'bytes' ? read.bytes : undefined;
  }

  readWithin(filePath: string, maxBytes: number): BoundedRead {
    // One open, one fstat, the reads, one close: no lstat before (a tenth of a large `check`'s system time),
    // and the size is the file's own, a link's target's included. Non-blocking, so opening a pipe does not wait for a
    // writer.
    let fd: number;
    try {
      fd = openSync(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch {
      return MISSING;
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) return MISSING;
      if (stats.size > maxBytes) return { kind: 'too_large', size: stats.size };
      // The size the fstat gave is read, as readFileSync reads it; a file giving none (as /proc's do) is read to its
      // end, up to the limit.
      const expected = stats.size;
      let buffer = Buffer.allocUnsafe(expected || 8192);
      let length = 0;
      while (expected === 0 || length < expected) {
        if (length === buffer.length) {
          if (length > maxBytes) return { kind: 'too_large', size: length };
          const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
          buffer.copy(larger, 0, 0, length);
          buffer = larger;
        }
        const read = readSync(fd, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
      }
      return { kind: 'bytes', bytes: buffer.subarray(0, length) };
    } catch {
      return MISSING;
    } finally {
      closeSync(fd);
    }
  }

  realpath(filePath: string): string | undefined {
    try {
      return realpathSync(filePath);
    } catch {
      return undefined;
    }
  }
}

/** An in-memory tree for tests: file paths map to their text; symlinks map to a target. */
export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, Uint8Array>();
  private readonly links = new Map<string, string>();

  constructor(files: Record<string, string | Uint8Array> = {}) {
    for (const [filePath, content] of Object.entries(files)) this.write(filePath, content);
  }

  write(filePath: string, content: string | Uint8Array): void {
    this.files.set(path.resolve(filePath), typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }

  delete(filePath: string): void {
    this.files.delete(path.resolve(filePath));
  }

  symlink(linkPath: string, target: string): void {
    this.links.set(path.resolve(linkPath), path.resolve(path.dirname(path.resolve(linkPath)), target));
  }

  stat(filePath: string): EntryStat | undefined {
    const resolved = path.resolve(filePath);
    if (this.links.has(resolved)) return { kind: 'symlink', size: 0, mtimeMs: 0 };
    const file = this.files.get(resolved);
    if (file) return { kind: 'file', size: file.byteLength, mtimeMs: 0 };
    return this.isDirectory(resolved) ? { kind: 'directory', size: 0, mtimeMs: 0 } : undefined;
  }

  readDirectory(dirPath: string): { name: string; kind: EntryKind }[] {
    // Like readdir, a listing follows links to the folder.
    const real = this.realpath(dirPath);
    if (!real) return [];
    const prefix = real + path.sep;
    const names = new Map<string, EntryKind>();
    for (const known of [...this.files.keys(), ...this.links.keys()]) {
      if (!known.startsWith(prefix)) continue;
      const rest = known.slice(prefix.length);
      const [first] = rest.split(path.sep);
      const child = prefix + first;
      names.set(first, this.stat(child)!.kind);
    }
    return [...names].map(([name, kind]) => ({ name, kind }));
  }

  readFile(filePath: string): Uint8Array | undefined {
    const real = this.realpath(filePath);
    return real ? this.files.get(real) : undefined;
  }

  readWithin(filePath: string, maxBytes: number): BoundedRead {
    return bounded(this.readFile(filePath), maxBytes);
  }

  realpath(filePath: string): string | undefined {
    let current = path.resolve(filePath);
    for (let hops = 0; hops < 40; hops++) {
      const target = this.resolveFirstLink(current);
      if (target === current) return this.files.has(current) || this.isDirectory(current) ? current : undefined;
      current = target;
    }
    return undefined; // a link loop
  }

  /** Replaces the first linked component of `filePath` by its target. */
  private resolveFirstLink(filePath: string): string {
    const parts = filePath.split(path.sep);
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join(path.sep) || path.sep;
      const target = this.links.get(prefix);
      if (target) return path.join(target, ...parts.slice(i));
    }
    return filePath;
  }

  private isDirectory(dirPath: string): boolean {
    const prefix = dirPath.endsWith(path.sep) ? dirPath : dirPath + path.sep;
    return [...this.files.keys(), ...this.links.keys()].some((known) => known.startsWith(prefix));
  }
}

/**
 * The disk with its folder listings remembered, and nothing else: in a
 * `check` run discovery lists every skill folder, and each skill's analysis
 * lists it again to resolve the paths it names; one listing serves both.
 * Contents are not kept, so memory does not grow with the files read.
 */
export class ListingCache implements FileSystem {
  private readonly listings = new Map<string, { name: string; kind: EntryKind }[]>();

  constructor(protected readonly inner: FileSystem) {}

  stat(filePath: string): EntryStat | undefined {
    return this.inner.stat(filePath);
  }

  readDirectory(dirPath: string): { name: string; kind: EntryKind }[] {
    let listing = this.listings.get(dirPath);
    if (!listing) {
      listing = this.inner.readDirectory(dirPath);
      this.listings.set(dirPath, listing);
    }
    return listing;
  }

  readFile(filePath: string): Uint8Array | undefined {
    return this.inner.readFile(filePath);
  }

  readWithin(filePath: string, maxBytes: number): BoundedRead {
    return this.inner.readWithin(filePath, maxBytes);
  }

  realpath(filePath: string): string | undefined {
    return this.inner.realpath(filePath);
  }

  openText(filePath: string): string | undefined {
    return this.inner.openText?.(filePath);
  }

  /** Whether every folder listed still lists the same entries, in the same order. */
  protected listingsMatch(): boolean {
    for (const [dirPath, listing] of this.listings) {
      const now = this.inner.readDirectory(dirPath);
      if (
        now.length !== listing.length ||
        now.some((entry, index) => entry.name !== listing[index].name || entry.kind !== listing[index].kind)
      )
        return false;
    }
    return true;
  }
}

/**
 * Remembers listings, stats, link targets and file contents for as long as
 * it lives: one analysis (a procedure naming the same folders hundreds of
 * times costs one read of each), or in the language server a skill's folder
 * view, dropped on any file event in the folder and after a few seconds.
 */
export class AnalysisFileSystem extends ListingCache {
  /**
   * `spansAnalyses`: this snapshot serves several analyses (the server's
   * folder view) and is checked against the disk later (`matchesDisk`), so
   * it notes each file's time when it reads it; a snapshot made for one
   * analysis does not.
   */
  constructor(
    inner: FileSystem,
    private readonly spansAnalyses = false,
  ) {
    super(inner);
  }

  private readonly stats = new Map<string, EntryStat | undefined>();
  private readonly contents = new Map<string, Uint8Array | undefined>();
  private readonly realpaths = new Map<string, string | undefined>();

  override stat(filePath: string): EntryStat | undefined {
    if (!this.stats.has(filePath)) this.stats.set(filePath, this.inner.stat(filePath));
    return this.stats.get(filePath);
  }

  override readFile(filePath: string): Uint8Array | undefined {
    if (!this.contents.has(filePath)) {
      // A snapshot that may be checked against the disk later notes what the file was when read (see `matchesDisk`).
      if (this.spansAnalyses) this.stat(filePath);
      this.contents.set(filePath, this.inner.readFile(filePath));
    }
    return this.contents.get(filePath);
  }

  override readWithin(filePath: string, maxBytes: number): BoundedRead {
    if (this.contents.has(filePath)) return bounded(this.contents.get(filePath), maxBytes);
    // As in readFile: a snapshot checked against the disk later needs the file's time (a stat the disk's own read does
    // not make).
    if (this.spansAnalyses) this.stat(filePath);
    const read = this.inner.readWithin(filePath, maxBytes);
    // Too large is not kept: the bytes were not read, and a later readFile reads them.
    if (read.kind !== 'too_large') this.contents.set(filePath, read.kind === 'bytes' ? read.bytes : undefined);
    return read;
  }

  override realpath(filePath: string): string | undefined {
    if (!this.realpaths.has(filePath)) this.realpaths.set(filePath, this.inner.realpath(filePath));
    return this.realpaths.get(filePath);
  }

  /**
   * Whether the disk still answers as it did to this snapshot: every folder
   * listed lists the same entries, every path stat'ed (a file read was
   * stat'ed first) has the same kind, size and modification time, every
   * link resolves to the same target, every file read without a time
   * reads the same. Then all that was worked out from
   * those answers stands too. The server asks this when a folder view's
   * time is up: asking again is a handful of calls, where a new snapshot
   * makes every finding about the disk be worked out again.
   */
  matchesDisk(): boolean {
    if (!this.listingsMatch()) return false;
    for (const [filePath, stat] of this.stats) {
      const now = this.inner.stat(filePath);
      if (now?.kind !== stat?.kind || now?.size !== stat?.size || now?.mtimeMs !== stat?.mtimeMs) return false;
    }
    for (const [filePath, target] of this.realpaths) if (this.inner.realpath(filePath) !== target) return false;
    // A file read without a modification time to compare (not stat'ed, or 0: unknown, as in memory) is read again.
    for (const [filePath, content] of this.contents)
      if (!this.stats.get(filePath)?.mtimeMs && !sameBytes(this.inner.readFile(filePath), content)) return false;
    return true;
  }

  private readonly derived = new Map<string, Map<string, Map<string, unknown>>>();

  /**
   * `compute()` once per kind of result, scope and key for as long as this
   * snapshot lives: what is worked out from the disk alone (a path's
   * resolution in a skill folder, the files a Markdown file links to)
   * answers the same until it is dropped. Nested maps, so no key string is
   * built for each of a procedure's hundreds of lookups.
   */
  remembered<T>(kind: string, scope: string, key: string, compute: () => T): T {
    let scopes = this.derived.get(kind);
    if (!scopes) this.derived.set(kind, (scopes = new Map()));
    let known = scopes.get(scope);
    if (!known) scopes.set(scope, (known = new Map()));
    if (!known.has(key)) known.set(key, compute());
    return known.get(key) as T;
  }
}

/** Bytes in memory, read as a bounded read reads them from disk. */
function bounded(bytes: Uint8Array | undefined, maxBytes: number): BoundedRead {
  if (!bytes) return MISSING;
  return bytes.byteLength > maxBytes ? { kind: 'too_large', size: bytes.byteLength } : { kind: 'bytes', bytes };
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && Buffer.compare(a, b) === 0);
}

/**
 * The disk as the editor sees it: files open in the editor read as their
 * unsaved text. A skill+ package spans several files, so an edit in
 * `state.py` must reach the checks of `flow.py` before it is saved.
 */
export class OverlayFileSystem implements FileSystem {
  private readonly texts = new Map<string, string>();
  /** Open texts as bytes, made only for a reader of bytes: readers of text take the text (`openText`). */
  private readonly encoded = new Map<string, Uint8Array>();

  constructor(
    private readonly inner: FileSystem,
    overlays: Map<string, string>,
  ) {
    for (const [file, text] of overlays) this.texts.set(path.resolve(file), text);
  }

  stat(filePath: string): EntryStat | undefined {
    const overlay = this.texts.get(path.resolve(filePath));
    const stat = this.inner.stat(filePath);
    if (overlay === undefined || stat?.kind === 'symlink') return stat;
    return { kind: 'file', size: Buffer.byteLength(overlay, 'utf8'), mtimeMs: stat?.mtimeMs ?? 0 };
  }

  readDirectory(dirPath: string): { name: string; kind: EntryKind }[] {
    return this.inner.readDirectory(dirPath);
  }

  readFile(filePath: string): Uint8Array | undefined {
    const open = this.openFile(filePath);
    return open ? this.bytesOf(open) : this.inner.readFile(filePath);
  }

  readWithin(filePath: string, maxBytes: number): BoundedRead {
    const open = this.openFile(filePath);
    return open ? bounded(this.bytesOf(open), maxBytes) : this.inner.readWithin(filePath, maxBytes);
  }

  /** An open file's text as bytes, encoded once. */
  private bytesOf(open: { file: string; text: string }): Uint8Array {
    let bytes = this.encoded.get(open.file);
    if (!bytes) this.encoded.set(open.file, (bytes = new TextEncoder().encode(open.text)));
    return bytes;
  }

  openText(filePath: string): string | undefined {
    return this.openFile(filePath)?.text;
  }

  /** A link is followed as on disk, then the open buffer of its target (if open) is read. */
  private openFile(filePath: string): { file: string; text: string } | undefined {
    for (const file of [this.inner.realpath(filePath) ?? path.resolve(filePath), path.resolve(filePath)]) {
      const text = this.texts.get(file);
      if (text !== undefined) return { file, text };
    }
    return undefined;
  }

  realpath(filePath: string): string | undefined {
    return (
      this.inner.realpath(filePath) ?? (this.texts.has(path.resolve(filePath)) ? path.resolve(filePath) : undefined)
    );
  }
}

/**
 * `compute()`, remembered per kind, scope and key while `fs` is a snapshot of the disk
 * (`AnalysisFileSystem.remembered`).
 */
export function rememberedIn<T>(fs: FileSystem, kind: string, scope: string, key: string, compute: () => T): T {
  return fs instanceof AnalysisFileSystem ? fs.remembered(kind, scope, key, compute) : compute();
}
