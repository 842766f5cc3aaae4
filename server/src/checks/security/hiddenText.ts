import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { listed } from '../engine/wording';
import { flatText, type TextLike } from '../../parse/text/textLike';
import { defineRule } from '../engine/rule';
import { appendTo } from '../../listMap';
import type { Fence } from '../../parse/markdown/skillFile';

// What a reader does not see but an agent reads: invisible and bidirectional characters, comments and collapsed
// sections that speak to the agent, and text hidden in base64 or hex.

export const hiddenUnicode = defineRule({
  code: 'hidden_unicode',
  category: 'security',
  severity: 'warning',
  summary: 'Invisible or bidirectional characters: text an agent reads that a reader does not see.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '7.0', cwe: ['CWE-451'] },
});

export const hiddenInstructions = defineRule({
  code: 'hidden_instructions',
  category: 'security',
  severity: 'warning',
  summary: 'An HTML comment or a collapsed section that speaks to the agent, hidden from a reader.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '7.0', cwe: ['CWE-1427'] },
});

export const encodedText = defineRule({
  code: 'encoded_text',
  category: 'security',
  severity: 'warning',
  summary: 'Base64, hex or escaped bytes that decode to text no reviewer reads.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '5.0', cwe: ['CWE-506'] },
});

/** Tag characters (U+E0000–E007F): invisible, and each stands for an ASCII character, so they can spell a message. */
const TAG = /(?:\uDB40[\uDC00-\uDC7F])+/g;
/** Characters that change the order text is shown in, so what is read is not what is shown. */
const BIDI = /[\u202A-\u202E\u2066-\u2069]+/g;
/** Zero-width and blank-looking characters; a joiner next to an emoji or a letter of a script that needs it is text. */
const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u3164\uFFA0\u115F\u1160]+/g;

const NAMES: Record<string, string> = {
  '\u200B': 'zero-width space',
  '\u200C': 'zero-width non-joiner',
  '\u200D': 'zero-width joiner',
  '\u2060': 'word joiner',
  '\uFEFF': 'zero-width no-break space',
  '\u180E': 'Mongolian vowel separator',
  '\u3164': 'Hangul filler',
  '\uFFA0': 'half-width Hangul filler',
  '\u115F': 'Hangul choseong filler',
  '\u1160': 'Hangul jungseong filler',
};

/** A joiner between an emoji and what it joins, or inside a word of a script that writes with them, is text. */
function joinsText(text: string, start: number, end: number): boolean {
  const run = text.slice(start, end);
  if (!/^[\u200C\u200D]+$/.test(run)) return false;
  const before = text.slice(Math.max(0, start - 2), start);
  const after = text.slice(end, end + 2);
  const joinable = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]|[^\p{ASCII}\p{Script=Latin}\s\p{P}]/u;
  return joinable.test(before) || joinable.test(after);
}

/**
 * Whether a run of invisible characters changes what is read: inside a token (something shows on both sides of it,
 * and a program or a model reads it split there), or a run of several (what hidden data is spelled with). Not one
 * beside a space or at a line's end, a wrap hint (a zero-width space at a camelCase break or after a separator, where
 * documentation tools let a long identifier wrap: `api\u200BKey`), nor one between Markdown markers (`` `\u200B` ``).
 */
function changesWhatIsRead(text: string, start: number, end: number): boolean {
  if (end - start > 1) return true;
  const [before, after] = [text.charAt(start - 1), text.charAt(end)];
  if (!before || !after || /\s/.test(before) || /\s/.test(after)) return false;
  const wrap = /[a-z0-9]/.test(before) ? /[A-Z]/.test(after) : /[./_:-]/.test(before);
  return !(text.charAt(start) === '\u200B' && wrap) && !(/[`*_~]/.test(before) && /[`*_~]/.test(after));
}

/** Any character the three patterns look for: most texts have none, and are scanned once. */
const ANY_HIDDEN = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u3164\uFFA0\u115F\u1160\u202A-\u202E\u2066-\u2069\uDB40]/;

/** What tag characters spell, as ASCII: the message they hide. */
function spelledBy(run: string): string {
  const spelled = [...run].map((char) => String.fromCharCode(char.codePointAt(0)! - 0xe0000)).join('');
  const words = spelled.replace(/[^\x20-\x7e]/g, '').trim();
  return words.length > 120 ? `${words.slice(0, 120)}…` : words;
}

/** The names of the invisible characters of a run, each once. */
function namesIn(run: string): string[] {
  return [...new Set([...run].map((char) => NAMES[char] ?? `U+${char.codePointAt(0)!.toString(16).toUpperCase()}`))];
}

const TAG_HARM = 'an agent reads them, a reader sees nothing. Remove them.';
const BIDI_HARM =
  'is shown in another order than it is read, so what a reviewer sees is not what runs or what the agent reads.';

/** The invisible characters of a text, each run one finding, with what tag characters spell. */
export function invisibleCharacters(file: string, text: string): Diagnostic[] {
  const findings: Diagnostic[] = [];
  if (!ANY_HIDDEN.test(text)) return findings;
  const at = (start: number, end: number) => ({ start, end, file });
  for (const match of text.matchAll(TAG)) {
    const words = spelledBy(match[0]);
    findings.push(
      diagnostic(
        hiddenUnicode,
        file,
        at(match.index!, match.index! + match[0].length),
        `${[...match[0]].length} invisible tag characters${words ? ` spell "${words}"` : ''}: ${TAG_HARM}`,
      ),
    );
  }
  for (const match of text.matchAll(BIDI))
    findings.push(
      diagnostic(
        hiddenUnicode,
        file,
        at(match.index!, match.index! + match[0].length),
        `A bidirectional control character: the text after it ${BIDI_HARM} Remove it.`,
      ),
    );
  for (const match of text.matchAll(INVISIBLE)) {
    const start = match.index!;
    const end = start + match[0].length;
    // A byte-order mark at the very start is the file's own (utf8_bom says so).
    if ((start === 0 && match[0] === '\uFEFF') || joinsText(text, start, end) || !changesWhatIsRead(text, start, end))
      continue;
    const one = match[0].length === 1;
    findings.push(
      diagnostic(
        hiddenUnicode,
        file,
        at(start, end),
        `${one ? 'An invisible character' : `${match[0].length} invisible characters`} (${namesIn(match[0]).join(', ')}): nothing shows here, but an agent and a program read ${one ? 'it' : 'them'}. Remove ${one ? 'it' : 'them'}.`,
      ),
    );
  }
  return findings;
}

/** The kinds of hidden character: a file's runs of one kind are one finding. */
type HiddenKind = 'tag' | 'bidi' | 'invisible';

function kindOf(run: string): HiddenKind {
  return run.charCodeAt(0) === 0xdb40 ? 'tag' : /^[\u202A-\u202E\u2066-\u2069]/.test(run) ? 'bidi' : 'invisible';
}

/** How many places a merged finding names: the first few, where a reader starts looking. */
const PLACES_SHOWN = 3;

/** `line:column` (from 1) of the first offsets, in order, counted in one pass over the text up to the last. */
function placesOf(text: TextLike, offsets: number[]): string[] {
  let line = 1;
  let lineStart = 0;
  return offsets.slice(0, PLACES_SHOWN).map((offset) => {
    for (let next = text.indexOf('\n', lineStart); next !== -1 && next < offset; next = text.indexOf('\n', lineStart)) {
      line++;
      lineStart = next + 1;
    }
    return `${line}:${offset - lineStart + 1}`;
  });
}

/** `a, b and 3 more places` */
function listedPlaces(places: string[], total: number): string {
  const more = total - places.length;
  return listed(more > 0 ? [...places, `${more} more place${more === 1 ? '' : 's'}`] : places);
}

/** One finding for the runs of a kind in a file: how many characters, and the first places. */
function mergedMessage(kind: HiddenKind, runs: string[], where: string): string {
  const characters = runs.reduce((count, run) => count + [...run].length, 0);
  if (kind === 'tag') {
    const spelled = runs.map(spelledBy).filter(Boolean).slice(0, PLACES_SHOWN);
    const says =
      spelled.length > 0
        ? ` spell ${spelled.map((words) => `"${words}"`).join(', ')}${runs.length > spelled.length ? '…' : ''}`
        : '';
    return `${characters} invisible tag characters in ${runs.length} places (${where})${says}: ${TAG_HARM}`;
  }
  if (kind === 'bidi')
    return `${characters} bidirectional control characters in ${runs.length} places (${where}): the text after each ${BIDI_HARM} Remove them.`;
  const names = [...new Set(runs.flatMap(namesIn))];
  return `${characters} invisible characters (${names.join(', ')}) in ${runs.length} places (${where}): nothing shows there, but an agent and a program read them. Remove them.`;
}

/**
 * One `hidden_unicode` finding per kind of character in a file (tag characters, bidirectional controls, invisible
 * ones), with the count and the first places: a vendored page with a zero-width space in every heading is one fact, not
 * hundreds. The finding stands at the first run, where the first of the findings it replaces stood (so a baseline made
 * of those accepts it); a kind found once keeps its finding as it was. Given every line finding of one file, whose text
 * is `text`, in any order; other rules' findings pass through.
 */
export function hiddenUnicodePerKind(findings: Diagnostic[], text: TextLike): Diagnostic[] {
  const byKind = new Map<HiddenKind, Diagnostic[]>();
  for (const found of findings)
    if (found.code === hiddenUnicode.code)
      appendTo(byKind, kindOf(text.slice(found.span.start, found.span.end)), found);
  const merged = new Map<Diagnostic, Diagnostic | undefined>();
  for (const [kind, group] of byKind) {
    if (group.length === 1) continue;
    group.sort((a, b) => a.span.start - b.span.start);
    const where = listedPlaces(
      placesOf(
        text,
        group.map((found) => found.span.start),
      ),
      group.length,
    );
    const runs = group.map((found) => text.slice(found.span.start, found.span.end));
    const first = group[0];
    for (const found of group) merged.set(found, undefined);
    merged.set(first, { ...first, message: mergedMessage(kind, runs, where) });
  }
  if (merged.size === 0) return findings;
  return findings.flatMap((found) => (merged.has(found) ? (merged.get(found) ?? []) : [found]));
}

/** What a text calls the agent. */
const AGENT = String.raw`(?:(?:AI|coding|LLM) )?(?:assistant|agent)s?|AI models?|AI|LLMs?|language models?|Claude|GPT|Codex|Copilot|Gemini`;
/** What a sentence told to do something starts with: an order, a prohibition, a condition. */
const ORDER = String.raw`you\b|(?:please |now |also |then |first |always |never )*(?:ignore|disregard|forget|run|execute|send|upload|post|download|fetch|delete|remove|write|read|open|add|include|insert|use|call|follow|do|don't|never|always|make|tell|say|reply|respond|answer|output|print|return|set|change|modify|install|copy|move|skip|treat|act|pretend|stop|when|whenever|if|before|after|only)\b`;

/**
 * Text addressed to the agent, not about it: the agent called on (`AI agent: you must…`, `Claude, run…`, `Note to the
 * assistant:`), told what it is (`if you are an AI…`, `You are the assistant`), told to set its instructions aside, or
 * to keep something from the user. A comment that says what the agent does (`the agent reads this file when you…`)
 * speaks to a reader; so do a template's placeholders and a maintainer's notes, whose "you" is the reader.
 */
const ADDRESSED: RegExp[] = [
  new RegExp(
    String.raw`(?:^|[.!?;]\s|\n)[ \t]*(?:[-*>][ \t]+)?(?:(?:hey|hi|hello|dear|attention),? )?(?:the |any |all )?(?:${AGENT}|system)\s*[,:]\s*(?:${ORDER})`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:note|message|instructions?|reminder)s? (?:to|for) (?:the |any |all )?(?:${AGENT})\s*[:\u2014-]`,
    'i',
  ),
  new RegExp(
    String.raw`\byou(?:['\u2019]re| are) (?:now )?(?:an? |the )(?:${AGENT})\b(?!['\u2019]s)|\byou, (?:the |an? )?(?:${AGENT}),`,
    'i',
  ),
  /\b(?:ignore|disregard|forget|override) (?:all |any )?(?:of )?(?:the |your |my )?(?:previous|prior|above|earlier|other|original|system) (?:instructions|rules|prompts?|guidelines|directions)\b/i,
  /\b(?:do not|don['\u2019]t|never|without) (?:tell|inform|mention|reveal|show|notify|alert)(?:ing)? (?:this |it |anything )?(?:to )?(?:the )?(?:user|human|operator|reviewer|anyone)\b|\b(?:secretly|silently|covertly) (?:run|execute|send|upload|post|download|fetch|delete|remove|copy|read|add|insert|include|install|modify|change|write|exfiltrate)\b/i,
];

function speaksToAgent(text: string): boolean {
  return ADDRESSED.some((cue) => cue.test(text));
}

const COMMENT = /<!--([\s\S]*?)-->/g;
const COLLAPSED = /<details\b[^>]*>([\s\S]*?)<\/details>/gi;

/** Whether `at` is inside a fenced block: a rendered page shows the block's text as text, a comment in it too. */
function inFence(fences: readonly Fence[], at: number): boolean {
  return fences.some((fence) => fence.open.start <= at && at < (fence.close ?? fence.content).end);
}

/**
 * Whether `at` is inside a code span of its line (`` `<details>` ``): shown as written. A run of backticks opens a span
 * that the next run of as many closes; a run no other matches is a backtick as text (CommonMark).
 */
function inCodeSpan(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = text.indexOf('\n', at);
  const runs = [...text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).matchAll(/`+/g)];
  for (let open = 0; open < runs.length; open++) {
    const close = runs.findIndex((run, index) => index > open && run[0].length === runs[open][0].length);
    if (close === -1) continue;
    if (lineStart + runs[open].index! < at && at < lineStart + runs[close].index!) return true;
    open = close;
  }
  return false;
}

/**
 * HTML comments and collapsed sections of Markdown that address the agent: shown to it, not to a reader. One in a
 * fenced block or a code span is shown as text, and hides nothing. Read through `TextLike` (a SKILL.md the editor
 * holds): a text with neither, as most are, is searched for them without being made one string.
 */
export function hiddenCommentFindings(file: string, source: TextLike, fences: readonly Fence[]): Diagnostic[] {
  const findings: Diagnostic[] = [];
  if (!source.includes('<!--') && !source.includes('<d') && !source.includes('<D')) return findings;
  const text = flatText(source);
  for (const [pattern, what] of [
    [COMMENT, 'An HTML comment'],
    [COLLAPSED, 'A collapsed section'],
  ] as const) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const start = match.index;
      // Shown as text: the next one may start inside it.
      if (inFence(fences, start) || inCodeSpan(text, start)) {
        pattern.lastIndex = start + 1;
        continue;
      }
      const inner = match[1].replace(/<summary>[\s\S]*?<\/summary>/i, '');
      if (!speaksToAgent(inner)) continue;
      findings.push(
        diagnostic(
          hiddenInstructions,
          file,
          { start, end: start + match[0].length, file },
          `${what} speaks to the agent ("${inner.trim().replace(/\s+/g, ' ').slice(0, 100)}"): a rendered page hides it, the agent reads it. Put instructions where a reader sees them, or remove them.`,
        ),
      );
    }
  }
  return findings;
}

const ESCAPED = /(?:\\x[0-9A-Fa-f]{2}){20,}/g;
/** The shortest base64 or hex worth decoding. */
const MIN_BLOB = 80;

/** Whether a character code is a letter, a digit, `+`, `/` or `=`: what base64 and hex are written in. */
function isBlobCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 ||
    code === 47 ||
    code === 61
  );
}

/**
 * The runs of base64 characters (letters, digits, `+`, `/`, ending `=`) at least MIN_BLOB long. Every security rule
 * reads every text, so this one reads few of its characters: a character outside the alphabet at `at` means no run
 * long enough includes it, so the next place one could end is MIN_BLOB further on; prose is mostly skipped.
 */
function blobRuns(text: string): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  let at = MIN_BLOB - 1;
  while (at < text.length) {
    if (!isBlobCode(text.charCodeAt(at))) {
      at += MIN_BLOB;
      continue;
    }
    let start = at;
    while (start > 0 && isBlobCode(text.charCodeAt(start - 1))) start--;
    if (at - start + 1 < MIN_BLOB) {
      // The run holding `at` is too short so far: a long one starts after the character before it.
      at = start - 1 + MIN_BLOB;
      continue;
    }
    let end = at + 1;
    while (end < text.length && isBlobCode(text.charCodeAt(end))) end++;
    // A run joined to a word by `_` or `-` is part of an identifier or a name, not a blob.
    if (!/[_-]/.test(text[start - 1] ?? '') && !/[_-]/.test(text[end] ?? '')) runs.push({ start, end });
    at = end + MIN_BLOB;
  }
  return runs;
}

/** Bytes as text when they read as words (printable, with spaces); undefined for binary (a hash, an image). */
function asWords(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return undefined;
  const printable = [...text].filter((char) => /[\p{L}\p{N}\p{P}\p{S}\s]/u.test(char)).length;
  return printable / Math.max(1, [...text].length) >= 0.95 && /\S+\s+\S+\s+\S+/.test(text) ? text : undefined;
}

/** Base64, hex and `\x` escapes that decode to words: text no reviewer reads, that a script or an agent may. */
export function encodedTextFindings(file: string, text: string): Diagnostic[] {
  const findings: Diagnostic[] = [];
  const report = (start: number, end: number, how: string, decoded: string) =>
    findings.push(
      diagnostic(
        encodedText,
        file,
        { start, end, file },
        `${end - start} characters of ${how} decode to text: "${decoded.trim().replace(/\s+/g, ' ').slice(0, 100)}${decoded.length > 100 ? '…' : ''}". Write it as the text it is, so a reviewer reads what the agent or the script will.`,
      ),
    );
  for (const { start, end } of blobRuns(text)) {
    // An embedded image or font is binary, and says what it is.
    if (/data:[\w/+.-]+;base64,$/.test(text.slice(Math.max(0, start - 40), start))) continue;
    const blob = text.slice(start, end);
    const hex = /^(?:[0-9A-Fa-f]{2})+$/.test(blob);
    const decoded = asWords(Buffer.from(blob, hex ? 'hex' : 'base64'));
    if (decoded) report(start, end, hex ? 'hex' : 'base64', decoded);
  }
  if (text.includes('\\x'))
    for (const match of text.matchAll(ESCAPED)) {
      const decoded = asWords(Buffer.from(match[0].replace(/\\x/g, ''), 'hex'));
      if (decoded) report(match.index!, match.index! + match[0].length, '`\\x` escapes', decoded);
    }
  return findings;
}
