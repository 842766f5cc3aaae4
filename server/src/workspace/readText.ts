import { PieceText } from '../parse/text/pieceText';
import { flatText, textRegion, type TextLike } from '../parse/text/textLike';
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
 * reading, so a huge file costs an open and a `stat`, not a read; anything
 * but a regular file (a pipe, a device) reads as missing, never waited on.
 */
export function readText(fs: FileSystem, filePath: string): TextRead {
  // A file open in the editor is read as its text (encoding it to decode the bytes again gives what editorText gives),
  // measured once, without a stat.
  const open = fs.openText?.(filePath);
  if (open !== undefined) {
    const size = Buffer.byteLength(open, 'utf8');
    return size > MAX_TEXT_BYTES ? { kind: 'too_large', size } : editorText(open);
  }
  const read = fs.readWithin(filePath, MAX_TEXT_BYTES);
  if (read.kind === 'bytes') return decodeText(read.bytes);
  return read;
}

const PROBE_BYTES = 8000;
// One decoder for every file (making one per file showed in profiles of large corpora); ignoreBOM keeps the mark in the
// text, so it can be reported and then stripped.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes bytes already in memory (a read file). */
export function decodeText(bytes: Uint8Array): TextRead {
  // A NUL byte in the first block is how git and editors tell binary from text.
  const probe = bytes.subarray(0, PROBE_BYTES);
  if (probe.includes(0)) return { kind: 'binary' };
  const text = UTF8.decode(bytes);
  const bom = text.charCodeAt(0) === 0xfeff;
  return { kind: 'text', text: bom ? text.slice(1) : text, bom };
}

/**
 * An editor's buffer as read for analysis: `TextRead`, its text kept as the editor's (a string, or the server's
 * pieces).
 */
export type EditorRead = Exclude<TextRead, { kind: 'text' }> | { kind: 'text'; text: TextLike; bom: boolean };

/**
 * An editor's buffer, read as `decodeText` reads the same text as bytes
 * (the NUL probe over the first 8,000 bytes, the byte-order mark, lone
 * surrogates becoming U+FFFD), without encoding the whole text on every
 * keystroke, nor making the server's pieces one string.
 */
export function editorText(text: string): TextRead;
export function editorText(text: TextLike): EditorRead;
export function editorText(text: TextLike): EditorRead {
  const nul = text.indexOf('\0');
  if (nul !== -1 && new TextEncoder().encode(text.slice(0, nul)).byteLength < PROBE_BYTES) return { kind: 'binary' };
  const wellFormed = isWellFormed(text) ? text : (flatText(text) as unknown as WellFormed).toWellFormed();
  const bom = wellFormed.charCodeAt(0) === 0xfeff;
  return { kind: 'text', text: bom ? textRegion(wellFormed, 1, wellFormed.length) : wellFormed, bom };
}

function isWellFormed(text: TextLike): boolean {
  return text instanceof PieceText ? text.isWellFormed() : (text as unknown as WellFormed).isWellFormed();
}

/** ES2024's string methods (Node 20 has them; the project's library types are ES2022). */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
