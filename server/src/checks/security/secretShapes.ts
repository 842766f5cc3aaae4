// What tells a secret's value from the things that look like one: placeholders and examples, typed stand-ins,
// hashes, identifiers and code. Read on the value as written; nothing here looks anything up.

/**
 * What marks a value of a known format as documentation, not a key: AWS's own example (`AKIAIOSFODNN7EXAMPLE`), a body
 * of x's, a word a real token cannot spell. Narrower than PLACEHOLDER: real tokens are random letters and digits, which
 * may spell `test` or `env` by chance.
 */
const FORMAT_PLACEHOLDER = /x{4,}|example|placeholder|dummy|fake|redacted|your/i;
/** What a documentation value under a secret name looks like: a placeholder, an example, where the real one lives. */
const PLACEHOLDER =
  /x{4,}|\*{3,}|your|example|sample|changeme|placeholder|dummy|fake|redacted|test|todo|<|>|\$\{|\$\(|env\b|process\.|os\./i;
/** A value cut short for the reader (`ghp_AbC…`, `sk-ant-...`): what is shown is not the whole key. */
const CUT = /^(?:\.\.\.|\u2026)/;

/**
 * Whether a value of a provider's format is a picture of one: a placeholder, a typed stand-in, a value cut with `...`,
 * too uniform to be random, or a local setup's default password in a URL (`after`: the characters that follow it).
 */
export function documentationValue(value: string, after: string): boolean {
  return (
    FORMAT_PLACEHOLDER.test(value) ||
    typedRun(value) ||
    CUT.test(after) ||
    entropy(value) < 3 ||
    defaultCredential(value)
  );
}

/** A URL's user and password (`postgres://user:password@host`). */
const URL_CREDENTIAL = /:\/\/([^:@/\s]{1,100}):([^@/\s]{1,200})@/;
/** The passwords a local setup ships with (Docker images' defaults, a tutorial's): no one's secret. */
const DEFAULT_PASSWORD =
  /^(?:postgres|root|admin|mysql|mongo|redis|pass|secret|changeme|dev|local|guest|test)\d{0,4}$/i;

/**
 * Whether a URL's password is a local setup's default (`postgres://postgres:postgres@db:5432/app`, the password the
 * user's own name): a development database, not a credential to anything the skill's users share.
 */
export function defaultCredential(value: string): boolean {
  const credential = URL_CREDENTIAL.exec(value);
  return !!credential && (credential[2] === credential[1] || DEFAULT_PASSWORD.test(credential[2]));
}

/**
 * Whether a value holds runs a person types as a stand-in: one of six characters or more, each the one after the last
 * (`123456`, `abcdef`, `AbCdEf`), or three of three (`abc123xyz789`). A random 40-character key has the first about
 * once in a million (each character follows the last with odds of about 1 in 35, five times in a row) and three of
 * the second about as rarely; fixtures and documentation (`xoxb-123456789012-…`, `sk_live_abc123xyz789`) have them
 * by construction.
 */
export function typedRun(value: string): boolean {
  const lower = value.toLowerCase();
  let run = 1;
  let short = 0;
  for (let at = 1; at < lower.length; at++) {
    const step = lower.charCodeAt(at) - lower.charCodeAt(at - 1);
    run = step === 1 && /[a-z0-9]/.test(lower[at]) ? run + 1 : 1;
    if (run === 3) short++;
    if (run >= 6 || short >= 3) return true;
  }
  return false;
}

/** Bits of entropy per character: a random key has many, a word or a repeated pattern few. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  return [...counts.values()].reduce((sum, count) => {
    const p = count / value.length;
    return sum - p * Math.log2(p);
  }, 0);
}

/** A name whose value is a hash of something, not a secret (`token_sha256`, `secret_hash`, `key_digest`). */
const HASH_NAME = /(?:sha\d*|md5|hash|digest|checksum|fingerprint)$/i;
/** A hex digest: MD5's 32, SHA-1's 40, SHA-256's 64 hex digits. */
const HEX_DIGEST = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/i;
/**
 * Files of tests, fixtures and examples, whose values are there to be seen: by the file's name and its folder's (the
 * folders above it are the skill's own place, whose names say nothing of the file).
 */
const FIXTURE_FILE =
  /(?:^|[\\/])(?:tests?|__tests__|spec|fixtures?|examples?|samples?|mocks?)[\\/][^\\/]+$|(?:^|[\\/])test_[^\\/]*$|[._-](?:test|spec)\.[^\\/]+$/i;
/** A line that shows a value as the mistake it is (`# NEVER DO THIS`, `// hardcoded secret!`, `❌`). */
const ANTI_PATTERN = /hard-?coded|never do|don't|do not|\bbad\b|\bwrong\b|anti-?pattern|insecure|\u274c/i;

/**
 * Whether a value is words joined as a name or a path in code (`nextPageToken`, `oauth2_token_present`,
 * `base64.urlsafe_b64encode`): every part of it, cut at `_ - . /` and where a lower-case letter meets a capital, is
 * two or more letters with few digits. A random key cut that way leaves parts of one letter or of mixed digits.
 */
function identifier(value: string): boolean {
  const parts = value.split(/[_\-./]|(?<=[a-z0-9])(?=[A-Z])/).filter((part) => part !== '');
  return (
    parts.every((part) => /^[A-Za-z]{2,}\d{0,2}$|^[a-z]\d{2}[a-z]{3,}$|^\d{1,3}$/.test(part)) &&
    parts.some((part) => /[a-z]{3}/i.test(part))
  );
}

/** An assignment to a secret name, as the rule reads it. */
export interface Assigned {
  file: string;
  name: string;
  value: string;
  /** The characters after the value: `(` makes it a call. */
  after: string;
  /** Its whole line: a comment there may say it is an example of the mistake. */
  line: string;
}

/** Whether an assigned value could be a secret: random, and neither a stand-in, a hash, a name, code nor a fixture. */
export function secretValueShape({ file, name, value, after, line }: Assigned): boolean {
  return !(
    PLACEHOLDER.test(value) ||
    typedRun(value) ||
    entropy(value) < 3.5 ||
    !/\d/.test(value) ||
    !/[A-Za-z]/.test(value) ||
    CUT.test(after) ||
    value.endsWith('...') ||
    after.startsWith('(') ||
    HASH_NAME.test(name) ||
    HEX_DIGEST.test(value) ||
    identifier(value) ||
    FIXTURE_FILE.test(file) ||
    ANTI_PATTERN.test(line)
  );
}
