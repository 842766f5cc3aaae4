import type { PathMention } from '../../parse/markdown/pathMentions';
import type { TextLike } from '../../parse/text/textLike';

// Whether a path the prose names is meant to exist in the skill. A missing file is a finding only when the skill
// tells the agent to use it; a placeholder, an example of what a skill could hold, a file the agent is told to make,
// a folder the prose says is empty and a file the prose places in the project the skill works on are not. And whether
// the prose ties a path to this skill ("this skill's `scripts/`"), which a bare path alone does not do.

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

/**
 * A segment that is a placeholder and nothing else but an extension: `{baseDir}` (a root the reader puts in, the
 * skill's folder or another), `{name}.md`, `{script-name}.{ext}`. A placeholder beside fixed text (`x-{platform}.md`)
 * is a template, whose variants must exist (`pathPatterns.ts`).
 */
const PLACEHOLDER_SEGMENT = /(?:^|\/)\{[^{},/]*\}(?:\.(?:\w+|\{[^{},/]*\}))*(?:\/|$)/;
/** The names programmers give any file: `scripts/foo.py`, `references/bar.md`. */
const METASYNTACTIC = /(?:^|\/)(?:foo|bar|baz|qux|quux)(?:\.\w+)?$/i;

/**
 * A path that stands for one the author has not written: `url`, `...`, `<file>`, `{{name}}`, `$DIR/x`, `path/to/x`,
 * `{baseDir}/x.md`, `{name}.md`, `foo.py`.
 */
export function isPlaceholderPath(target: string): boolean {
  if (!/[A-Za-z0-9]/.test(target)) return true;
  if (/[<>]|\{\{|\$/.test(target)) return true;
  if (/(?:^|\/)path\/to(?:\/|$)/i.test(target)) return true;
  if (PLACEHOLDER_SEGMENT.test(target) || METASYNTACTIC.test(target)) return true;
  return PLACEHOLDER_WORDS.has(target.toLowerCase());
}

/** Words that say what follows is an example, not a file of this skill. */
const EXAMPLE_WORDS =
  /\b(?:for example|for instance|e\.g\.|an example|examples?[*_]*:|such as|illustrat\w*|hypothetical\w*|imagine|suppose)/i;
/** A label that opens examples of doing it right or wrong, on a line of its own: "**Valid:**", "❌ Bad:". */
const EXAMPLE_LABEL =
  /^[^\w\n]*(?:valid|invalid|good|bad|correct|incorrect|wrong|right|do|don['\u2019]t|avoid)[*_]*:[*_\s]*$/im;
/**
 * A verb that tells the agent to make a file, followed by that file or by a list of files it ends: "Save this as",
 * "save", "create", "initialize", "write the report to", "is written to", "store it in", "generates", "creates
 * `Dockerfile` +". Matched at the end of the text before a mention, so the mention is what is made ("creates a report
 * from `x`" makes the report, not `x`).
 */
const MAKE_THE_FILE =
  /\b(?:creat(?:e|es|ed|ing)|initiali[sz](?:e|es|ed|ing)|sav(?:e|es|ing)|writ(?:e|es|ing)|(?:sav|stor)(?:e|es|ed|ing)(?: [\w-]+){0,3} (?:as|to|in|into|under)|(?:writ(?:e|es|ing|ten)|wrote)(?: [\w-]+){0,3} (?:to|as|into)|generat(?:e|es|ed|ing)|produc(?:e|es|ing)|outputs?(?: [\w-]+){0,2} to|new file)(?: (?:a|an|the|new|file|files|named|called|at))*(?:[\s:"'(*]*`[^`\n]*`\s*(?:\+|,|and|&))*[\s:`"'(*]*$/i;
/**
 * "Adds" with the file as its object: a file added is a new one ("`--run-type container` (adds `Dockerfile` +
 * `scripts/run.py`)"). Not when the sentence goes on to where it is added (`ADDED_TO`): "add `scripts/check.py` to
 * your CI" names a file that must exist.
 */
const ADD_THE_FILE =
  /\badd(?:s|ed|ing)?(?: (?:a|an|the|new|file|files|named|called))*(?:[\s:"'(*]*`[^`\n]*`\s*(?:\+|,|and|&))*[\s:`"'(*]*$/i;
const ADDED_TO = /^[`*"']*\s+(?:to|into|in|under|as)\b/i;
/**
 * A verb that puts new files into a folder or under a pattern: "add validation scripts to `scripts/checks/`",
 * "implement probes in `scripts/probes/*.py`". Into one file it changes the file, which must exist.
 */
const MAKE_INTO = /\b(?:add|put|place|implement)(?:s|ed|ing)?(?: [\w-]+){1,3} (?:to|in|into|under)[\s`"'(*]*$/i;
/**
 * A file the prose gives to someone else, just before naming it: "the project's", "the user's", "your", "their" (up
 * to two words between: "the repo's own CI").
 */
const OWNED_ELSEWHERE =
  /(?:\b(?:user|project|repo|repository|codebase|app|application|workspace|team|target|caller|customer|client)['\u2019]s|\b(?:your|their))(?: [\w'\u2019-]+){0,2}[\s`"'(*]*$/i;
/**
 * A sentence that puts what it names in the project the skill works on: "in the target repo", "if the repository has",
 * "from the user's workspace", "the repo already has".
 */
const IN_THE_PROJECT =
  /\b(?:in|from|inside|under|within|of|if) (?:the|your|their|a|that|this|each) (?:user['\u2019]s |target |host |current |consuming |caller['\u2019]s )?(?:project|repo|repository|codebase|workspace|working (?:directory|tree)|app|application|monorepo)\b|\b(?:project|repo|repository|codebase|workspace|monorepo) (?:already )?(?:has|contains|includes)\b/i;
/**
 * Where a sentence puts a file outside this skill, in the words before or just after it: another plugin or the
 * plugin around the skill ("in the lint plugin", "available in this plugin", "plugin source"), a root above the skill
 * ("at the repository root"), another skill ("in the other skill", "in the `review` skill").
 */
const ELSEWHERE =
  /\b(?:in|from|inside|under|within|of|at) (?:the|this|that|its|our|a|another) (?:[\w`.:-]+ )?plugin\b|\bplugin (?:root|source|folder|directory|level)\b|\b(?:repository|repo|project|workspace|monorepo) root\b|\broot of the (?:repository|repo|project|workspace|monorepo|plugin)\b|\b(?:other|another|sibling|neighbou?ring|parent|companion) skill\b|\b(?:in|from|of) the (?!(?:same|current|present|skill)\b)[\w`.:-]+ skill\b|\b(?:edit|maintain|chang|updat|contribut)(?:e|es|ed|s|ing)?(?: to)? (?:this|the|a) skills? (?:pack|collection|library|catalog(?:ue)?|repo|repository|monorepo)\b|\bskill edits?\b/i;
/**
 * An argument of the command a mention is in that names a path into a `skills/` or `plugins/` folder
 * (`scripts/sync.py --skill skills/flow/x`): the command runs above the skill, where the repository's folders are, so
 * the mention is the repository's file.
 */
const REPOSITORY_ARGUMENT = /\s(?:--?[\w-]+[=\s]+)?(?:\.\/)?(?:skills|plugins)\/[\w.-]/;
/** The owner of what the sentence goes on to name, just before it: "the lint plugin's", "the `review` skill's". */
const OWNED_BY_ANOTHER =
  /(?:\bplugin|(?<![\w`.:-])(?!(?:this|the|a|its|our|own|current|same|each|every|your)\b)[\w`.:-]+ skill)['\u2019]s(?: [\w'\u2019-]+){0,2}[\s`"'(*:]*$/i;
/** Just after a mention: "in `other-skill`", a name that is no path (a skill's, a plugin's), closing the clause. */
const IN_NAMED_PLACE =
  /^[`*"')\s]*in (?:the )?`[\w.:]+-[\w.:-]+`(?: (?:skill|plugin))?\s*(?:$|[,)\u2014\u2013]|for\b|to\b)/i;
/** Soon after a mention, words that make it optional: "if available", "(if present)", "<args> when it exists". */
const IF_THERE =
  /^[^.;\n]{0,40}?\b(?:if|when|where)\s+(?:(?:it|one|they|that|this|the file)\s+(?:is|are)\s+there\b|(?:(?:it|one|they|that|this|the file)\s+)?(?:is\s+|are\s+)?(?:available|present|exists?|found)\b)/i;
/** A sentence about whether the file is there: "If `x` does not exist", "No `x` present", "unless `x` exists". */
const ASKS_WHETHER_BEFORE = /\b(?:if|unless|whether|no)\s+[`*"']*$/i;
const ASKS_WHETHER_AFTER =
  /^[`*"']*\s+(?:(?:does(?:n['\u2019]t| not)|is(?:n['\u2019]t| not)|are(?:n['\u2019]t| not))\s+(?:exist|present|there|available|found)|(?:is\s+|are\s+)?(?:missing|absent|present|exists?|found)\b)/i;
/** Just after a mention, words that say it is absent, closing a clause or a table cell (a gap check, not a use). */
const SAID_ABSENT = /^\/?[`*"']*\s+(?:is\s+|are\s+)?(?:absent|missing|not present)\s*(?:$|[|,;.)\u2014\u2013]|from\b)/i;
/**
 * The end of a paragraph that opens a list of files to make: "Depending on the request, produce one or more of:",
 * "It creates the following files:".
 */
const MAKES_THE_LIST =
  /\b(?:produc|creat|generat|writ|output|emit|deliver)\w*(?: (?:one|or|more|any|some|all|each|of|the|following|these|files?|outputs?|artifacts?|deliverables?|at|least))*[*_\s]*:[*_\s]*$/i;
/** In an item of such a list, words before the mention that make it a tool used, not a file made ("created via"). */
const USED_IN_ITEM = /\b(?:via|using|with|by|from|runs?|running|execut\w*|calls?|see|read)\b/i;
/** A section whose items are files to make: "## Outputs", "## Deliverables". */
const OUTPUTS_HEADING =
  /^\s{0,3}#{1,6}\s+[*_]*(?:outputs|deliverables|output files|files to (?:produce|create))[*_:\s]*$/i;
/** A mention that opens a list item or a table row: what the item or row is about. */
const OPENS_ITEM = /^\s*(?:[-*+]|\d+[.)]|\|)\s*[`*_"']*$/;
/** How far above a mention its section's heading is looked for. */
const SECTION_REACH = 2000;
/**
 * Words that tie a path to this skill: "this skill's `scripts/`", "relative to this skill", "in this skill's folder",
 * "bundled with this skill", "the skill directory". "The skill" alone is not enough: a skill that writes skills calls
 * the one it writes that.
 */
const TIED_TO_SKILL =
  /\b(?:this|the same|the current) skill(?:['\u2019]s\b| (?:folder|directory|dir|root|package|bundle)\b)|\brelative to (?:this|the) skill\b|\b(?:in|from|under|inside|within|with|beside|alongside|ships? with|bundled (?:with|in)) (?:this|the same|the current) skill\b|\bthis skill (?:ships|bundles|includes|provides|contains|holds|has)\b|\bthe skill(?:['\u2019]s)? (?:own )?(?:folder|directory|root)\b/i;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
const BACKTICK = 0x60;
const SLASH = 0x2f;
/** The rest of a file name with spaces after its first word: up to three more words, the last with an extension. */
const SPACED_NAME_REST = /^(?: [^\s`]+){0,2} [^\s`]+\.[A-Za-z0-9]{1,8}(?=[\s,;:)]|$)/;
const HEADING = /^\s{0,3}#/;

/**
 * The prose that introduces a mention in a list (an item, or an indented
 * line): the paragraph that opens the list ("For example, a skill might
 * hold:"), and its own line up to it, not what sibling items say. Undefined
 * for a mention in a paragraph.
 */
function listIntroduction(text: TextLike, mention: PathMention): { opening: string; item: string } | undefined {
  const lines = text.slice(mention.context.start, mention.span.start).split('\n');
  const item = lines.pop() ?? '';
  if (!LIST_ITEM.test(item) && !/^\s/.test(item)) return undefined;
  const blank = (line: string) => line.trim() === '';
  let index = lines.length - 1;
  // Up over the list (its items, their indented lines, blank lines between) to the paragraph that opens it.
  while (index >= 0 && (blank(lines[index]) || LIST_ITEM.test(lines[index]) || /^\s/.test(lines[index]))) index--;
  const paragraph: string[] = [];
  for (; index >= 0 && !blank(lines[index]) && !HEADING.test(lines[index]); index--) paragraph.unshift(lines[index]);
  return { opening: paragraph.join('\n'), item };
}

/** The heading of the section a mention is in, when it is near enough above it in the mention's region. */
function sectionHeading(text: TextLike, mention: PathMention): string | undefined {
  const from = Math.max(mention.context.start, mention.span.start - SECTION_REACH);
  const lines = text.slice(from, mention.span.start).split('\n');
  for (let index = lines.length - 2; index >= 0; index--) if (HEADING.test(lines[index])) return lines[index];
  return undefined;
}

/**
 * Whether a mention is a file to make because of where it is listed: an item of a list whose opening paragraph says
 * the files are made ("produce one or more of:"), or the first thing of an item or a table row in a section of
 * outputs ("## Outputs"); not when its item says it is used to make something ("created via `scripts/pack.py`").
 */
function listedToMake(
  text: TextLike,
  mention: PathMention,
  introduction: { opening: string; item: string } | undefined,
) {
  if (introduction && MAKES_THE_LIST.test(introduction.opening)) return !USED_IN_ITEM.test(introduction.item);
  const line = text.slice(
    Math.max(mention.context.start, text.lastIndexOf('\n', mention.span.start - 1) + 1),
    mention.span.start,
  );
  return OPENS_ITEM.test(line) && OUTPUTS_HEADING.test(sectionHeading(text, mention) ?? '');
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

/** Whether the mention is inside a code span: an odd number of backticks before it on its line. */
function inCodeSpan(text: TextLike, mention: PathMention): boolean {
  const line = Math.max(mention.context.start, text.lastIndexOf('\n', mention.span.start - 1) + 1);
  let ticks = 0;
  for (let at = line; at < mention.span.start; at++) if (text.charCodeAt(at) === BACKTICK) ticks++;
  return ticks % 2 === 1;
}

/**
 * Words joined by slashes in running prose, not a file: "scripts/tests run", "old assets/logos", "any
 * scripts/references/assets". A file in prose has an extension (`see references/guide.md`); a folder is written with
 * its slash (`references/`), a name without either in code (`` `scripts/run` ``).
 */
function proseWords(text: TextLike, mention: PathMention): boolean {
  if (mention.link || mention.path.endsWith('/') || /[{}*?]/.test(mention.path)) return false;
  if (/\.[^./]+$/.test(mention.path.slice(mention.path.lastIndexOf('/') + 1))) return false;
  // After a folder variable (`${CLAUDE_SKILL_DIR}/scripts/run`) it is a path, whatever the prose around it; so is a
  // folder written with its slash (the mention stops before it), and the first word of a name with spaces, which the
  // words after it end with an extension (`references/My Notes.md`).
  if (text.charCodeAt(mention.span.start - 1) === SLASH || text.charCodeAt(mention.span.end) === SLASH) return false;
  if (SPACED_NAME_REST.test(text.slice(mention.span.end, mention.span.end + 80))) return false;
  return !inCodeSpan(text, mention);
}

/** The sentence a mention is in, from the mention to its end. */
function sentenceAfter(text: TextLike, mention: PathMention): string {
  const after = text.slice(mention.span.end, Math.min(mention.context.end, mention.span.end + 300));
  const end = after.search(/[.!?](?:\s|$)|\n\n/);
  return end === -1 ? after : after.slice(0, end);
}

/**
 * Why a path the prose names need not exist, or undefined when it must: it is a placeholder, an example, a file the
 * agent is told to make, a folder the prose says is empty, a file the prose says may be missing ("if present"), words
 * with slashes in running prose, or (named in prose) a file of the project the skill works on or of a place the
 * sentence puts outside the skill (a plugin, a root above it, another skill).
 */
export function notMeantToExist(text: TextLike | undefined, mention: PathMention): string | undefined {
  if (isPlaceholderPath(mention.path)) return 'placeholder';
  if (!text) return undefined;
  const sentence = sentenceBefore(text, mention);
  if (MAKE_THE_FILE.test(sentence)) return 'to make';
  if (ADD_THE_FILE.test(sentence) && !ADDED_TO.test(sentenceAfter(text, mention))) return 'to make';
  const manyFiles = /[*?{]/.test(mention.path) || text.charCodeAt(mention.span.end) === SLASH;
  if (manyFiles && MAKE_INTO.test(sentence)) return 'to make';
  const introduction = listIntroduction(text, mention);
  if (listedToMake(text, mention, introduction)) return 'to make';
  const listed = introduction ? `${introduction.opening}\n${introduction.item}` : '';
  if (EXAMPLE_WORDS.test(sentence) || EXAMPLE_WORDS.test(listed) || EXAMPLE_LABEL.test(listed)) return 'example';
  const after = sentenceAfter(text, mention);
  if (mention.path.endsWith('/') && /\bempty\b/i.test(sentence + after)) return 'empty folder';
  if (
    IF_THERE.test(after) ||
    SAID_ABSENT.test(after) ||
    (ASKS_WHETHER_BEFORE.test(sentence) && ASKS_WHETHER_AFTER.test(after))
  )
    return 'optional';
  // A link is written relative to SKILL.md, so it is the skill's; prose may name the project's files and others'.
  if (mention.link) return undefined;
  if (proseWords(text, mention)) return 'prose';
  if (OWNED_ELSEWHERE.test(sentence) || IN_THE_PROJECT.test(sentence)) return 'in the project';
  const clause = /^[^;:\n]{0,100}/.exec(after)![0];
  if (
    ELSEWHERE.test(sentence) ||
    OWNED_BY_ANOTHER.test(sentence) ||
    ELSEWHERE.test(clause) ||
    IN_NAMED_PLACE.test(clause) ||
    REPOSITORY_ARGUMENT.test(codeSpanAfter(text, mention))
  )
    return 'elsewhere';
  return undefined;
}

/** The rest of the code span a mention is in, after it (the command's arguments); empty outside one. */
function codeSpanAfter(text: TextLike, mention: PathMention): string {
  if (!inCodeSpan(text, mention)) return '';
  const rest = text.slice(mention.span.end, Math.min(mention.context.end, mention.span.end + 300));
  const end = rest.search(/[`\n]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * Whether the prose ties a mention to this skill: through `${CLAUDE_SKILL_DIR}`, or in words of its sentence ("this
 * skill's `scripts/`", "relative to this skill", "bundled with this skill").
 */
export function tiedToSkill(text: TextLike | undefined, mention: PathMention): boolean {
  if (mention.skillDir) return true;
  if (!text) return false;
  return TIED_TO_SKILL.test(`${sentenceBefore(text, mention)}${mention.path}${sentenceAfter(text, mention)}`);
}
