import type { PathMention } from '../../parse/markdown/pathMentions';
import type { TextLike } from '../../parse/text/textLike';

// Whether a path the prose names is meant to exist in the skill. A missing file is a finding only when the skill
// tells the agent to use it; a placeholder, an example of what a skill could hold, a file the agent is told to make,
// a folder the prose says is empty and a file the prose places in the project the skill works on are not.

/** Generic words authors put where a link target goes: `[text](url)`. */
const PLACEHOLDER_WORDS = new Set([
  'url',
  'uri',
  'link',
  'href',
  'path',
  'file',
  'filename',
  'filepath',
  'file-path',
  'target',
  'destination',
  'location',
  'here',
  'todo',
]);

/** A path that stands for one the author has not written: `url`, `...`, `<file>`, `{{name}}`, `$DIR/x`, `path/to/x`. */
export function isPlaceholderPath(target: string): boolean {
  if (!/[A-Za-z0-9]/.test(target)) return true;
  if (/[<>]|\{\{|\$/.test(target)) return true;
  if (/(?:^|\/)path\/to(?:\/|$)/i.test(target)) return true;
  return PLACEHOLDER_WORDS.has(target.toLowerCase());
}

/** Words that say what follows is an example, not a file of this skill. */
const EXAMPLE_WORDS =
  /\b(?:for example|for instance|e\.g\.|an example|examples?:|such as|illustrat\w*|hypothetical\w*|imagine|suppose)/i;
/**
 * A verb that tells the agent to make a file, followed by that file: "Save
 * this as", "create", "write the report to", "generates". Matched at the end
 * of the text before a mention, so the mention is what is made ("creates a
 * report from `x`" makes the report, not `x`).
 */
const MAKE_THE_FILE =
  /\b(?:creat(?:e|es|ed|ing)|sav(?:e|es|ed|ing)(?: [\w-]+){0,3} (?:as|to|in|into)|writ(?:e|es|ing)(?: [\w-]+){0,3} (?:to|as|into)|generat(?:e|es|ed|ing)|produc(?:e|es|ing)|outputs?(?: [\w-]+){0,2} to|new file)(?: (?:a|an|the|new|file|files|named|called|at))*[\s:`"'(*]*$/i;
/**
 * A file the prose gives to someone else, just before naming it: "the project's", "the user's", "your", "their" (up
 * to two words between: "the repo's own CI").
 */
const OWNED_ELSEWHERE =
  /(?:\b(?:user|project|repo|repository|codebase|app|application|workspace|team|target|caller|customer|client)['\u2019]s|\b(?:your|their))(?: [\w'\u2019-]+){0,2}[\s`"'(*]*$/i;
/**
 * A sentence that puts what it names in the project the skill works on: "in the target repo", "if the repository has",
 * "from the user's workspace".
 */
const IN_THE_PROJECT =
  /\b(?:in|from|inside|under|within|of|if) (?:the|your|their|a|that|this|each) (?:user['\u2019]s |target |host |current |consuming |caller['\u2019]s )?(?:project|repo|repository|codebase|workspace|working (?:directory|tree)|app|application|monorepo)\b/i;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
const HEADING = /^\s{0,3}#/;

/**
 * The prose that introduces a mention in a list (an item, or an indented
 * line): its line up to it, and the paragraph that opens the list ("For
 * example, a skill might hold:"), not what sibling items say. Undefined for
 * a mention in a paragraph.
 */
function listIntroduction(text: TextLike, mention: PathMention): string | undefined {
  const lines = text.slice(mention.context.start, mention.span.start).split('\n');
  const own = lines.pop() ?? '';
  if (!LIST_ITEM.test(own) && !/^\s/.test(own)) return undefined;
  const blank = (line: string) => line.trim() === '';
  let index = lines.length - 1;
  // Up over the list (its items, their indented lines, blank lines between) to the paragraph that opens it.
  while (index >= 0 && (blank(lines[index]) || LIST_ITEM.test(lines[index]) || /^\s/.test(lines[index]))) index--;
  const paragraph: string[] = [];
  for (; index >= 0 && !blank(lines[index]) && !HEADING.test(lines[index]); index--) paragraph.unshift(lines[index]);
  return [...paragraph, own].join('\n');
}

/** The sentence a mention is in, up to the mention. */
function sentenceBefore(text: TextLike, mention: PathMention): string {
  const from = Math.max(mention.context.start, mention.span.start - 300);
  const before = text.slice(from, mention.span.start);
  const boundary = Math.max(
    before.lastIndexOf('. '),
    before.lastIndexOf('\n\n'),
    before.lastIndexOf('! '),
    before.lastIndexOf('? '),
  );
  return before.slice(boundary + 1);
}

/** The sentence a mention is in, from the mention to its end. */
function sentenceAfter(text: TextLike, mention: PathMention): string {
  const after = text.slice(mention.span.end, Math.min(mention.context.end, mention.span.end + 300));
  const end = after.search(/[.!?](?:\s|$)|\n\n/);
  return end === -1 ? after : after.slice(0, end);
}

/**
 * Why a path the prose names need not exist, or undefined when it must: it is
 * a placeholder, an example, a file the agent is told to make, a folder the
 * prose says is empty, or (named in prose) a file of the project the skill
 * works on.
 */
export function notMeantToExist(text: TextLike | undefined, mention: PathMention): string | undefined {
  if (isPlaceholderPath(mention.path)) return 'placeholder';
  if (!text) return undefined;
  const sentence = sentenceBefore(text, mention);
  if (MAKE_THE_FILE.test(sentence)) return 'to make';
  if (EXAMPLE_WORDS.test(sentence) || EXAMPLE_WORDS.test(listIntroduction(text, mention) ?? '')) return 'example';
  if (mention.path.endsWith('/') && /\bempty\b/i.test(sentence + sentenceAfter(text, mention))) return 'empty folder';
  // A link is written relative to SKILL.md, so it is the skill's; prose may name the project's files.
  if (!mention.link && (OWNED_ELSEWHERE.test(sentence) || IN_THE_PROJECT.test(sentence))) return 'in the project';
  return undefined;
}
