// What a `/name`, `$name` or `plugin:name` written in prose is to the agent reading it. The same characters are an
// instruction to run something ("Run /deploy-site", "1. `/review` the change"), a note that another skill exists ("See
// also /deploy-site", a "Related skills" section, a table of commands), or no name at all (`GET /health`, a URL's
// path, a heading's anchor). Only the first is a call: a cycle of calls, or a call to nothing, is worth a finding; a
// cycle of "see also" notes is not.

/**
 * `runs`: the command an instruction says to run, written alone ("Run `/x`", "1. /x the folder"); `invokes`: named
 * in an instruction to run it ("use /a or /b"); `refers`: a note that it exists; `none`: not a name of anything to run.
 */
export type MentionRole = 'runs' | 'invokes' | 'refers' | 'none';

/** Sections whose mentions point elsewhere: "See also", "Related skills", "Prerequisites", "Next steps" … */
const REFERENCE_SECTION =
  /\b(?:see also|related|prerequisites?|companions?|relationships?|next steps?|alternatives?|other skills|further reading|references?|resources|credits?)\b/i;
/** Words before a mention, in its clause, that make it a note rather than an instruction. */
const REFERENCE_CUE =
  /\b(?:see(?: also)?|related|prerequisites?|requires?|e\.g\.|for example|such as|instead|rather than|alternatively|companion|compare|similar to|unlike|not|never|don't|do not|like|vs)\b/i;
/** Verbs that tell the agent to run what follows, a few words before it in its clause ("use the `/x` skill", "→ x"). */
const INVOKE_VERB =
  /(?:\u2192|\b(?:run|runs|running|use|uses|using|invoke|invokes|invoking|call|calls|calling|execute|executes|executing|trigger|triggers|launch|launches|start|starts|type|enter|load|loads|activate|dispatch|delegate to|hand off to|switch to|continue with|proceed with|then)\b)(?:\s+(?:the|a|an|skill|command|slash command|it|with|via|to))*\s*[`*_"'(]*$/i;
/** The verbs of an instruction anywhere earlier in a sentence. */
const SENTENCE_VERB = /\b(?:run|use|invoke|call|execute)\b/i;
/** What may open an instruction line before the command itself: list markers, a quote, emphasis, a backtick. */
const LINE_OPENING = /^[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d+[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?[`*_"']*$/;
/** After a command at the start of a line, a definition of it (`/x — what it does`, `/x: …`), not an instruction. */
const DEFINITION = /^[`*_"']*[ \t]*(?:[\u2014\u2013:|=]|-[ \t]|\()/;
/** An HTTP method (as written in a request line) or an address on the line: its `/name` is a route or a path. */
const HTTP_METHOD = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/;
const ADDRESS = /https?:\/\/|\blocalhost\b|\bendpoints?\b/i;
/** Where a clause ends: what comes after it is read apart from what came before. */
const CLAUSE_ENDS = ['. ', '; ', ': ', ':** ', ':* ', ':__ ', '! ', '? ', ', ', ' \u2014 ', ' \u2013 ', ' - ', '('];

/**
 * The role of a mention written at `at` (its `/` or `$`, or its plugin's name) to `end` of `text` (a region of prose
 * outside fences); `section` is the heading above it, if any.
 */
export function mentionRole(
  text: string,
  sign: '/' | '$' | '',
  at: number,
  end: number,
  section: string | undefined,
): MentionRole {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const found = text.indexOf('\n', end);
  const lineEnd = found === -1 ? text.length : found;
  const before = text.slice(lineStart, at);
  const rest = text.slice(lineStart, lineEnd);
  // A link's target or a heading's anchor (`](/status)`, `#/status`), an HTTP route or a site's path.
  if (sign === '/' && (/(?:\]\(|#)$/.test(before) || HTTP_METHOD.test(rest) || ADDRESS.test(rest))) return 'none';
  // A table of commands, a heading, a section of notes: what is there, not what to do.
  if (/^[ \t]*[|#]/.test(rest) || (section !== undefined && REFERENCE_SECTION.test(section))) return 'refers';
  // An item of a list a negation leads into ("The orchestrator does NOT:", "Never:"): what not to run.
  if (LIST_ITEM.test(before) && NEGATED_LEAD.test(leadIn(text, lineStart))) return 'refers';
  // Its clause: from the last end of one before it (on the line above, for a sentence wrapped there), and no further
  // back than a long sentence reaches.
  const carried = continues(text, lineStart, before)
    ? text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1)
    : '';
  const spoken = before === '' || /^\s*$/.test(before) ? `${carried} ${before}` : before;
  const opens = CLAUSE_ENDS.map((mark) => spoken.lastIndexOf(mark)).map((i, k) =>
    i < 0 ? 0 : i + CLAUSE_ENDS[k].length,
  );
  const clause = spoken.slice(Math.max(spoken.length - 200, ...opens));
  if (REFERENCE_CUE.test(clause) || /\b(?:see also|prerequisites?|related)\b/i.test(before)) return 'refers';
  // A verb just before it, or earlier in its sentence for a list of them ("run /a, or in Codex $a").
  const sentence = before.slice(
    Math.max(before.length - 200, before.lastIndexOf('. ') + 1, before.lastIndexOf(': ') + 1),
  );
  const direct =
    INVOKE_VERB.test(clause) ||
    (LINE_OPENING.test(before) && !continues(text, lineStart, before) && !DEFINITION.test(text.slice(end, lineEnd)));
  if (direct) return alone(rest, at - lineStart, end - lineStart) ? 'runs' : 'invokes';
  return SENTENCE_VERB.test(sentence) ? 'invokes' : 'refers';
}

const LIST_ITEM = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d+[.)])[ \t]/;
/**
 * A lead-in that ends by saying what follows is not to be done ("does NOT:", "Never:", "Do not use these:"), not one
 * with a negation inside ("Fix the cause, not the symptom:").
 */
const NEGATED_LEAD =
  /\b(?:not|never|don't|do not|does not|doesn't|must not|should not|avoid)(?:\s+(?:do|use|run|call|invoke|ever|the following|these|any of these))*[*_\s]*:[*_\s]*$/i;

/**
 * The line a list leads in from: the first line above the list's items (their wrapped lines, a blank line between
 * them or after the lead-in) that is none.
 */
function leadIn(text: string, lineStart: number): string {
  let start = lineStart;
  let blank = false;
  for (let lines = 0; start > 0 && lines < 50; lines++) {
    const above = text.lastIndexOf('\n', start - 2) + 1;
    const line = text.slice(above, start - 1);
    if (line.trim() === '') {
      if (blank) return '';
      blank = true;
    } else if (LIST_ITEM.test(line) || /^[ \t]+\S/.test(line)) blank = false;
    else return line;
    start = above;
  }
  return '';
}

/** A line that carries on the sentence of the line above it (not a list item): it opens no instruction. */
function continues(text: string, lineStart: number, before: string): boolean {
  if (lineStart === 0 || /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d+[.)])[ \t]/.test(before)) return false;
  const above = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);
  return above.trim() !== '' && !/[.:!?]\s*$/.test(above);
}

/**
 * The command is written on its own: in prose, or as the whole of a code span or a quotation (`` `/x` ``, `` `/x arg`
 * ``), not inside code (`` `Get.toNamed('/path')` ``) or a quoted phrase a user types.
 */
function alone(line: string, at: number, end: number): boolean {
  const ticks = (line.slice(0, at).match(/`/g) ?? []).length;
  if (ticks % 2 === 1) return line[at - 1] === '`' && /^(?:[ \t][^`]*)?`/.test(line.slice(end));
  return !/["'\u201c]$/.test(line.slice(0, at));
}
