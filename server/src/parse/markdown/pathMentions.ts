import type { Span } from '../text/lineIndex';
import { unsharedCopy } from '../text/unsharedCopy';
import type { TextLike } from '../text/textLike';

export interface PathMention {
  path: string;
  span: Span;
  /** A Markdown link (`[x](path)`) rather than a bare mention in prose. */
  link: boolean;
  /** The stretch of text the mention was found in: what is read of the prose around it (an example, a file to make). */
  context: Span;
}

/**
 * `[text](target)`, with CommonMark's two forms of target: in angle brackets (which may hold spaces:
 * `(<references/My File.md>)`) or bare; then an optional title in quotes or parentheses.
 */
const MARKDOWN_LINK = /\]\(\s*(?:<([^<>\n]+)>|([^)\s<>]+))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
/**
 * `scripts/…`, `references/…`, `assets/…` not preceded by a path character (so `/app/scripts/x` is not ours), with
 * the brace alternatives and wildcards authors write for several files (`scripts/convert.{sh,ps1}`, `references/*.md`).
 */
const BARE_MENTION =
  /(?<![\w./\\-])((?:scripts|references|assets)\/(?:[\w./*?-]|\{[\w.,/*?-]*\})*(?:[\w*?-]|\{[\w.,/*?-]*\}))/g;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|#|\/\/)/i;
/** A path from the skill's folder as Claude Code spells it: `${CLAUDE_SKILL_DIR}/scripts/run.py`. */
const SKILL_DIR_MENTION =
  /\$(?:\{CLAUDE_SKILL_DIR\}|CLAUDE_SKILL_DIR\b)\/((?:[\w./*?-]|\{[\w.,/*?-]*\})*(?:[\w*?-]|\{[\w.,/*?-]*\}))/g;
/** A link target that starts with a variable: only `${CLAUDE_SKILL_DIR}` is known (SKILL_DIR_MENTION reads it). */
const VARIABLE = /^\$/;
/** A slash command, which some clients link to (`[deploy](/tools:deploy)`, `[review](/review)`): not a file. */
export const SLASH_COMMAND = /^\/[\w-]+(?::[\w-]+)*$/;

/**
 * Finds the paths a text names: Markdown links with a relative target and
 * bare mentions of files under the conventional folders. `regions` limits
 * the search (fenced examples of other projects' code are left out); each
 * mention's `context` is the region it was found in.
 */
export function findPathMentions(text: TextLike, regions: Span[]): PathMention[] {
  // Paths are copied out of the text: the server keeps mentions while later versions of a long document are typed.
  const mentions: PathMention[] = [];
  for (const region of regions) {
    const slice = text.slice(region.start, region.end);
    // Found with the patterns themselves, not `matchAll` (a copy of each per call), and a set only when a link is
    // found: the server searches a long procedure a step at a time, a thousand regions.
    let linked: Set<number> | undefined;
    MARKDOWN_LINK.lastIndex = 0;
    for (let match = MARKDOWN_LINK.exec(slice); match; match = MARKDOWN_LINK.exec(slice)) {
      const target = match[1] ?? match[2];
      if (EXTERNAL.test(target) || SLASH_COMMAND.test(target) || VARIABLE.test(target)) continue;
      const clean = decodeTarget(target.replace(/[#?].*$/, ''));
      if (clean === '') continue;
      const start = region.start + match.index + match[0].indexOf(target);
      (linked ??= new Set()).add(start);
      mentions.push({
        path: unsharedCopy(clean),
        span: { start, end: start + target.length },
        link: true,
        context: region,
      });
    }
    BARE_MENTION.lastIndex = 0;
    for (let match = BARE_MENTION.exec(slice); match; match = BARE_MENTION.exec(slice)) {
      const start = region.start + match.index;
      if (linked?.has(start)) continue;
      mentions.push({
        path: unsharedCopy(match[1]),
        span: { start, end: start + match[1].length },
        link: false,
        context: region,
      });
    }
  }
  return mentions;
}

/**
 * The paths a text names from the skill's folder through Claude Code's `${CLAUDE_SKILL_DIR}`, fenced blocks included:
 * Claude Code puts the folder in wherever the variable is written, so a command in a fence names a file of the skill.
 */
export function findSkillDirMentions(text: TextLike, region: Span): PathMention[] {
  const slice = text.slice(region.start, region.end);
  if (!slice.includes('CLAUDE_SKILL_DIR')) return [];
  return [...slice.matchAll(SKILL_DIR_MENTION)].map((match) => {
    const start = region.start + match.index! + match[0].length - match[1].length;
    return {
      path: unsharedCopy(match[1]),
      span: { start, end: start + match[1].length },
      link: false,
      context: region,
    };
  });
}

function decodeTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/** The parts of a body outside fenced blocks. */
export function regionsOutside(body: Span, fences: { open: Span; close?: Span }[]): Span[] {
  const regions: Span[] = [];
  let start = body.start;
  for (const fence of fences) {
    if (fence.open.start > start) regions.push({ start, end: fence.open.start });
    start = fence.close ? fence.close.end : body.end;
  }
  if (start < body.end) regions.push({ start, end: body.end });
  return regions;
}
