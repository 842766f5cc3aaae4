import * as path from 'node:path';
import { sha256 } from './sha256';
import type { FileSystem } from './fileSystem';

/** Files past this size are hashed by their size alone: a revision's hash never reads a huge file whole. */
export const HASHED_BYTES = 16 * 1024 * 1024;
const SKIPPED = new Set(['.git', 'node_modules']);

/** Git's test for binary content: a NUL byte among the first this many bytes. */
const BINARY_PROBE_BYTES = 8000;
const CR = 0x0d;
const LF = 0x0a;

/** The bytes with each CR that ends a line (CRLF) left out; the same array when there is none. */
function withLfEnds(bytes: Uint8Array): Uint8Array {
  let pairs = 0;
  for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === CR && bytes[i + 1] === LF) pairs++;
  if (pairs === 0) return bytes;
  const out = new Uint8Array(bytes.length - pairs);
  let at = 0;
  for (let i = 0; i < bytes.length; i++) if (!(bytes[i] === CR && bytes[i + 1] === LF)) out[at++] = bytes[i];
  return out;
}

/**
 * The SHA-256 of a file's content, its line ends counted as LF when it is text: git keeps text with LF and a Windows
 * checkout (core.autocrlf, Git for Windows' default) writes CRLF, so without this one revision would hash apart on two
 * machines, and every file of a Windows working tree would read as changed since HEAD. Binary content (git's test: a
 * NUL byte among the first 8,000) is hashed as it is.
 */
function contentDigest(content: Uint8Array | string): string {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const binary = bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
  return sha256(binary ? bytes : withLfEnds(bytes));
}

/**
 * Each file of a skill's folder (relative path, `/`-separated) with the digest of its content (by default
 * `contentDigest`; a link: its kind; a file too large to hash: its size).
 */
export function skillFiles(
  fs: FileSystem,
  skillDir: string,
  digestOf: (bytes: Uint8Array) => string = contentDigest,
): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readDirectory(dir).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      const relative = path.relative(skillDir, full).split(path.sep).join('/');
      if (entry.kind === 'directory') walk(full);
      else if (entry.kind === 'file') {
        const read = fs.readWithin(full, HASHED_BYTES);
        files.set(
          relative,
          read.kind === 'bytes' ? digestOf(read.bytes) : read.kind === 'too_large' ? `size:${read.size}` : 'unreadable',
        );
      } else files.set(relative, entry.kind);
    }
  };
  walk(skillDir);
  return files;
}

/**
 * A skill revision's content hash: SHA-256 over each file of its folder (sorted paths, relative to the folder, each
 * with the digest of its content, text with LF line ends; a link by its kind, never followed). The same files give the
 * same hash wherever they are read from (a checkout on any system, a git revision, a copy), so a runtime or registry
 * can pin a revision by it.
 */
export function skillHash(files: Map<string, string>): string {
  const lines = [...files].map(([relative, digest]) => `${relative}\0${digest}`);
  return `sha256:${sha256(lines.join('\n'))}`;
}

/**
 * The content hash of a skill as it was analysed: its folder's files, with `texts` (absolute path → the text the
 * analysis read, an editor's unsaved text included) in place of the bytes on disk where they differ. A file read as
 * it is on disk keeps its bytes' digest (a byte-order mark the text leaves out included), so an unchanged skill hashes
 * as `skillgraph hash` prints it.
 */
export function analysedSkillHash(fs: FileSystem, skillDir: string, texts: Map<string, string>): string {
  const files = skillFiles(fs, skillDir);
  for (const [file, text] of texts) {
    const relative = path.relative(skillDir, file).split(path.sep).join('/');
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    const bytes = fs.readWithin(file, HASHED_BYTES);
    const onDisk = bytes.kind === 'bytes' ? new TextDecoder().decode(bytes.bytes) : undefined;
    if (onDisk !== text) files.set(relative, contentDigest(text));
  }
  return skillHash(files);
}

/** The files added, removed and changed between two revisions of a skill's folder. */
export function fileChanges(
  before: Map<string, string>,
  after: Map<string, string>,
): { added: string[]; removed: string[]; changed: string[] } {
  return {
    added: [...after.keys()].filter((file) => !before.has(file)),
    removed: [...before.keys()].filter((file) => !after.has(file)),
    changed: [...after.keys()].filter((file) => before.has(file) && before.get(file) !== after.get(file)),
  };
}
