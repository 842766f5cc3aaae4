import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { firstNotBefore } from '../../parse/text/bisect';
import type { Span } from '../../parse/text/lineIndex';
import { shellDirectives } from '../../parse/markdown/shellDirectives';
import { POSIX_SHELLS, SHELL_FENCE_LANGUAGES, shebangProgram } from '../../platforms/shells';
import { fenceLanguage, type Fence, type SkillFileSyntax } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import { defineRule } from '../../checks/engine/rule';
import { fixOf, textChange, type Fix, type FixSource } from '../../checks/engine/fix';

// Claude Code replaces `$0`, `$1`… in a skill's body with the arguments it is invoked with, wherever they stand, code
// included; a user typing after `/name`, or a model passing arguments, is enough. Written for something else (an awk
// field, a shell script's parameter, a regex capture, a spreadsheet's absolute row), the text the model reads is then
// wrong. Only places where `$N` surely means something else are reported: a `$1` in a plain command may be the skill's
// argument, put there on purpose.

export const placeholderCollision = defineRule({
  code: 'placeholder_collision',
  category: 'client',
  severity: 'warning',
  summary:
    '`$1` written for awk, a shell script, a regex or a spreadsheet, which Claude Code replaces with an argument.',
  stability: 'stable',
  formats: 'all',
  fixable: 'unsafe',
  fix: escapeDollarsFix,
});

/** What `$N` means in a region of the body. */
type Meaning = 'awk' | 'shell' | 'capture' | 'replacement' | 'spreadsheet';

interface Region extends Span {
  meaning: Meaning;
}

const MEANINGS: Record<Meaning, string> = {
  awk: 'a field of the line, in an awk program',
  shell: "the script's own parameter, in a shell script",
  capture: 'what a regular expression captured',
  replacement: 'a captured group, in a replacement',
  spreadsheet: 'an absolute row, in a spreadsheet reference',
};

/** `$N` as Claude Code replaces it (not escaped). */
const POSITIONAL = /(?<!\\)\$\d+/g;
/** A command running awk, its name a word of its own. */
const AWK = /(?<![\w./-])[gmn]?awk(?=[ \t])/g;
/** A shell given its script with `-c`: `bash -c '…'`, `sh -ec '…'`; the match ends at the opening quote. */
const SHELL_C = /(?<![\w./-])(?:ba|da|k|z)?sh[ \t]+-[a-z]*c[ \t]+'/g;
/** A call taking a replacement string (JavaScript, Java): the rest of its line holds it, where `$1` is a group. */
const REPLACE_CALL = /\.replace(?:All|First)?\(/g;
/**
 * A spreadsheet reference with an absolute row (`$B$6`, `Sheet1!B$6`, `A1:C$9`): an absolute column before it, or a
 * formula's punctuation. The row is the capture. Columns of one or two letters: `$PWD$1` is the shell's.
 */
const CELL = /(?:(?<![\w$])\$|(?<=[!:=(,]))[A-Z]{1,2}(\$\d+)(?!\w)/g;
/** Languages, named by a fence, whose code gives `$N` a meaning of its own. */
const LANGUAGES: Record<string, Meaning> = {
  awk: 'awk',
  gawk: 'awk',
  mawk: 'awk',
  nawk: 'awk',
  perl: 'capture',
  pl: 'capture',
  ruby: 'capture',
  rb: 'capture',
};
const NEWLINE = 0x0a;
/** How far after `.replace(` its replacement is looked for: the rest of its line, within a line's length. */
const REPLACEMENT_REACH = 240;
/** How far a quoted program or script is read for its closing quote. */
const MAX_QUOTED = 8 * 1024;

/** The `$N` in SKILL.md's body written for something else: one finding per region, at its first `$N`. */
export function placeholderCollisions(file: string, syntax: SkillFileSyntax): Diagnostic[] {
  const { source, body, fences } = syntax;
  const text = source.slice(body.start, body.end);
  if (!/(?<!\\)\$\d/.test(text)) return [];
  // A command run at invocation is arguments_in_command's, which says how to keep a `$1` meant for awk or the shell.
  const commands = shellDirectives(source, body, fences).map((directive) => directive.command);
  const inCommand = (at: number) => {
    const after = firstNotBefore(commands.length, (index) => commands[index].start <= at);
    return after > 0 && at < commands[after - 1].end;
  };
  const found = new Map<string, { meaning: Meaning; at: Span[] }>();
  const noted = new Set<number>();
  const note = (key: string, meaning: Meaning, at: Span) => {
    if (noted.has(at.start) || inCommand(at.start)) return;
    noted.add(at.start);
    const seen = found.get(key);
    if (seen) seen.at.push(at);
    else found.set(key, { meaning, at: [at] });
  };
  // What each block is written in: its label, and the interpreter its first line names (read once per block).
  const blocks = fences.map((fence) => ({
    fence,
    language: fenceLanguage(fence),
    interpreter: interpreterOf(source, fence),
  }));
  // The regions by start, and those open at each `$N` (which come in text order): a few at a time.
  const regions = [...fenceRegions(blocks), ...quotedRegions(text, body.start)].sort((a, b) => a.start - b.start);
  let next = 0;
  let open: Region[] = [];
  for (const match of text.matchAll(POSITIONAL)) {
    const start = body.start + match.index!;
    while (next < regions.length && regions[next].start <= start) open.push(regions[next++]);
    open = open.filter((region) => start < region.end);
    // The innermost: a `bash -c '…'` script in an awk block is the script's.
    const holding = open.reduce<Region | undefined>(
      (inner, region) => (!inner || region.end - region.start < inner.end - inner.start ? region : inner),
      undefined,
    );
    if (holding) note(`${holding.start}:${holding.end}`, holding.meaning, { start, end: start + match[0].length });
  }
  const shellFences = blocks
    .filter((block) => SHELL_FENCE_LANGUAGES.has(block.language) || block.interpreter === 'shell')
    .map((block) => block.fence);
  // One finding per line of references: lines are counted as the matches go.
  let line = 0;
  let counted = 0;
  for (const match of text.matchAll(CELL)) {
    const start = body.start + match.index! + match[0].length - match[1].length;
    if (shellFences.some((fence) => fence.content.start <= start && start < fence.content.end)) continue;
    for (; counted < match.index!; counted++) if (text.charCodeAt(counted) === NEWLINE) line++;
    note(`line ${line}`, 'spreadsheet', { start, end: start + match[1].length });
  }
  return [...found.values()].map(({ meaning, at }) => said(file, source.slice(at[0].start, at[0].end), meaning, at));
}

function said(file: string, written: string, meaning: Meaning, at: Span[]): Diagnostic {
  const index = Number(written.slice(1));
  const which = index < ORDINALS.length ? `the ${ORDINALS[index]} of them` : `the one at position ${index + 1}`;
  const more = at.length > 1 ? ` (and ${at.length - 1} more \`$N\` here)` : '';
  return diagnostic(
    placeholderCollision,
    file,
    at[0],
    `When the skill is invoked with arguments (typed after \`/name\`, or passed by the model), Claude Code replaces \`${written}\` with ${which}, in code too. Here it is ${MEANINGS[meaning]}: the model would read the argument in its place${more}. Write \`\\${written}\` (Claude Code keeps it as \`${written}\`; other clients show the backslash), or move the code into a file under \`scripts/\` or \`references/\`, which Claude Code does not rewrite.`,
    { escapes: at.map((span) => span.start) },
  );
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** A fenced block, its label and what the interpreter its first line names makes of `$N`. */
interface Block {
  fence: Fence;
  language: string;
  interpreter: Meaning | undefined;
}

/** The fenced blocks whose language, or whose script's first line, gives `$N` its own meaning. */
function fenceRegions(blocks: Block[]): Region[] {
  return blocks.flatMap(({ fence, language, interpreter }) => {
    const meaning = LANGUAGES[language] ?? interpreter;
    return meaning ? [{ ...fence.content, meaning }] : [];
  });
}

/** What the interpreter a block's first line names (`#!/usr/bin/env bash`, `#!/usr/bin/awk -f`) makes of `$N`. */
function interpreterOf(source: TextLike, fence: Fence): Meaning | undefined {
  const program = shebangProgram(
    source.slice(fence.content.start, Math.min(fence.content.end, fence.content.start + 200)),
  );
  if (program === undefined) return undefined;
  // A shell's script's `$1` is its own parameter (a block fenced as `bash` is commands, where `$1` may be the
  // skill's argument on purpose).
  return POSIX_SHELLS.has(program) ? 'shell' : LANGUAGES[program];
}

/** The awk programs, `sh -c` scripts and replacement strings written in the body's text (which starts at `base`). */
function quotedRegions(text: string, base: number): Region[] {
  const regions: Region[] = [];
  for (const match of text.matchAll(AWK)) {
    const program = awkProgram(text, match.index! + match[0].length);
    if (program) regions.push({ start: base + program.start, end: base + program.end, meaning: 'awk' });
  }
  for (const match of text.matchAll(SHELL_C)) {
    const open = match.index! + match[0].length;
    const close = indexWithin(text, "'", open);
    if (close !== undefined) regions.push({ start: base + open, end: base + close, meaning: 'shell' });
  }
  for (const match of text.matchAll(REPLACE_CALL)) {
    const open = match.index! + match[0].length;
    const end =
      indexWithin(text, '\n', open, open + REPLACEMENT_REACH) ?? Math.min(text.length, open + REPLACEMENT_REACH);
    regions.push({ start: base + open, end: base + end, meaning: 'replacement' });
  }
  return regions;
}

/**
 * The program of an awk command whose name ends at `from`: its first operand, when written in single quotes, after
 * the options (`-F`, `-v` and their values). None when the program is read from a file (`-f`) or not quoted.
 */
function awkProgram(text: string, from: number): Span | undefined {
  let at = from;
  let optionValue = false;
  for (;;) {
    while (text[at] === ' ' || text[at] === '\t' || (text[at] === '\\' && text[at + 1] === '\n'))
      at += text[at] === '\\' ? 2 : 1;
    const end = wordEnd(text, at);
    if (end === undefined || end === at) return undefined;
    const word = text.slice(at, end);
    if (optionValue || word === '--') {
      optionValue = false;
    } else if (word.startsWith('-')) {
      if (word === '-f' || word.startsWith('--file')) return undefined;
      optionValue = ['-F', '-v', '--field-separator', '--assign'].includes(word);
    } else {
      // One single-quoted string: the program. Anything else (a variable, a double-quoted string) is not read.
      return word.length >= 2 && word.startsWith("'") && word.indexOf("'", 1) === word.length - 1
        ? { start: at + 1, end: end - 1 }
        : undefined;
    }
    at = end;
  }
}

/** Where the shell word at `start` ends (quotes read whole); undefined for a quote not closed within reach. */
function wordEnd(text: string, start: number): number | undefined {
  let at = start;
  while (at < text.length && !/[\s|;&)`]/.test(text[at])) {
    const quote = text[at];
    if (quote === "'" || quote === '"') {
      let close = indexWithin(text, quote, at + 1, at + 1 + MAX_QUOTED);
      while (quote === '"' && close !== undefined && text[close - 1] === '\\')
        close = indexWithin(text, quote, close + 1, at + 1 + MAX_QUOTED);
      if (close === undefined) return undefined;
      at = close + 1;
    } else at++;
  }
  return at;
}

/**
 * Where `char` is next in `text` from `from`, looked for up to `limit`: a body of many unclosed quotes is read in a
 * time bounded by its length.
 */
function indexWithin(text: string, char: string, from: number, limit = from + MAX_QUOTED): number | undefined {
  const found = text.slice(from, Math.min(limit, text.length)).indexOf(char);
  return found === -1 ? undefined : from + found;
}

/**
 * A backslash before each `$N` of the place. Claude Code keeps `\$1` as `$1`; other clients show the backslash, so
 * it is offered, not applied unasked.
 */
function escapeDollarsFix(item: Diagnostic, { text }: FixSource): Fix[] {
  const escapes = item.data?.escapes;
  return Array.isArray(escapes)
    ? [
        fixOf(
          item,
          `Write \\${text.slice(item.span.start, item.span.end)}${escapes.length > 1 ? ` (and the ${escapes.length - 1} more here)` : ''}`,
          'unsafe',
          escapes.map((at: number) => textChange(item.file, at, at, '\\')),
        ),
      ]
    : [];
}
