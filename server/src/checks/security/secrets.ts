import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule, type Rule } from '../engine/rule';

// Credentials committed in a skill: well-known token formats, private keys, and long random values assigned to names
// that say they are secret; not the examples documentation shows of them. The value is never repeated in a message:
// every output shows its first characters only.

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

/** A token format: its fixed start (what says nothing of the value) and the random body after it. */
interface Format {
  name: string;
  /** The fixed start, as a pattern: `ghp_`, `AKIA`. */
  start: string;
  pattern: RegExp;
}

const token = (name: string, start: string, body: string): Format => ({
  name,
  start,
  pattern: new RegExp(String.raw`\b(?:${start})${body}\b`, 'g'),
});

const PEM_HEADER = '-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----';

const FORMATS: Format[] = [
  token('an AWS access key', 'AKIA|ASIA', '[0-9A-Z]{16}'),
  token('a GitHub token', 'gh[pousr]_', '[A-Za-z0-9]{36,}'),
  token('a GitHub token', 'github_pat_', '[A-Za-z0-9_]{40,}'),
  token('a GitLab token', 'glpat-', '[A-Za-z0-9_-]{20,}'),
  token('a Slack token', 'xox[abprs]-', '[A-Za-z0-9-]{20,}'),
  token('a Stripe live key', '[sr]k_live_', '[A-Za-z0-9]{24,}'),
  token('a Google API key', 'AIza', '[0-9A-Za-z_-]{35}'),
  token('an Anthropic API key', 'sk-ant-', '[A-Za-z0-9_-]{32,}'),
  token('an OpenAI API key', 'sk-(?:proj-)?', '[A-Za-z0-9_-]{40,}'),
  token('an npm token', 'npm_', '[A-Za-z0-9]{36}'),
  // A PEM header, all start: whether a key follows it is read after it (realToken).
  { name: 'a private key', start: PEM_HEADER, pattern: new RegExp(PEM_HEADER, 'g') },
];

/**
 * A value assigned to a name that says it is secret (`API_KEY = "…"`, `token: …`), matched from the word that says
 * so (the rest of the name is read back from there: a pattern starting at every identifier costs too much). The value
 * is on the name's line or the next (YAML's block style), so an edit is read again a line around it (ReusedLineScan).
 */
const ASSIGNED =
  /(?:api[_-]?key|secret|token|passw(?:or)?d|private[_-]?key|access[_-]?key)[A-Za-z0-9_]*["']?[ \t]*[:=][ \t]*(?:\r?\n[ \t]*)?["']?([A-Za-z0-9+/_\-.=]{20,})/gi;
/** A word every name ASSIGNED reads holds: a text without one has no assignment to read. */
const SECRET_NAME = /key|secret|token|passw/i;
/** The start of any known token format, to skip the formats a text cannot hold. */
const FORMAT_HINT = new RegExp(FORMATS.map((format) => format.start).join('|'));
/** What a documentation value looks like: a placeholder, an example, a reference to where the real one lives. */
const PLACEHOLDER =
  /x{4,}|\*{3,}|your|example|sample|changeme|placeholder|dummy|fake|redacted|test|todo|<|>|\$\{|\$\(|env\b|process\.|os\./i;

/**
 * What marks a value of a known format as documentation, not a key: AWS's own example (`AKIAIOSFODNN7EXAMPLE`), a body
 * of x's, a word a real token cannot spell. Narrower than PLACEHOLDER: real tokens are random letters and digits, which
 * may spell `test` or `env` by chance.
 */
const FORMAT_PLACEHOLDER = /x{4,}|example|placeholder|dummy|fake|redacted|your/i;
/** Each format's fixed start, left out when the rest is weighed: `ghp_` says nothing about the value. */
const LEADING = new Map(FORMATS.map((format) => [format, new RegExp(`^(?:${format.start})`)]));
/** A line of a PEM body: a private key's header followed by none is a picture of the format. */
const PEM_BODY = /[A-Za-z0-9+/=]{60,}/;
/**
 * How far past a finding's line its rule reads: a private key's header is judged by the lines below it (an encrypted
 * key's own headers come first). A reader of part of a text gives the rules this much more of it.
 */
export const LOOK_AHEAD = 400;

/** Whether a match of `format` at `index` of `text` is a key, not an example of its shape. */
function realToken(format: Format, text: string, index: number, value: string): boolean {
  if (format.start === PEM_HEADER)
    return PEM_BODY.test(text.slice(index + value.length, index + value.length + LOOK_AHEAD));
  const body = value.replace(LEADING.get(format)!, '');
  return !FORMAT_PLACEHOLDER.test(value) && !typedRun(body) && entropy(body) >= 3;
}

/**
 * Whether a value holds a run a person types as a stand-in: six characters or more, each the one after the last
 * (`123456`, `abcdef`, `AbCdEf`). A random 40-character key has one about once in a million (each character follows
 * the last with odds of about 1 in 35, five times in a row); fixtures and documentation
 * (`xoxb-123456789012-…`, `live-secret-123456`) have them by construction.
 */
function typedRun(value: string): boolean {
  const lower = value.toLowerCase();
  let run = 1;
  for (let at = 1; at < lower.length; at++) {
    const step = lower.charCodeAt(at) - lower.charCodeAt(at - 1);
    run = step === 1 && /[a-z0-9]/.test(lower[at]) ? run + 1 : 1;
    if (run >= 6) return true;
  }
  return false;
}

/** Bits of entropy per character: a random key has many, a word or a repeated pattern few. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  return [...counts.values()].reduce((sum, count) => {
    const p = count / value.length;
    return sum - p * Math.log2(p);
  }, 0);
}

/** A secret as every output shows it: its first four characters and its length. */
export function masked(value: string): string {
  return `${value.slice(0, 4)}… (${value.length} characters)`;
}

export function committedSecrets(file: string, text: string): Diagnostic[] {
  const findings: Diagnostic[] = [];
  const seen = new Set<number>();
  const report = (rule: Rule, start: number, value: string, message: string) => {
    if (seen.has(start)) return;
    seen.add(start);
    findings.push(diagnostic(rule, file, { start, end: start + value.length, file }, message));
  };
  if (FORMAT_HINT.test(text))
    for (const format of FORMATS)
      for (const match of text.matchAll(format.pattern))
        if (realToken(format, text, match.index!, match[0]))
          report(
            committedSecret,
            match.index!,
            match[0],
            `This looks like ${format.name}; it is committed in the skill (${masked(match[0])}): everyone who installs it gets it. Revoke it, remove it, and have the skill read the user's own from the environment.`,
          );
  if (SECRET_NAME.test(text))
    for (const match of text.matchAll(ASSIGNED)) {
      const value = match[1];
      if (
        PLACEHOLDER.test(value) ||
        typedRun(value) ||
        entropy(value) < 3.5 ||
        !/\d/.test(value) ||
        !/[A-Za-z]/.test(value)
      )
        continue;
      const nameStart = /[A-Za-z0-9_]*$/.exec(text.slice(Math.max(0, match.index! - 60), match.index!))![0];
      const name = nameStart + /^[A-Za-z0-9_]*/.exec(match[0])![0];
      report(
        secretAssignment,
        match.index! + match[0].length - value.length,
        value,
        `The value of \`${name}\` looks like a secret (${masked(value)}): if it is a real one, everyone who installs the skill gets it; have the skill read it from the environment instead.`,
      );
    }
  return findings.sort((a, b) => a.span.start - b.span.start);
}
