import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { checkMentionedPaths } from '../../checks/links/fileLinks';
import { checkNestedReferences } from '../../checks/links/nestedReferences';
import { findPathMentions, findSkillDirMentions, regionsOutside } from '../../parse/markdown/pathMentions';
import { lineBreaksIn } from '../../parse/text/lineIndex';
import type { TextLike } from '../../parse/text/textLike';
import type { FormatContext } from '../../analysis/formatContext';
import { defineRule } from '../../checks/engine/rule';

export const bodyTooLong = defineRule({
  code: 'body_too_long',
  category: 'file',
  severity: 'warning',
  summary: 'The SKILL.md body is longer than recommended.',
  stability: 'stable',
  formats: 'all',
});

const NONE: ReadonlySet<string> = new Set();

/**
 * The lines of the body as an editor numbers them: a line break ends a line, so the break at the end of the file opens
 * no line of its own (a 500-line body that ends with a newline is 500 lines, not 501).
 */
function bodyLines(source: TextLike, body: { start: number; end: number }): number {
  if (body.end <= body.start) return 0;
  const breaks = lineBreaksIn(source, body.start, body.end).length;
  const endsWithBreak = source.charCodeAt(body.end - 1) === 10;
  return endsWithBreak ? breaks : breaks + 1;
}

/** The specification's recommended ceiling for a SKILL.md body. */
const MAX_BODY_LINES = 500;

/**
 * Body rules of a prose skill: its length, every path it links to or names
 * resolving inside the skill folder, and no file reached only through another. Fenced blocks are skipped (they
 * usually show the user's project, not files of the skill), but for paths through `${CLAUDE_SKILL_DIR}`.
 */
export function checkBody(context: FormatContext): Diagnostic[] {
  const { syntax, file } = context;
  const diagnostics: Diagnostic[] = [];
  const lines = bodyLines(syntax.source, syntax.body);
  if (lines > MAX_BODY_LINES) {
    diagnostics.push(
      diagnostic(
        bodyTooLong,
        file,
        context.frontmatterAnchor,
        `The body is ${lines} lines; keep SKILL.md under ${MAX_BODY_LINES} lines and move detail into \`references/\`, which agents load only when needed.`,
      ),
    );
  }
  const mentions = [
    ...findPathMentions(syntax.source, regionsOutside(syntax.body, syntax.fences)),
    ...findSkillDirMentions(syntax.source, syntax.body),
  ];
  const links = { fs: context.fs, dir: context.dir, file, text: syntax.source };
  diagnostics.push(
    ...checkMentionedPaths(links, mentions, NONE, 'prose'),
    ...checkNestedReferences(links, mentions, NONE),
  );
  return diagnostics;
}
