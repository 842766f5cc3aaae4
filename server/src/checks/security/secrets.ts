import { createHash } from 'node:crypto';
import type { TextLike } from '../../parse/text/textLike';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule, type Rule } from '../engine/rule';
import { secretlintFindings, type SecretlintFinding } from './secretlintRules';
import { documentationValue, secretValueShape } from './secretShapes';

// Credentials committed in a skill: tokens in a provider's format (secretlint's recommended rules, and the two formats
// they miss), private keys, and long random values assigned to names that say they are secret; not the examples
// documentation shows of them. The value is never repeated in a message: every output shows its first characters only.

export const committedSecret = defineRule({
  code: 'committed_secret',
  category: 'security',
  severity: 'error',
  summary: "A credential in a provider's format committed in the skill (a token, a private key).",
  stability: 'stable',
  formats: 'all',
  security: { severity: '9.1', cwe: ['CWE-798'] },
  textIsSecret: true,
});

/**
 * A value under a name that says it is secret is a guess: fixtures, examples of what not to do, test values and
 * published sandbox keys look the same. Information, and a preview until it can tell them apart.
 */
export const secretAssignment = defineRule({
  code: 'secret_assignment',
  category: 'security',
  severity: 'information',
  summary: 'A random-looking value assigned to a name that says it is secret (`API_KEY = "…"`).',
  stability: 'preview',
  formats: 'all',
  security: { severity: '5.3', cwe: ['CWE-798'], review: true },
  textIsSecret: true,
});

/**
 * Formats secretlint's recommended rules do not know, kept from this rule's own list: Google API keys (Gemini's and
 * Maps' keys are this shape, and GitHub's secret scanning reports them) and Stripe's live keys (its test keys,
 * `sk_test_`, are not credentials to anything real).
 */
const KEPT_FORMATS = [
  { provider: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { provider: 'a Stripe live key', pattern: /\b[sr]k_live_[A-Za-z0-9]{24,}\b/g },
];
/** A fixed start of a kept format, to skip their patterns in a text that holds neither. */
const KEPT_HINT = /AIza|k_live_/;

/**
 * Values providers publish for tests and documentation, by the SHA-256 of the value (so that no literal that looks
 * like a key is in the package): GitHub's documentation token, Slack's documentation bot token, and Google's
 * reCAPTCHA test site and secret keys. AWS's documented example keys carry their own marker (EXAMPLE).
 */
const PUBLISHED = new Set([
  '3543c50b0cb9cea8e55eb1f529b79f043cb250d485fde7b66cabbb5183add7da',
  '2ddc147f3a3b5a1722b8ed6be3c45c49a7156b17fca5d11410137a6d04def6eb',
  '03b970ed8171d73b58bbc9a5c72e3e4eec28503b56b3bb400a0801857dd45614',
  'f5e95c9954635b65acab57e6d5ea663eb900f06dc8794a90358f5abb1c77d4e0',
]);
const published = (value: string) => PUBLISHED.has(createHash('sha256').update(value).digest('hex'));

/** Rules whose own checks already tell a key from a picture of one (its base64 body, its magic bytes). */
const KEY_RULES = new Set(['privatekey', 'gcp']);
/** A private key's header: a finding over a whole key block is placed on it. */
const PEM_HEADER = /-----BEGIN[ A-Z]*PRIVATE KEY(?: BLOCK)?-----/;
/**
 * How far past a finding's line its rule reads: a private key is reported only with its end marker, up to an RSA
 * 4096-bit key's 3,300 characters below its header. A reader of part of a text gives the rules this much more of it.
 */
export const LOOK_AHEAD = 4096;

/**
 * A value assigned to a name that says it is secret (`API_KEY = "…"`, `token: …`), matched from the word that says
 * so (the rest of the name is read back from there: a pattern starting at every identifier costs too much). The value
 * is on the name's line, or under a YAML key on the next line, indented (`KEY=` with nothing after it is empty, and
 * the next line is not its value), so an edit is read again a line around it (ReusedLineScan).
 */
const ASSIGNED =
  /(?:api[_-]?key|secret|token|passw(?:or)?d|private[_-]?key|access[_-]?key)[A-Za-z0-9_]*["']?[ \t]*(?:=[ \t]*|:[ \t]*(?:\r?\n[ \t]+)?)["']?([A-Za-z0-9+/_\-.=]{20,})/gi;
/** A word every name ASSIGNED reads holds: a text without one has no assignment to read. */
const SECRET_NAME = /key|secret|token|passw/i;

/** A secret as every output shows it: its first four characters and its length. */
export function masked(value: string): string {
  return `${value.slice(0, 4)}… (${value.length} characters)`;
}

/** Where a finding over several lines is shown: a key block or a key file, at the key's header. */
function placed(text: string, found: SecretlintFinding): { start: number; end: number } {
  const value = text.slice(found.start, found.end);
  if (!value.includes('\n')) return found;
  const header = PEM_HEADER.exec(value);
  if (header) return { start: found.start + header.index, end: found.start + header.index + header[0].length };
  return { start: found.start, end: found.start + value.indexOf('\n') };
}

/** Credentials in a provider's format in `text`, by secretlint's rules and the kept formats, one per place. */
function formatFindings(file: string, text: string): SecretlintFinding[] {
  const found = secretlintFindings(file, text);
  if (KEPT_HINT.test(text))
    for (const { provider, pattern } of KEPT_FORMATS)
      for (const match of text.matchAll(pattern))
        found.push({ rule: 'kept', provider, start: match.index!, end: match.index! + match[0].length });
  // A URL's rule reads on into the quote that closes it: a credential never ends in one.
  for (const item of found) while (item.end > item.start && /["'`]/.test(text[item.end - 1])) item.end--;
  // Rules overlap (a GCP key file holds a private key; a token may sit in a connection string): the first rule wins.
  found.sort((a, b) => a.start - b.start);
  return found.filter((item, at) => at === 0 || item.start >= found[at - 1].end);
}

export function committedSecrets(file: string, text: string): Diagnostic[] {
  const findings: Diagnostic[] = [];
  const taken: { start: number; end: number }[] = [];
  const report = (rule: Rule, span: { start: number; end: number }, message: string) => {
    taken.push(span);
    findings.push(diagnostic(rule, file, { ...span, file }, message));
  };
  for (const found of formatFindings(file, text)) {
    const value = text.slice(found.start, found.end);
    if (published(value)) continue;
    if (!KEY_RULES.has(found.rule) && documentationValue(value, text.slice(found.end, found.end + 3))) continue;
    report(
      committedSecret,
      placed(text, found),
      `This looks like ${found.provider}; it is committed in the skill (${masked(value)}): everyone who installs it gets it. Revoke it, remove it, and have the skill read the user's own from the environment.`,
    );
  }
  if (SECRET_NAME.test(text))
    for (const match of text.matchAll(ASSIGNED)) {
      const value = match[1];
      const start = match.index! + match[0].length - value.length;
      const nameStart = /[A-Za-z0-9_]*$/.exec(text.slice(Math.max(0, match.index! - 60), match.index!))![0];
      const name = nameStart + /^[A-Za-z0-9_]*/.exec(match[0])![0];
      const line = text.slice(text.lastIndexOf('\n', start) + 1, lineEndOf(text, start));
      if (
        taken.some((span) => span.start < start + value.length && start < span.end) ||
        published(value) ||
        !secretValueShape({
          file,
          name,
          value,
          after: text.slice(start + value.length, start + value.length + 3),
          line,
        })
      )
        continue;
      report(
        secretAssignment,
        { start, end: start + value.length },
        `The value of \`${name}\` looks like a secret (${masked(value)}): if it is a real one, everyone who installs the skill gets it; have the skill read it from the environment instead.`,
      );
    }
  return findings.sort((a, b) => a.span.start - b.span.start);
}

function lineEndOf(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end;
}

/**
 * A file's secret findings, each value once: the same token pasted in three places is one credential to revoke. Run
 * on a whole file's findings (its lines are read apart, so no reader of a line sees the others). A private key is
 * told from another by its header and the line below it.
 */
export function oncePerSecret(findings: Diagnostic[], text: TextLike): Diagnostic[] {
  const seen = new Set<string>();
  return findings.filter((item) => {
    if (item.code !== committedSecret.code && item.code !== secretAssignment.code) return true;
    const { start, end } = item.span;
    const below = PEM_HEADER.test(text.slice(start, end)) ? text.indexOf('\n', end + 1) : end;
    const value = text.slice(start, below === -1 ? text.length : below);
    if (seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}
