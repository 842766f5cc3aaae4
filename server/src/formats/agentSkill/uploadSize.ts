import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../../checks/diagnostic';
import type { Span } from '../../parse/lineIndex';
import type { FileSystem } from '../../workspace/fileSystem';

/** The Claude API's limit for one uploaded skill. */
const UPLOAD_LIMIT_BYTES = 8 * 1024 * 1024;

/** Sums the skill folder's files (links are not followed) and reports a folder over the upload limit. */
export function checkUploadSize(fs: FileSystem, dir: string, file: string, anchor: Span): Diagnostic[] {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= UPLOAD_LIMIT_BYTES) {
    const current = pending.pop()!;
    for (const entry of fs.readDirectory(current)) {
      const child = path.join(current, entry.name);
      if (entry.kind === 'directory') pending.push(child);
      else if (entry.kind === 'file') total += fs.stat(child)?.size ?? 0;
    }
  }
  if (total <= UPLOAD_LIMIT_BYTES) return [];
  return [diagnostic('upload_too_large', file, anchor, `The skill folder holds more than ${UPLOAD_LIMIT_BYTES / 1048576} MB, the Claude API's upload limit; move large assets out of the skill.`)];
}
