import { languagesOf, transferIn } from './instructionLanguages';
import { LOCAL_HOST } from './shellFlows';
import { CREDENTIAL_STORE, HOME_PREFIX } from '../../platforms/credentialStores';

// Prose that asks the agent to send credentials away, recognised by what it names rather than by how it says it: in
// one sentence, a credential (a credentials file, a secret's variable, the environment), an address off the machine,
// and a word for sending. The names and the address are the same in every language, and so are the HTTP methods and
// the clients that carry data; only the verb is the language's (instructionLanguages.ts has each one's). A secret used
// to sign in to the address (an Authorization header, a token it authenticates with) is what a secret is for.

/** Files that hold a user's credentials, as prose names them (with or without the home folder in front). */
const CREDENTIAL_FILE = `(?:${HOME_PREFIX})?(?:${CREDENTIAL_STORE})`;
/** A project's secrets file named as a file (`.env`, `.env.local`): a value read from it is a setting, not the file. */
const DOTENV = String.raw`(?<![\w.-])\.env(?:\.[\w-]+)?\b`;
/** A variable whose name says it holds a secret, or a connection string with its password. */
const SECRET_VARIABLE = String.raw`\$?\{?\b[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|PRIVATE_KEY|CREDENTIALS?|ACCESS_KEY(?:_ID)?)\b|\bDATABASE_URL\b|\boauth_token\b`;
/** The whole environment: the output of `env` or `printenv`, every environment variable. */
const ENVIRONMENT = String.raw`\x60(?:env|printenv|set)\x60|\bprintenv\b|\ball (?:the )?environment variables\b`;

/**
 * Anything that names a credential, for the prefilter: most prose names none. Without the optional home folder in
 * front of a file's name (the same texts hold one): a pattern that starts with a literal is found without trying every
 * place of a long text.
 */
export const NAMES_CREDENTIAL = new RegExp(`${CREDENTIAL_STORE}|${DOTENV}|${SECRET_VARIABLE}|${ENVIRONMENT}`);
// Case matters: a secret's variable is named in capitals (`nextPageToken` is no secret).
const CREDENTIAL = new RegExp(`(${CREDENTIAL_FILE}|${ENVIRONMENT})|(${DOTENV})|(${SECRET_VARIABLE})`, 'g');
/** A word for reading a value out of a file, before `.env`: the value is then the setting the skill uses. */
const FROM =
  /\b(?:from|in|aus|de|desde|dans|\u0438\u0437|\u0432)\s+[`'"]?$|(?:\u4ece|\u304b\u3089|\u306e\u4e2d\u306e|\uc5d0\uc11c)\s*[`'"]?$/i;

/** An address off the machine, up to a space, a quote or CJK punctuation (`\u3002`). */
const ADDRESS = String.raw`https?:\/\/(?!(?:${LOCAL_HOST})(?:[:/\s\x60'"]|$))[^\s\x60'"<>)\u3000-\u303f\uff00-\uffef]+`;
const ANY_ADDRESS = new RegExp(ADDRESS, 'i');
/**
 * An address something is sent to, not one named for reading: after a word for "to" (each language's, or a client
 * that sends: `curl \u2026 https://`), or before a particle that says so (Japanese \u306b/\u3078, Korean \ub85c).
 */
const DESTINATION = new RegExp(
  String.raw`(?:(?<![\p{L}])(?:to|into|onto|at|an|nach|zu|auf|\u00e0|vers|sur|a|al|hacia|para|ao|\u043d\u0430|\u0432)|[\u5230\u81f3\u7ed9]|(?<![\w-])(?:curl|wget|http|xh|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^\n\x60]{0,60}?)\s*[\x60'"<]?(${ADDRESS})|(${ADDRESS})[\x60'">]?\s*(?:\u306b|\u3078|\uc73c?\ub85c)`,
  'iu',
);

/** Sending, said the same in every language: an HTTP method that carries a body, a client that sends one. */
const TRANSFER_ANYWHERE =
  /\b(?:POST|PUT|PATCH)\b|(?<![\w-])(?:curl|wget|Invoke-(?:WebRequest|RestMethod)|iwr|irm|scp|rsync|nc|ncat|socat)\b|\b(?:webhooks?|telemetry|upload\w*)\b/;
/** Sending, in English: the verbs a step that sends something uses. */
const TRANSFER_ENGLISH =
  /\b(?:send|sends|sending|sent|attach|attaching|upload|post|posting|share|sharing|sync|synchroni[sz]e|back (?:\w+ )?up|forward|transmit|submit|include|paste|report)\b/i;
/** A secret used to sign in where it goes: what it is for. */
const SIGNS_IN =
  /\bAuthorization\b|\bBearer\b|(?<![\w-])(?:-H|--header|-u|--user|--token)\b|\bheaders?\b|\bauthenticat\w*|\blog(?:s|ged)? ?in\b|\bsign(?:s|ed)? in\b/i;

/** The sentences of a paragraph, with their offsets: a full stop and a space (not one in an address), or CJK's. */
function sentences(text: string): { start: number; text: string }[] {
  const found: { start: number; text: string }[] = [];
  let start = 0;
  for (const end of text.matchAll(/[.!?](?=\s)|[\u3002\uFF01\uFF1F]/g)) {
    found.push({ start, text: text.slice(start, end.index! + 1) });
    start = end.index! + 1;
  }
  if (start < text.length) found.push({ start, text: text.slice(start) });
  return found;
}

/**
 * Where a paragraph asks to send a credential off the machine: the first credential its sentence names, with the
 * address it goes to; undefined when no sentence does.
 */
export function credentialsSent(paragraph: string): { index: number; credential: string; address: string } | undefined {
  if (!NAMES_CREDENTIAL.test(paragraph) || !ANY_ADDRESS.test(paragraph)) return undefined;
  for (const sentence of sentences(paragraph)) {
    const target = DESTINATION.exec(sentence.text);
    if (!target || SIGNS_IN.test(sentence.text)) continue;
    // The sentence's own punctuation after an address is not part of it.
    const address = (target[1] ?? target[2]).replace(/[.,;:!?]+$/, '');
    if (
      !TRANSFER_ANYWHERE.test(sentence.text) &&
      !TRANSFER_ENGLISH.test(sentence.text) &&
      !transferIn(languagesOf([sentence.text])).test(sentence.text)
    )
      continue;
    for (const match of sentence.text.matchAll(CREDENTIAL)) {
      // What is sent is named before where it goes, in the same clause: "post the notes to https://…; the NPM_TOKEN
      // stays in CI", "publish to https://… with the token in ~/.npmrc" send no credential.
      if (match.index! > target.index || sentence.text.slice(match.index, target.index).includes(';')) break;
      if (match[2] && FROM.test(sentence.text.slice(0, match.index))) continue;
      return { index: sentence.start + match.index!, credential: match[0], address };
    }
  }
  return undefined;
}
