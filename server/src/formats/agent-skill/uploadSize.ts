import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import type { Span } from '../../parse/text/lineIndex';
import type { FileSystem } from '../../workspace/fileSystem';
import { walkPackageFiles } from '../../workspace/packageFiles';
import { defineRule } from '../../checks/engine/rule';
import { UPLOAD_LIMIT_BYTES } from '../../platforms/clients';

export const uploadTooLarge = defineRule({
  code: 'upload_too_large',
  category: 'client',
  severity: 'error',
  summary: 'The skill folder is larger than the upload limit.',
  stability: 'stable',
  formats: 'all',
});

/** Sums the skill folder's files (links are not followed) and reports a folder over the upload limit. */
export function checkUploadSize(fs: FileSystem, dir: string, file: string, anchor: Span): Diagnostic[] {
  if (!walkPackageFiles(fs, dir, UPLOAD_LIMIT_BYTES).overLimit) return [];
  return [
    diagnostic(
      uploadTooLarge,
      file,
      anchor,
      `The skill folder holds more than ${UPLOAD_LIMIT_BYTES / 1048576} MB, the Claude API's upload limit; move large assets out of the skill.`,
    ),
  ];
}
