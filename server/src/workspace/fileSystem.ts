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

/** Bytes in memory, read as a bounded read reads them from disk. */
export function bounded(bytes: Uint8Array | undefined, maxBytes: number): BoundedRead {
  if (!bytes) return MISSING;
  return bytes.byteLength > maxBytes ? { kind: 'too_large', size: bytes.byteLength } : { kind: 'bytes', bytes };
}
