import * as path from 'node:path';
import { bounded, type BoundedRead, type EntryKind, type EntryStat, type FileSystem } from './fileSystem';

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
