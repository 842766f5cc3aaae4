import * as path from 'node:path';
import { bounded, type BoundedRead, type EntryKind, type EntryStat, type FileSystem } from './fileSystem';

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
    if (stat === undefined && overlay === undefined && this.holdsUnder(path.resolve(filePath)))
      return { kind: 'directory', size: 0, mtimeMs: 0 };
    if (overlay === undefined || stat?.kind === 'symlink') return stat;
    return { kind: 'file', size: Buffer.byteLength(overlay, 'utf8'), mtimeMs: stat?.mtimeMs ?? 0 };
  }

  /** Whether the overlay holds a file somewhere under `dir` (a folder the disk does not have yet). */
  private holdsUnder(dir: string): boolean {
    for (const file of this.texts.keys()) if (file.startsWith(dir + path.sep)) return true;
    return false;
  }

  /** The folder's entries, with the files the overlay holds in it (or in folders under it) that the disk does not. */
  readDirectory(dirPath: string): { name: string; kind: EntryKind }[] {
    const entries = this.inner.readDirectory(dirPath);
    const dir = path.resolve(dirPath);
    const added = new Map<string, EntryKind>();
    for (const file of this.texts.keys()) {
      if (!file.startsWith(dir + path.sep)) continue;
      const [name, ...deeper] = file.slice(dir.length + 1).split(path.sep);
      if (!entries.some((entry) => entry.name === name)) added.set(name, deeper.length > 0 ? 'directory' : 'file');
    }
    // The inner listing may be a cache's own array: it is never changed.
    return added.size > 0 ? [...entries, ...[...added].map(([name, kind]) => ({ name, kind }))] : entries;
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
    const resolved = path.resolve(filePath);
    return (
      this.inner.realpath(filePath) ?? (this.texts.has(resolved) || this.holdsUnder(resolved) ? resolved : undefined)
    );
  }
}
