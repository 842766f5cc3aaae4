import { MAX_TEXT_BYTES, type TextRead } from '../../workspace/readText';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';

// A skill file that cannot be read as a skill: not there (or misnamed), too large to analyse, or binary. Each is one
// finding at the start of the file; nothing else of it is read.

export const missingSkillMd = defineRule({
  code: 'missing_skill_md',
  category: 'file',
  severity: 'error',
  summary: 'A skill file is not named exactly SKILL.md.',
  stability: 'stable',
  formats: 'all',
});

export const fileTooLarge = defineRule({
  code: 'file_too_large',
  category: 'file',
  severity: 'error',
  summary: 'A file is too large to be a skill file and is not analysed.',
  stability: 'stable',
  formats: 'all',
});

export const binaryFile = defineRule({
  code: 'binary_file',
  category: 'file',
  severity: 'error',
  summary: 'A skill file holds binary data, not text.',
  stability: 'stable',
  formats: 'all',
});

/** The finding of a SKILL.md that could not be read as text. */
export function unreadableSkillFile(file: string, read: Exclude<TextRead, { kind: 'text' }>): Diagnostic {
  const start = { start: 0, end: 0 };
  switch (read.kind) {
    case 'missing':
      return diagnostic(missingSkillMd, file, start, `${file} could not be read.`);
    case 'too_large':
      return diagnostic(
        fileTooLarge,
        file,
        start,
        `SKILL.md is ${(read.size / 1048576).toFixed(1)} MB; files over ${MAX_TEXT_BYTES / 1048576} MB are not analysed. Agents load SKILL.md whole: move bulk into \`references/\` or \`assets/\`.`,
      );
    case 'binary':
      return diagnostic(binaryFile, file, start, 'SKILL.md holds binary data (a NUL byte), not Markdown text.');
  }
}
