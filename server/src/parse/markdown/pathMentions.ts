import type { Span } from '../text/lineIndex';
import { unsharedCopy } from '../text/unsharedCopy';
import type { TextLike } from '../text/textLike';

export interface PathMention {
  path: string;
  span: Span;
  /** A Markdown link (`[x](path)`) rather than a bare mention in prose. */
  link: boolean;
  /** Named from the skill's folder through `${CLAUDE_SKILL_DIR}`: a file of the skill whatever the prose says. */
  skillDir?: true;
  /** The stretch of text the mention was found in: what is read of the prose around it (an example, a file to make). */
  context: Span;
}

/**
 * `[text](target)`, with CommonMark's two forms of target: in angle brackets (which may hold spaces:
 * `(<references/My File.md>)`) or bare; then an optional title in quotes or parentheses.
 */
const MARKDOWN_LINK = /\]\(\s*(?:<([^<>\n]+)>|([^)\s<>]+))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
/**
 * `scripts/…`, `references/…`, `assets/…` (or `./scripts/…`) not preceded by a path character (so `/app/scripts/x`
 * is not ours), with the brace alternatives, placeholders and wildcards authors write for several files
 * (`scripts/convert.{sh,ps1}`, `references/x-{platform}.md`, `references/*.md`).
 */
const BARE_MENTION =
  /(?<![\w./\\-])((?:\.\/)?(?:scripts|references|assets)\/(?:[\w./*?-]|\{[\w.,/*?-]*\})*(?:[\w*?-]|\{[\w.,/*?-]*\}))/g;
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
    // Found with the patterns themselves, not `matchAll` (a copy of each per call), and a list only when a link is
    // found: the server searches a long procedure a step at a time, a thousand regions.
    let linked: Span[] | undefined;
    MARKDOWN_LINK.lastIndex = 0;
    for (let match = MARKDOWN_LINK.exec(slice); match; match = MARKDOWN_LINK.exec(slice)) {
      const target = match[1] ?? match[2];
      const start = match.index + match[0].indexOf(target);
      // The link's text is what the link is called (`[references/a.md](references/a.md)`, `[run.py](../x/run.py)`):
      // a path in it names the link's target, not a second file.
      (linked ??= []).push({ start: labelStart(slice, match.index), end: start + target.length });
      if (EXTERNAL.test(target) || SLASH_COMMAND.test(target) || VARIABLE.test(target)) continue;
      const clean = decodeTarget(target.replace(/[#?].*$/, ''));
      if (clean === '') continue;
      mentions.push({
        path: unsharedCopy(clean),
        span: { start: region.start + start, end: region.start + start + target.length },
        link: true,
        context: region,
      });
    }
    BARE_MENTION.lastIndex = 0;
    for (let match = BARE_MENTION.exec(slice); match; match = BARE_MENTION.exec(slice)) {
      const at = match.index;
      if (linked?.some((link) => at >= link.start && at < link.end)) continue;
      const found = withoutClosingEmphasis(slice, at, match[1]);
      if (found === undefined) continue;
      const start = region.start + at;
      mentions.push({
        path: unsharedCopy(found),
        span: { start, end: start + found.length },
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
  return [...slice.matchAll(SKILL_DIR_MENTION)].map((match): PathMention => {
    const start = region.start + match.index! + match[0].length - match[1].length;
    return {
      path: unsharedCopy(match[1]),
      span: { start, end: start + match[1].length },
      link: false,
      skillDir: true,
      context: region,
    };
  });
}

/**
 * A mention in emphasis (`**scripts/**`, `*references/*.md*`) without the stars that close it, which are Markdown,
 * not a wildcard; undefined when only a folder's name is left (`scripts/`, the word of a heading), which is no file.
 */
function withoutClosingEmphasis(slice: string, at: number, mention: string): string | undefined {
  let stars = 0;
  while (stars < 3 && slice[at - stars - 1] === '*') stars++;
  if (stars === 0 || !mention.endsWith('*'.repeat(stars))) return mention;
  const path = mention.slice(0, -stars);
  return path.endsWith('/') ? undefined : path;
}

/** Where the text of the link whose `]` is at `close` opens: its `[` on the same line, or `close` without one. */
function labelStart(slice: string, close: number): number {
  let depth = 0;
  for (let at = close - 1; at >= 0 && slice[at] !== '\n'; at--) {
    if (slice[at] === ']') depth++;
    else if (slice[at] === '[' && depth-- === 0) return at;
  }
  return close;
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
