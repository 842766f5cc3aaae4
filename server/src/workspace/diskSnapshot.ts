import { bounded, type BoundedRead, type EntryKind, type EntryStat, type FileSystem } from './fileSystem';

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

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && Buffer.compare(a, b) === 0);
}

/**
 * `compute()`, remembered per kind, scope and key while `fs` is a snapshot of the disk
 * (`AnalysisFileSystem.remembered`).
 */
export function rememberedIn<T>(fs: FileSystem, kind: string, scope: string, key: string, compute: () => T): T {
  return fs instanceof AnalysisFileSystem ? fs.remembered(kind, scope, key, compute) : compute();
}
