import * as path from 'node:path';
import { sha256 } from './sha256';
import type { FileSystem } from '../workspace/fileSystem';

/** Files past this size are hashed by their size alone: a revision's hash never reads a huge file whole. */
const HASHED_BYTES = 16 * 1024 * 1024;
const SKIPPED = new Set(['.git', 'node_modules']);

/** Each file of a skill's folder (relative path, `/`-separated) with the SHA-256 of its bytes (a link: its kind). */
export function skillFiles(fs: FileSystem, skillDir: string): Map<string, string> {
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
          read.kind === 'bytes' ? sha256(read.bytes) : read.kind === 'too_large' ? `size:${read.size}` : 'unreadable',
        );
      } else files.set(relative, entry.kind);
    }
  };
  walk(skillDir);
  return files;
}

/**
 * A skill revision's content hash: SHA-256 over each file of its folder (sorted paths, relative to the folder, each
 * with the SHA-256 of its bytes; a link by its kind, never followed). The same files give the same hash wherever they
 * are read from (a checkout, a git revision, a copy), so a runtime or registry can pin a revision by it.
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
    if (onDisk !== text) files.set(relative, sha256(text));
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
