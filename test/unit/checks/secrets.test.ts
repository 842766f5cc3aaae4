import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SkillAnalysis } from '../../../server/src/analyze';
import { analyzeFixture, analyzeWithPreview, frontmatter, unmark, withCode } from '../../support/fixture';
import { unhintedRules } from '../../../server/src/checks/security/secretlintRules';

// committed_secret by secretlint's recommended rules (and the two formats they miss), each provider at its exact
// place with its twin that must stay quiet: a placeholder, a published test value, a fixture, a cut value. Every
// token-shaped value is built here at run time, so no literal in the repository looks like a key.

const SKILL = `${frontmatter('tidy')}\nTidy the folder.\n`;

/** Characters that look random and are the same on every run (a linear congruential generator). */
function body(
  length: number,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  seed = 7,
): string {
  let state = seed;
  let out = '';
  for (let at = 0; at < length; at++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += alphabet[Math.floor((state / 2 ** 31) * alphabet.length)];
  }
  return out;
}

/** The committed_secret findings of a skill whose file `relative` is `marked`: asserted at the marked spans. */
function expectSecrets(relative: string, marked: string, providers: string[]): SkillAnalysis {
  const { text, spans } = unmark(marked);
  const { analysis } = analyzeFixture('tidy', SKILL, { [relative]: text });
  const found = withCode(analysis, 'committed_secret');
  const file = path.join(analysis.dir, ...relative.split('/'));
  assert.deepEqual(
    found.map((item) => [item.file, text.slice(item.span.start, item.span.end)]),
    spans.map((span) => [file, text.slice(span.start, span.end)]),
    JSON.stringify(found.map((item) => item.message)),
  );
  assert.deepEqual(
    found.map((item) => /^This looks like (.+?); it is committed/.exec(item.message)?.[1]),
    providers,
  );
  return analysis;
}

const quiet = (relative: string, text: string) =>
  assert.deepEqual(
    withCode(analyzeFixture('tidy', SKILL, { [relative]: text }).analysis, 'committed_secret').map(
      (item) => item.message,
    ),
    [],
  );

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const github = 'gh' + 'p_' + body(36);
const slack = 'xox' + 'b-' + body(12, '0123456789', 3) + '-' + body(13, '0123456789', 5) + '-' + body(24, undefined, 9);
const openai = 'sk-' + 'proj-' + body(74, undefined, 11) + 'T3Blbk' + 'FJ' + body(74, undefined, 13);
const anthropic = 'sk-' + 'ant-api03-' + body(93, undefined, 17) + 'AA';
const npm = 'np' + 'm_' + body(36, undefined, 19);
const sendgrid = 'SG' + '.' + body(22, undefined, 23) + '.' + body(43, undefined, 29);
const awsSecret = body(40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+', 31);
const google = 'AI' + 'za' + body(35, undefined, 37);
const stripe = 'sk' + '_live_' + body(24, undefined, 41);
/** A private key block: base64 lines after the DER sequence's start, as a PEM file holds them. */
const pemBody = [
  'MII' + body(61, undefined, 43),
  body(64, undefined, 47),
  body(64, undefined, 53),
  body(20, undefined, 59) + '==',
];

test('committed_secret: a token of each provider the rules know, at its place, named in the message', () => {
  expectSecrets(
    'scripts/config.py',
    [
      `GITHUB = "«${github}»"`,
      `SLACK = "«${slack}»"`,
      `OPENAI = "«${openai}»"`,
      `ANTHROPIC = "«${anthropic}»"`,
      `NPM = "«${npm}»"`,
      `SENDGRID = "«${sendgrid}»"`,
      `aws_secret_access_key = "«${awsSecret}»"`,
      `GOOGLE = "«${google}»"`,
      `STRIPE = "«${stripe}»"`,
      `DB = "«postgres://app:${body(16, undefined, 61)}@db.internal.corp:5432/orders»"`,
      `HOOK = "«https://deploy:${body(16, undefined, 67)}@ci.internal.corp»/hook"`,
    ].join('\n') + '\n',
    [
      'a GitHub token',
      'a Slack token',
      'an OpenAI API key',
      'an Anthropic API key',
      'an npm token',
      'a SendGrid API key',
      'an AWS secret access key',
      'a Google API key',
      'a Stripe live key',
      'a database connection string with its password',
      'a password in a URL',
    ],
  );
});

test('committed_secret: every rule of the preset is hinted, and a token of each other format reaches its rule', () => {
  // A rule with no hint runs on every text: correct, but one a later secretlint adds should get its hint.
  assert.deepEqual(unhintedRules(), []);
  const hex = '0123456789abcdef';
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const tokens: [string, string][] = [
    ['shp' + 'at_' + body(32, undefined, 43), 'a Shopify token'],
    ['gl' + 'pat-' + body(20, undefined, 47), 'a GitLab token'],
    ['gl' + 'sa_' + body(32, undefined, 53) + '_' + body(8, hex, 59), 'a Grafana token'],
    ['gs' + 'k_' + body(52, undefined, 79), 'a Groq API key'],
    ['hf' + '_' + body(34, letters, 83), 'a Hugging Face token'],
    ['lin' + '_api_' + body(40, undefined, 89), 'a Linear API key'],
    ['nt' + 'n_' + body(11, '0123456789', 97) + body(35, undefined, 101), 'a Notion token'],
    ['hv' + 's.' + body(95, undefined, 103), 'a HashiCorp Vault token'],
    ['vc' + 'p_' + body(40, undefined, 107), 'a Vercel token'],
    ['da' + 'pi' + body(32, hex, 109), 'a Databricks token'],
    ['dck' + 'r_pat_' + body(27, undefined, 113), 'a Docker access token'],
    ['fi' + 'gd_' + body(45, undefined, 127), 'a Figma token'],
  ];
  expectSecrets(
    'scripts/tokens.py',
    tokens.map(([token], at) => `T${at} = "«${token}»"`).join('\n') + '\n',
    tokens.map(([, provider]) => provider),
  );
});

test('committed_secret: a private key block, a GCP service account key file, an .npmrc token', () => {
  expectSecrets(
    'scripts/setup.sh',
    `cat > key.pem <<EOF\n«-----BEGIN PRIVATE KEY-----»\n${pemBody.join('\n')}\n-----END PRIVATE KEY-----\nEOF\n`,
    ['a private key'],
  );
  const key = `-----BEGIN PRIVATE KEY-----\\n${pemBody.join('\\n')}\\n-----END PRIVATE KEY-----\\n`;
  expectSecrets(
    'assets/service-account.json',
    `{\n  "type": "service_account",\n  "private_key_id": "${body(40, '0123456789abcdef', 71)}",\n  "private_key": "«-----BEGIN PRIVATE KEY-----»${key.slice(27)}"\n}\n`,
    ['a Google Cloud service account key'],
  );
  const token = body(36, undefined, 73);
  expectSecrets('assets/.npmrc', `//registry.npmjs.org/:_authToken=«${token}»\n`, ['an npm token']);
});

test('committed_secret: each value once per file, masked in the message', () => {
  const analysis = expectSecrets('scripts/config.py', `A = "«${github}»"\nB = "${github}"\n`, ['a GitHub token']);
  const [found] = withCode(analysis, 'committed_secret');
  assert.ok(!found.message.includes(github.slice(6)), 'masked');
  assert.match(found.message, /\(ghp_… \(40 characters\)\)/);
});

test('committed_secret: placeholders, published values, fixtures and cut values are no errors', () => {
  quiet(
    'scripts/setup.sh',
    [
      // AWS's documented example keys, with their marker.
      'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      // A body of x's, a run typed as a stand-in, a value cut for the reader.
      `export GITHUB_TOKEN=${'gh' + 'p_' + 'x'.repeat(36)}`,
      `export SLACK_BOT_TOKEN=${'xox' + 'b-'}123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx`,
      `export GITHUB_TOKEN=${github}...`,
      `export ANTHROPIC_API_KEY=${'sk-' + 'ant-api03-'}${'X'.repeat(93)}AA`,
      `export NPM_TOKEN=${'np' + 'm_'}FAKE${body(32, undefined, 79)}`,
      // Published: GitHub's documentation token, Google's reCAPTCHA test secret.
      `TOKEN=${'gh' + 'p_'}16C7e42F292c6912E7710c838347Ae178B4a`,
      `GOOGLE=${'AI' + 'za'}${body(35, upper, 83).replace(/./g, 'Q')}`,
      // Stripe's test keys are no credential; a private key's header over no key; a URL with a placeholder.
      `STRIPE=${'sk' + '_test_'}${body(24, undefined, 89)}`,
      '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
      'DATABASE_URL=postgres://user:password@localhost:5432/app',
      'DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app',
      // A local setup's default password, or the user's own name: a development database.
      'DATABASE_URL=postgresql://postgres:postgres@db:5432/app_dev',
      'MONGO_URL=mongodb://admin:admin@mongo.internal.corp:27017',
    ].join('\n') + '\n',
  );
});

/** The secret_assignment findings (a preview rule) of a file of the skill: the values it reports. */
function guesses(relative: string, text: string): string[] {
  const { analysis } = analyzeWithPreview('tidy', SKILL, { [relative]: text });
  return withCode(analysis, 'secret_assignment').map((item) => {
    const file = analysis.sources.get(item.file) ?? text;
    return file.slice(item.span.start, item.span.end);
  });
}

test('secret_assignment: a random value under a secret name, once, quiet where committed_secret reports', () => {
  const value = body(32, undefined, 97);
  const marked = unmark(`api_key = "«${value}»"\nAPI_KEY = "${value}"\nGITHUB_TOKEN = "${github}"\n`);
  const { analysis } = analyzeWithPreview('tidy', SKILL, { 'scripts/config.py': marked.text });
  const found = withCode(analysis, 'secret_assignment');
  assert.deepEqual(
    found.map((item) => [item.span.start, item.span.end, item.severity]),
    marked.spans.map((span) => [span.start, span.end, 'information']),
  );
  assert.match(found[0].message, /The value of `api_key` looks like a secret \(.{4}… \(32 characters\)\)/);
});

test('secret_assignment: fixtures, tests, examples, placeholders, hashes, identifiers and code are no secrets', () => {
  const value = body(32, undefined, 101);
  assert.deepEqual(guesses('scripts/config.py', `secret_key = "${value}"\n`), [value]);
  // Files of tests and fixtures.
  assert.deepEqual(guesses('tests/config.py', `secret_key = "${value}"\n`), []);
  assert.deepEqual(guesses('scripts/test_config.py', `secret_key = "${value}"\n`), []);
  assert.deepEqual(guesses('fixtures/app.env', `SECRET_KEY=${value}\n`), []);
  const lines = [
    // Placeholders, examples of the mistake, a published test value.
    'API_KEY = "your-api-key-here-0123"',
    `password = "hardcoded-password-123"  # NEVER DO THIS`,
    `const API_KEY = '${'sk' + '_live_'}abc123xyz789';`,
    `BRAVE_API_KEY: "${body(22, undefined, 103)}",  // hardcoded secret!`,
    `SECRET_KEY = '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe'`,
    `TOKEN = "${value.slice(0, 20)}..."`,
    // Hashes: under a name that says so, or hex of a digest's length.
    `token_sha256 = "${body(44, undefined, 107)}"`,
    `secret_digest: ${body(30, undefined, 109)}`,
    `api_key = "${body(40, '0123456789abcdef', 113)}"`,
    // Identifiers and code.
    'token = response.nextPageToken2',
    'token: oauth2_token_present',
    'secret = base64.urlsafe_b64encode(os.urandom(32))',
    // Nothing after `=`: the next line is not its value.
    'API_KEY=',
    `${value}`,
  ];
  assert.deepEqual(guesses('scripts/config.py', lines.join('\n') + '\n'), []);
});
