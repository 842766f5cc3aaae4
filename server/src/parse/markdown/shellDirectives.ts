import type { Span } from '../text/lineIndex';
import { fenceLanguage, type Fence } from './skillFile';
import type { TextLike } from '../text/textLike';

/**
 * A command Claude Code runs when the skill is invoked, putting what it prints in its place before the model reads the
 * skill (its "dynamic context"): `` !`command` `` where the `!` starts a line or follows white space, or a block fenced
 * with ```` ```! ````, run as a shell script. Claude Code finds them in SKILL.md's text as it is, not as Markdown: one
 * in a code span, or in a block that shows a skill's source, runs too, though a reader takes it for an example
 * (`shown`).
 */
export interface ShellDirective {
  /** The whole directive: from the `!` to the closing backtick, or the block from its first fence to its last. */
  span: Span;
  /** The command, or the block's script. */
  command: Span;
  /** Its text. */
  script: string;
  block: boolean;
  /** Where it reads as an example of the syntax: in a code span, in a block of a skill's source, a block in a block. */
  shown: boolean;
}

/** A `!` block's opening fence, alone on its line, and its closing one. */
const BLOCK_OPEN = /^ {0,3}```![ \t]*$/gm;
const BLOCK_CLOSE = /^ {0,3}```[ \t]*$/m;
/** An inline directive: `!` at a line's start or after white space, a backtick, a command on one line, a backtick. */
const INLINE = /(?<=^|\s)!`([^`\n]+)`/gm;

/** The directives in SKILL.md's `body`, whose Markdown fenced blocks are `fences`, in text order. */
export function shellDirectives(source: TextLike, body: Span, fences: Fence[]): ShellDirective[] {
  // Most skills have none: two searches of the body (the editor's pieces, not copied into one string), and no more.
  const holds = (search: string) => {
    const found = source.indexOf(search, body.start);
    return found !== -1 && found < body.end;
  };
  if (!holds('!`') && !holds('```!')) return [];
  const text = source.slice(body.start, body.end);
  const at = (offset: number) => body.start + offset;
  const fenceAt = (offset: number) =>
    fences.find((fence) => fence.content.start <= offset && offset < fence.content.end);
  const found: ShellDirective[] = [];
  for (const open of text.matchAll(BLOCK_OPEN)) {
    const scriptStart = Math.min(text.length, open.index + open[0].length + 1);
    const close = BLOCK_CLOSE.exec(text.slice(scriptStart));
    const scriptEnd = close ? scriptStart + close.index : text.length;
    const end = close ? scriptEnd + close[0].length : text.length;
    const last = Math.max(scriptStart, scriptEnd - 1);
    found.push({
      span: { start: at(open.index), end: at(end) },
      command: { start: at(scriptStart), end: at(last) },
      script: text.slice(scriptStart, last),
      block: true,
      // A block's own fence opens it; one inside another fence's content shows how to write one.
      shown: fenceAt(at(open.index)) !== undefined,
    });
  }
  const blocks = [...found];
  for (const match of text.matchAll(INLINE)) {
    const start = at(match.index);
    // A `!` block's script is run whole, by the shell.
    if (blocks.some((block) => block.command.start <= start && start < block.command.end)) continue;
    found.push({
      span: { start, end: start + match[0].length },
      command: { start: start + 2, end: start + match[0].length - 1 },
      script: match[1],
      block: false,
      shown: showsSource(fenceAt(start)) || inCodeSpan(text, match.index),
    });
  }
  return found.sort((a, b) => a.span.start - b.span.start);
}

/**
 * The languages of a fenced block that shows a skill's source (its Markdown, its frontmatter): a directive there is an
 * example of one. In any other block it is meant: skills fence a command (```` ``` ```` then `` !`git status` ``) so
 * that what it prints is shown as code.
 */
const SOURCE_LANGUAGES = new Set(['markdown', 'md', 'mdx', 'yaml', 'yml']);

function showsSource(fence: Fence | undefined): boolean {
  return fence !== undefined && SOURCE_LANGUAGES.has(fenceLanguage(fence));
}

/**
 * Whether `offset` of `text` is inside a code span of two or more backticks on its line (CommonMark: a run of
 * backticks opens a span that the next run of the same length closes). A directive's own backticks are a run of one,
 * so only a longer span can hold one: `` !`command` `` shows the syntax.
 */
function inCodeSpan(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  const runs = [...line.matchAll(/`+/g)].map((run) => ({ start: run.index, end: run.index + run[0].length }));
  const at = offset - lineStart;
  for (let index = 0; index < runs.length; index++) {
    const length = runs[index].end - runs[index].start;
    const closing = runs.findIndex((run, later) => later > index && run.end - run.start === length);
    if (closing === -1) continue;
    if (length > 1 && runs[index].end <= at && at < runs[closing].start) return true;
    index = closing;
  }
  return false;
}
