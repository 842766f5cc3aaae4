import type { FileSystem } from './fileSystem';

/** Skill files larger than this are not parsed: no agent loads a multi-megabyte skill. */
export const MAX_TEXT_BYTES = 4 * 1024 * 1024;

export type TextRead =
  | { kind: 'text'; text: string; bom: boolean }
  | { kind: 'missing' }
  | { kind: 'too_large'; size: number }
  | { kind: 'binary' };

/**
 * Reads a file as UTF-8 text for analysis. The byte-order mark is removed
 * (and reported) so offsets match what editors show. Checks the size before
 * reading, so a huge file costs a `stat`, not a read.
 */
export function readText(fs: FileSystem, filePath: string): TextRead {
  const stat = fs.stat(filePath);
  if (!stat) return { kind: 'missing' };
  if (stat.size > MAX_TEXT_BYTES) return { kind: 'too_large', size: stat.size };
  const bytes = fs.readFile(filePath);
  if (!bytes) return { kind: 'missing' };
  if (bytes.byteLength > MAX_TEXT_BYTES) return { kind: 'too_large', size: bytes.byteLength };
  return decodeText(bytes);
}

/** Decodes bytes already in memory (an editor buffer, a read file). */
export function decodeText(bytes: Uint8Array): TextRead {
  // A NUL byte in the first block is how git and editors tell binary from text.
  const probe = bytes.subarray(0, 8000);
  if (probe.includes(0)) return { kind: 'binary' };
  // ignoreBOM keeps the mark in the text, so it can be reported and then stripped here.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const bom = text.charCodeAt(0) === 0xfeff;
  return { kind: 'text', text: bom ? text.slice(1) : text, bom };
}
