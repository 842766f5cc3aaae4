import type { PathMention } from '../../parse/markdown/pathMentions';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';
import { tiedToSkill } from '../match/mentionIntent';
import { nearestFile } from '../match/nearestFile';
import type { LinkCheck } from './fileLinks';

// Whose file a missing path is. A link, a path a step declares, a path named through `${CLAUDE_SKILL_DIR}` or one the
// sentence ties to this skill is the skill's, and so is a bare path with a file of the skill near it (a typo, a moved
// file): missing, it is `missing_file`. A bare path in a body's prose with nothing of the skill near it may as well be
// a file of the project the skill works on, or of the repository the skill sits in: the skill does not say whose.

export const unresolvedMention = defineRule({
  code: 'unresolved_mention',
  category: 'paths',
  severity: 'information',
  summary: 'Prose names a path the skill folder does not hold, without saying whose file it is.',
  stability: 'preview',
  formats: 'all',
});

/**
 * Whose files the bare mentions of a text are when nothing ties them to the skill: a procedure step's text speaks of
 * the step's own files (`step`); a body's prose may name the project's or the repository's too (`prose`).
 */
export type BareMentions = 'step' | 'prose';

/** A missing file's finding naming the file of the skill it most likely means; undefined when none is near. */
export function withNearestFile(context: LinkCheck, item: Diagnostic, target: string): Diagnostic | undefined {
  const nearest = nearestFile(context.fs, context.dir, target);
  if (!nearest) return undefined;
  return {
    ...item,
    message: `${item.message.replace(/\.$/, '')}; did you mean \`${nearest}\`?`,
    data: { ...item.data, suggestion: nearest },
  };
}

/**
 * The finding for a mention of a missing file (`item`, a `missing_file` finding) with no file of the skill near it:
 * `item` when the mention is the skill's (a link, a step's, tied to the skill by its sentence), else
 * `unresolved_mention` at the same place.
 */
export function whoseMissingFile(
  context: LinkCheck,
  item: Diagnostic,
  mention: PathMention,
  target: string,
  bare: BareMentions,
): Diagnostic {
  if (bare === 'step' || mention.link || tiedToSkill(context.text, mention)) return item;
  const named = /[{}*?]/.test(target)
    ? `\`${target}\` is named here, but no file of the skill folder matches it`
    : `\`${target}\` is named here, but the skill folder does not hold it`;
  return diagnostic(
    unresolvedMention,
    item.file,
    item.span,
    `${named}: if it is a file of the skill, add it; if it is the project's or the repository's, say so ("the project's \`${target}\`", "from the repository root").`,
    { path: target },
  );
}
