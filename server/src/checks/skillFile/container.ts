import type { Span } from '../../parse/text/lineIndex';
import type { SkillFileProblem } from '../../parse/markdown/skillFile';
import type { YamlProblem } from '../../parse/yaml/yamlSyntax';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { fixOf, textChange, type Fix } from '../engine/fix';
import { defineRule, type Rule } from '../engine/rule';

// How SKILL.md is stored and framed: its encoding and line endings, the frontmatter's `---` lines, fences that never
// close, and YAML a reader refuses. The container parser (parse/markdown/skillFile.ts) and the YAML reader say what
// they saw; these rules say what it means for the skill.

export const utf8Bom = defineRule({
  code: 'utf8_bom',
  category: 'file',
  severity: 'information',
  summary: 'SKILL.md starts with a UTF-8 byte-order mark.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: removeMarkFix,
  strict: 'error',
});

export const crlfLineEndings = defineRule({
  code: 'crlf_line_endings',
  category: 'file',
  severity: 'information',
  summary: 'SKILL.md uses CRLF line endings.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: (item, { text }) => lineEndingsFix(text, item),
});

export const missingFrontmatter = defineRule({
  code: 'missing_frontmatter',
  category: 'file',
  severity: 'error',
  summary: 'SKILL.md does not start with YAML frontmatter.',
  stability: 'stable',
  formats: 'all',
});

export const invalidFrontmatter = defineRule({
  code: 'invalid_frontmatter',
  category: 'file',
  severity: 'error',
  summary: 'The frontmatter is not a readable YAML mapping.',
  stability: 'stable',
  formats: 'all',
});

export const yamlAliasLimit = defineRule({
  code: 'yaml_alias_limit',
  category: 'file',
  severity: 'error',
  summary: 'YAML aliases expand beyond the safe limit.',
  stability: 'stable',
  formats: 'all',
});

export const unclosedFence = defineRule({
  code: 'unclosed_fence',
  category: 'file',
  severity: 'warning',
  summary: 'A fenced code block never closes.',
  stability: 'stable',
  formats: 'all',
});

const BY_PROBLEM: Record<SkillFileProblem['kind'], Rule> = {
  crlf: crlfLineEndings,
  'no-frontmatter': missingFrontmatter,
  'unclosed-frontmatter': invalidFrontmatter,
  'unclosed-fence': unclosedFence,
};

const WHOLE_FILE_START: Span = { start: 0, end: 0 };

/** The findings of what the container parser saw in SKILL.md, and of a byte-order mark its reader dropped. */
export function containerFindings(file: string, problems: SkillFileProblem[], bom: boolean): Diagnostic[] {
  const found = problems.map((problem) => diagnostic(BY_PROBLEM[problem.kind], file, problem.span, problem.message));
  if (bom)
    found.push(
      diagnostic(
        utf8Bom,
        file,
        WHOLE_FILE_START,
        'SKILL.md starts with a UTF-8 byte-order mark; most clients strip it, but some packagers reject the file.',
      ),
    );
  return found;
}

/** The rule a YAML problem breaks: the alias limit, or `otherwise` (the region's own: the frontmatter, a procedure). */
export function yamlProblemRule(problem: YamlProblem, otherwise: Rule): Rule {
  return problem.kind === 'alias-limit' ? yamlAliasLimit : otherwise;
}

// Fixes of how a file is stored rather than what it says. An editor keeps the byte-order mark and the line ending as
// properties of the buffer (and turns a `\n` it is given back into the buffer's ending), so these apply on disk.

/** The byte-order mark, removed: the text is the same. */
function removeMarkFix(item: Diagnostic): Fix[] {
  return [
    fixOf(item, 'Remove the byte-order mark', 'safe', [{ kind: 'remove-bom', file: item.file }], { diskOnly: true }),
  ];
}

/** Every CRLF line ending of the file made LF. */
function lineEndingsFix(text: string, item: Diagnostic): Fix[] {
  const edits = [];
  for (let at = text.indexOf('\r\n'); at !== -1; at = text.indexOf('\r\n', at + 2))
    edits.push(textChange(item.file, at, at + 1, ''));
  return edits.length > 0 ? [fixOf(item, 'Use LF line endings', 'safe', edits, { diskOnly: true })] : [];
}
