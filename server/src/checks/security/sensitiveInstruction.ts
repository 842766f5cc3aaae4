import { CREDENTIAL_PATHS } from './instructionLanguages';
import { saysACue } from './hostileInstructions';

// Which paragraphs no rule reported are still worth a language model's second opinion: an instruction to the agent
// that touches something sensitive. A coarse net, on purpose (the model, not this, judges; a question costs a request,
// and at most MAX_QUESTIONS are asked per skill): the English cues below, hostile_instruction's own cues in every
// language it reads (a paragraph with a cue that did not add up to a finding), and the cues every language writes the
// same way: credential paths, secret variables, risky commands in code spans, addresses.

/** A sentence or list item that starts with a verb of doing, or says what the agent must do: it tells the agent. */
const ADDRESSED =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:(?:always|never|then|first|also|just|now|please|finally|quietly|silently|secretly|immediately|automatically)\s+)?(?:send|upload|post|transmit|forward|share|submit|read|cat|copy|collect|gather|extract|dump|print|export|include|attach|embed|delete|remove|wipe|erase|drop|push|publish|deploy|release|ignore|disregard|forget|skip|bypass|disable|override|hide|conceal|do not|don't|run|execute|fetch|download|store|save|write|open|grant|give)\b|\byou\s+(?:must|should|need\s+to|have\s+to)\b/i;

/** A paragraph's sentences and list items: an instruction and what it touches are read in the same one. */
const sentences = (text: string) => text.split(/(?<=[.!?])\s+|\n+/);

/** What a paragraph may touch that a user would want to know the agent does, in English. */
const TOPICS: { what: string; pattern: RegExp }[] = [
  {
    what: 'secrets or credentials',
    pattern:
      /\b(?:api[\s_-]?keys?|secret\s+keys?|private\s+keys?|ssh\s+keys?|secrets?|credentials?|passwords?|passphrases?|(?:access|auth|bearer|session)\s+tokens?|cookies)\b/i,
  },
  {
    what: 'the environment',
    pattern: /\b(?:environment\s+variables?|env\s+vars?|printenv|process\.env|os\.environ)\b|(?<![\w.])\.env\b/i,
  },
  {
    what: 'sending data away',
    pattern:
      /\b(?:send|upload|post|transmit|forward|exfiltrate|beam|submit)\b[^.\n]{0,80}(?:https?:\/\/|\b(?:webhooks?|endpoints?|servers?|pastebin|discord|telegram)\b)/i,
  },
  {
    what: 'hiding what it does',
    pattern:
      /\b(?:do not|don't|never)\s+(?:tell|inform|mention|show|reveal|report)\b[^.\n]{0,30}\b(?:the\s+)?user\b|\bwithout\s+(?:telling|informing|notifying|asking)\s+the\s+user\b|\b(?:silently|secretly|quietly|covertly)\s+(?:send|upload|post|copy|delete|remove|run|execute|install|push|read|collect|add|change|modify)\b|\bhide\s+(?:this|it|them|the\s+\w+)\s+from\b/i,
  },
  {
    what: 'setting aside instructions or approvals',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip|disable)\b[^.\n]{0,40}\b(?:instructions?|rules|guidelines|system\s+prompt|polic(?:y|ies)|permissions?|approvals?|confirmations?|safety|sandbox|guardrails?|restrictions)\b/i,
  },
  {
    what: 'deleting, pushing or publishing',
    pattern:
      /\b(?:delete|remove|wipe|erase|drop|destroy|overwrite)\b[^.\n]{0,40}(?:\b(?:all|every|entire|whole)\s+(?:[\w-]+\s+){0,2}?(?:files|folders|directories|branch(?:es)?|repositor(?:y|ies)|repos?|databases?|tables|history|backups|commits)\b|\b(?:repository|repo|database|history|backups?|home\s+directory)\b|(?<![\w/])\.git\b)|\bforce[\s-]push|\bpush\b[^.\n]{0,40}\b(?:main|master|production|origin|remote)\b|\bpublish\b|\bdeploy\s+to\s+production\b/i,
  },
];

/** Cues written the same in every language: each names something sensitive the paragraph touches. */
const CREDENTIAL_PATH = new RegExp(`${CREDENTIAL_PATHS}|/etc/(?:passwd|shadow)\\b|\\.kube/config\\b|\\.gnupg\\b`, 'i');
const SECRET_VARIABLE =
  /\b[A-Z][A-Z0-9_]*(?:_TOKEN|_API_KEY|_SECRET|_SECRET_KEY|_PASSWORD|_PASSWD|_CREDENTIALS?)\b|\bAPI_KEY\b/;
/** A command in a code span that sends, deletes, publishes or dumps the environment. */
const RISKY_COMMAND =
  /\b(?:curl|wget)\b.*\s(?:-d|--data\S*|-F|--form|-T|--upload-file|-X\s*POST)\b|\brm\s+-\w*[rR]\w*f|\brm\s+-\w*f\w*[rR]|\bgit\s+push\b.*\s(?:--force\S*|-f)\b|\b(?:npm|pnpm|yarn|cargo|gem)\s+publish\b|\btwine\s+upload\b|^\s*(?:printenv|env)\s*$|\|\s*(?:ba|z)?sh\b/;
const CODE_SPAN = /`([^`\n]{1,300})`/g;
const ADDRESS = /https?:\/\/[^\s)>\]]+/i;

/** The language-neutral cues of a paragraph: what it touches, and whether it names an address. */
function neutralCues(text: string): string[] {
  const cues: string[] = [];
  if (CREDENTIAL_PATH.test(text)) cues.push('a credential file');
  if (SECRET_VARIABLE.test(text)) cues.push('a secret variable');
  if ([...text.matchAll(CODE_SPAN)].some((span) => RISKY_COMMAND.test(span[1]))) cues.push('a risky command');
  return cues;
}

/**
 * Why a paragraph reads as an instruction to the agent touching something sensitive (what it touches, in words), or
 * an empty list when it does not. Either an English instruction (a sentence or list item that starts with a verb, or
 * says "you must") with a sensitive topic in that sentence, or with a neutral cue anywhere in the paragraph; or, in any
 * language, one of hostile_instruction's cues, or a neutral cue with another or with an address (a credential file
 * and a URL, in prose of any language).
 */
export function sensitiveInstruction(text: string): string[] {
  const neutral = neutralCues(text);
  const hostile = saysACue(text) ? ['what an instruction against the user says'] : [];
  const addressed = sentences(text).filter((sentence) => ADDRESSED.test(sentence));
  const english = TOPICS.filter((topic) => addressed.some((sentence) => topic.pattern.test(sentence))).map(
    (topic) => topic.what,
  );
  if (english.length > 0 || hostile.length > 0) return [...new Set([...hostile, ...english, ...neutral])];
  if (neutral.length > 0 && addressed.length > 0) return neutral;
  return neutral.length + (ADDRESS.test(text) ? 1 : 0) >= 2 ? [...neutral, 'an address'] : [];
}
