import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { Placed } from './skillTexts';
import { defineRule } from '../engine/rule';
import { remoteCode } from './riskyExecution';
import { discussingIn, elsewhere, type Intent, languagesOf, negatedIn } from './instructionLanguages';
import { credentialsSent, NAMES_CREDENTIAL } from './credentialsSent';
import { CREDENTIAL_STORE } from '../../platforms/credentialStores';

// Prose that turns the agent on its user: overriding its other instructions, hiding what it does, dropping the
// user's confirmations, taking credentials, sending data away. Explainable and scored, not a model: each cue has a
// weight, a paragraph whose cues reach THRESHOLD is reported at its strongest cue, and prose that discusses these
// things (a security guide, an example of an attack, a rule against them) is not an instruction to do them.

export const hostileInstruction = defineRule({
  code: 'hostile_instruction',
  category: 'security',
  // Whether prose turns the agent on its user is a judgement a reader can dispute (an attack quoted to teach it):
  // a warning, which the security preset makes an error for teams that want a hard gate.
  severity: 'warning',
  summary:
    'Prose telling the agent to set aside its instructions, hide what it does, skip confirmations, take credentials or send data away.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '8.8', cwe: ['CWE-1427'] },
});

interface Cue {
  /** What it asks, read in each language a text is written in (instructionLanguages.ts); none for a `find` cue. */
  intent?: Intent;
  /** Where the cue is in English prose; of a cue read by `find`, what any text holding it must hold. */
  english: RegExp;
  /** A cue recognised by more than one pattern: where it is in a paragraph, if it is. */
  find?: (text: string) => { index: number; 0: string; what?: string } | null;
  weight: number;
  /** What the cue asks of the agent, for the message. */
  what: string;
}

const CUES: Cue[] = [
  {
    intent: 'override',
    english:
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|other|system|original)\s+(?:instructions|rules|prompts|messages|guidelines|directions)\b/i,
    weight: 3,
    what: 'to set aside its other instructions',
  },
  {
    // Not telling the user to do something ("never tell the user to switch to the terminal"), nor the noise a skill
    // leaves out of its answers (a formatter's warnings, debug logs): neither hides what the agent does.
    intent: 'conceal',
    english:
      /\b(?:do not|don't|never)\s+(?:tell|inform|notify|alert|mention\s+(?:this|it)\s+to|reveal\s+(?:this|it)\s+to|show\s+(?:this|it)\s+to)\s+the\s+user\b(?!\s+to\s+\w)(?!\s+about\s+(?:[\w-]+\s+){0,4}?(?:warnings?|notices?|logs?|debug\w*|internal\s+details|implementation\s+details)\b)|\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b|\bhide\s+(?:this|it|them|the\s+\w+)\s+from\s+the\s+user\b|\b(?:secretly|covertly)\b/i,
    weight: 2,
    what: 'to hide what it does from the user',
  },
  {
    intent: 'unconfirmed',
    english:
      /\b(?:do not|don't|never)\s+(?:ask|wait)\s+(?:the\s+user\s+)?for\s+(?:confirmation|permission|approval)\b|\bwithout\s+asking\s+the\s+user\b(?!\s+to\s+\w)|\b(?:skip|bypass|disable|turn off)\s+(?:all\s+|any\s+|the\s+)?(?:confirmations?|approvals?|permission\s+(?:prompts|checks))\b/i,
    weight: 1,
    what: "to act without the user's confirmation",
  },
  {
    // Hiding what the agent itself does, not only from the user: its summary, its answer.
    intent: 'hideStep',
    english:
      /\b(?:do not|don't|never)\s+(?:mention|report|disclose|reveal|show|list|include|log)\s+(?:this|these|that|those)\s+(?:steps?|changes?|commands?|actions?|requests?|uploads?|edits?|entry|entries|part)\b[^.\n]{0,40}?(?:\bto the user\b|\bin (?:your|the) (?:final )?(?:summary|response|answer|reply|report|output|transcript)\b)|\bleave\s+(?:this|it|them)\s+out\s+of\s+(?:your|the)\s+(?:final )?(?:summary|report|response|answer|reply)\b/i,
    weight: 3,
    what: 'to hide a step it takes from the user',
  },
  {
    // Text posing as the system or an administrator, which the agent is to obey over its user: how injected text
    // claims an authority it does not have. Alone it may be a heading; with another cue it is the injection's voice.
    english:
      /\bsystem (?:note|message|notice|override|instruction)s?\b|\b(?:note|message|instructions?) (?:for|to) the (?:assistant|agent|AI|model|LLM)\b|\bpre-?approved by (?:the |an? )?(?:admin(?:istrator)?s?|security team|IT department)\b|\[(?:SYSTEM|ADMIN)\]|<\/?system>/i,
    weight: 2,
    what: 'to obey text posing as the system or an administrator',
  },
  {
    intent: 'impersonate',
    english:
      /\b(?:as if you were|pretend(?:ing)? to be|posing as|impersonat\w*)\s+the user\b|\bin the user's name\b|\bsign(?:ed|ing)? as the user\b/i,
    weight: 2,
    what: 'to act as the user',
  },
  {
    // By what it names, in any language: a credential, an address off the machine, sending (credentialsSent.ts).
    english: NAMES_CREDENTIAL,
    find: (text) => {
      const sent = credentialsSent(text);
      // What is sent and where, for the message: the place a reviewer checks.
      return sent
        ? { index: sent.index, 0: sent.credential, what: `to send \`${sent.credential}\` to \`${sent.address}\`` }
        : null;
    },
    weight: 3,
    what: 'to send credentials off the machine',
  },
  {
    // A value read from `.env` ("the webhook URL from .env") is a setting the skill uses, as apps keep them; the file
    // read whole, or the stores of keys and passwords, are what a thief takes.
    intent: 'credentials',
    english: new RegExp(
      String.raw`\b(?:read|cat|open|print|copy|collect|extract|dump|grab|harvest)\b[^.\n]{0,60}(?:${CREDENTIAL_STORE}|\bkeychain\b|(?<!\bfrom\s+[\x60'"]?)\.env\b|\bbrowser (?:cookies|passwords)\b|\bprivate keys?\b|\bcredentials\b)`,
      'i',
    ),
    weight: 2,
    what: 'to read credentials',
  },
  {
    // What is sent must be what a thief wants (a secret, files, the code, the conversation, or a word standing for what
    // was read: "send them"): a release skill uploads the build and posts release notes to the services it serves.
    intent: 'send',
    english:
      /\b(?:(?:send|upload|post|transmit|forward|beam|pipe)\s+(?:(?:all|every|each|the|your|their|its|my|our|these|those|of)\s+)*(?:it|them|this|these|those|everything|(?:[\w-]+\s+){0,2}?(?:keys?|tokens?|credentials|secrets?|passwords?|cookies|contents?|files?|data|history|repository|repo|source|code|project|workspace|environment|conversations?|chats?|messages))\b|exfiltrate\b)[^.\n]{0,80}\b(?:to|at)\s+(?:https?:\/\/\S+|[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|xyz|ru|cn|top|site|app|dev)\b|(?:my|our|this|a|the)\s+(?:webhook|server|endpoint))/i,
    weight: 2,
    what: 'to send data to a remote address',
  },
];

/** A cue's patterns: in English, and in `languages`. */
const patternsOf = (cue: Cue, languages: readonly string[]): RegExp[] => {
  const other = cue.intent && elsewhere(cue.intent, languages);
  return other ? [cue.english, other] : [cue.english];
};

/** The first match of any of `patterns` in `text`. */
function firstMatch(patterns: readonly RegExp[], text: string): RegExpExecArray | null {
  let first: RegExpExecArray | null = null;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match && (!first || match.index < first.index)) first = match;
  }
  return first;
}

/**
 * Any cue but those read by `find` (which have prefilters of their own, case-sensitive: a secret's variable is named
 * in capitals): one pass for English, where most texts have none, before a pass for each; one for `languages`.
 */
const ANY_ENGLISH_CUE = new RegExp(
  CUES.filter((cue) => !cue.find)
    .map((cue) => `(?:${cue.english.source})`)
    .join('|'),
  'i',
);
const anyCues = new Map<string, RegExp[]>();
function anyCueIn(languages: readonly string[]): RegExp[] {
  let patterns = anyCues.get(languages.join());
  if (!patterns) {
    const other = CUES.flatMap((cue) => (cue.intent ? (elsewhere(cue.intent, languages) ?? []) : []));
    patterns = [
      ANY_ENGLISH_CUE,
      ...(other.length > 0 ? [new RegExp(other.map((pattern) => `(?:${pattern.source})`).join('|'), 'iu')] : []),
    ];
    anyCues.set(languages.join(), patterns);
  }
  return patterns;
}

/** Whether a text says any of the cues, in the languages it is written in. */
export function saysACue(text: string): boolean {
  return anyCueIn(languagesOf([text])).some((pattern) => pattern.test(text));
}

/** A paragraph whose cues add up to this is an instruction against the user. */
const THRESHOLD = 3;

/** Prose about these things rather than asking for them. */
const DISCUSSING =
  /\b(?:prompt injections?|injection attacks?|malicious|attackers?|adversar\w*|jailbreak\w*|threat model|detect\w*|flag\w*|warn\w* (?:about|against)|red team\w*|phishing|exploit\w*|security review|for example|such as|e\.g\.)/i;
/**
 * A cue a few words after one of these is forbidden, not asked for ("never ignore the rules above", "do not run
 * terminal commands without asking the user").
 */
const NEGATED = /\b(?:never|not|don't|must not|cannot|can't|refuse to|avoid|no)\s+(?:\w+\s+){0,4}$/i;

/** The paragraphs of a piece of prose (no fenced block in it), with their offsets in the whole text. */
export function paragraphs(prose: Placed): Placed[] {
  const found: Placed[] = [];
  let start = -1;
  const flush = (end: number) => {
    if (start >= 0) found.push({ start: prose.start + start, text: prose.text.slice(start, end) });
    start = -1;
  };
  for (let lineStart = 0; lineStart < prose.text.length;) {
    const newline = prose.text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? prose.text.length : newline;
    const line = prose.text.slice(lineStart, lineEnd);
    if (line.trim() === '' || /^#{1,6}\s/.test(line)) flush(lineStart - 1);
    else if (start < 0) start = lineStart;
    lineStart = lineEnd + 1;
  }
  flush(prose.text.length);
  return found;
}

/**
 * The paragraphs of prose (a Markdown text's, outside its fenced blocks: code examples are not instructions to the
 * agent) that instruct the agent against its user, each at its strongest cue.
 */
export function hostileInstructions(file: string, prose: Placed[]): Diagnostic[] {
  const findings: Diagnostic[] = [];
  // The cues over all the prose first: prose whose cues cannot add up has no paragraph that does.
  // Read in the languages the prose is written in (besides English), each pattern built once for them.
  const languages = languagesOf(prose.map((piece) => piece.text));
  const patterns = new Map(CUES.map((cue) => [cue, patternsOf(cue, languages)]));
  const discussing = discussingIn(languages);
  const negated = negatedIn(languages);
  const anyCue = anyCueIn(languages);
  const said = (cue: Cue) =>
    prose.some((piece) =>
      cue.find ? cue.find(piece.text) !== null : patterns.get(cue)!.some((pattern) => pattern.test(piece.text)),
    );
  if (
    !(
      prose.some((piece) => anyCue.some((pattern) => pattern.test(piece.text))) ||
      CUES.some((cue) => cue.find && said(cue))
    ) ||
    CUES.reduce((sum, cue) => sum + (said(cue) ? cue.weight : 0), 0) < THRESHOLD
  )
    return findings;
  for (const paragraph of prose.flatMap(paragraphs)) {
    if (DISCUSSING.test(paragraph.text) || discussing.test(paragraph.text)) continue;
    const hits = CUES.flatMap((cue) => {
      const match = cue.find ? cue.find(paragraph.text) : firstMatch(patterns.get(cue)!, paragraph.text);
      if (!match) return [];
      const before = paragraph.text.slice(Math.max(0, match.index - 50), match.index);
      // A cue in quotes or code is quoted, not asked for (not a name: a file or a variable is written in code); one
      // after a negation is forbidden.
      const quoted = /[`"\u201C']\s*$/.test(before);
      const bare = quoted && cue.find ? before.replace(/[`"\u201C']\s*$/, '') : before;
      if (NEGATED.test(bare) || negated.test(bare) || (quoted && !cue.find)) return [];
      return [{ cue, match }];
    });
    const score = hits.reduce((sum, hit) => sum + hit.cue.weight, 0);
    if (score < THRESHOLD) continue;
    // In the order the paragraph says them; reported at the strongest, the first of them on a tie.
    hits.sort((a, b) => a.match.index - b.match.index);
    const strongest = hits.reduce((best, hit) => (hit.cue.weight > best.cue.weight ? hit : best));
    const start = paragraph.start + strongest.match.index;
    findings.push(
      diagnostic(
        hostileInstruction,
        file,
        { start, end: start + strongest.match[0].length, file },
        `This tells the agent ${hits.map((hit) => ('what' in hit.match && hit.match.what) || hit.cue.what).join(', and ')}: an instruction against the user who runs the skill. Remove it; a skill that needs such a step should ask the user.`,
      ),
    );
  }
  return findings;
}

/** Instructions fetched at run time: "fetch https://… and follow its instructions". */
const REMOTE_INSTRUCTIONS =
  /\b(?:fetch|download|curl|read|load|get|retrieve|open)\b[^.\n]{0,80}https?:\/\/\S+[^.\n]{0,60}?\b(?:follow|obey|execute|carry out|do what)\b[^.\n]{0,30}?\b(?:instructions|steps|commands|it says|they say|directions)\b/i;

/**
 * Prose telling the agent to fetch instructions at run time and follow them: what the skill does is then whatever the
 * address serves when it runs, not what was reviewed.
 */
export function remoteInstructions(file: string, prose: Placed[]): Diagnostic[] {
  if (!prose.some((piece) => REMOTE_INSTRUCTIONS.test(piece.text))) return [];
  return prose.flatMap(paragraphs).flatMap((paragraph) => {
    const match = REMOTE_INSTRUCTIONS.exec(paragraph.text);
    if (!match || DISCUSSING.test(paragraph.text)) return [];
    const start = paragraph.start + match.index;
    return [
      diagnostic(
        remoteCode,
        file,
        { start, end: start + match[0].length, file },
        'This tells the agent to follow instructions it fetches at run time: what the skill does is then whatever the address serves, not what was reviewed. Ship the instructions with the skill (in `references/`).',
        { risk: 'follows instructions fetched at run time' },
      ),
    ];
  });
}
