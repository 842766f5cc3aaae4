import * as path from 'node:path';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type {
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintRuleReportHandler,
  SecretLintSourceCode,
} from '@secretlint/types';

// secretlint's recommended rules, run in-process and synchronously: the language server checks a skill on every
// keystroke, and secretlint's own engine is asynchronous. Each rule is created once through secretlint's documented
// rule API (`create(context, options)` returns a `file(source)` handler that calls `context.report`); its messages,
// which repeat the secret, are never built.

/** A credential a rule found in a text: which rule, what kind (`a GitHub token`), and where. */
export interface SecretlintFinding {
  rule: string;
  provider: string;
  start: number;
  end: number;
}

/** What each rule finds, named as a message says it; a rule with several kinds names each by its message id. */
const PROVIDERS: Record<string, string> = {
  aws: 'an AWS secret access key',
  gcp: 'a Google Cloud service account key',
  privatekey: 'a private key',
  npm: 'an npm token',
  PackageJSON_xOauthToken: 'a GitHub token',
  basicauth: 'a password in a URL',
  slack: 'a Slack token',
  IncomingWebhook: 'a Slack webhook URL',
  sendgrid: 'a SendGrid API key',
  shopify: 'a Shopify token',
  github: 'a GitHub token',
  gitlab: 'a GitLab token',
  grafana: 'a Grafana token',
  openai: 'an OpenAI API key',
  anthropic: 'an Anthropic API key',
  groq: 'a Groq API key',
  huggingface: 'a Hugging Face token',
  linear: 'a Linear API key',
  notion: 'a Notion token',
  '1password': 'a 1Password service account token',
  'database-connection-string': 'a database connection string with its password',
  'hashicorp-vault': 'a HashiCorp Vault token',
  vercel: 'a Vercel token',
  databricks: 'a Databricks token',
  docker: 'a Docker access token',
  figma: 'a Figma token',
};

/**
 * The preset's rules we do not run. `filter-comments` reports nothing: it honours `secretlint-disable` comments,
 * and this tool's rules are turned off in its own configuration.
 */
const LEFT_OUT = new Set(['filter-comments']);

/**
 * Rules that report a value from where its whole match starts (the name it is assigned to, `_authToken=`, `https://`)
 * with the value's length: the value itself starts after the first of these from there.
 */
const VALUE_AFTER: Record<string, RegExp> = { aws: /(?:[:=]>?)[ \t]*["']?/, npm: /=|:\/\// };

/**
 * What every credential a rule reports holds, read from the rule's own patterns (secretlint 11's preset): one pass over
 * a text with all of them (case-insensitive, so a hint is never stricter than its rule) finds the rules that can report
 * in it, and only those run — running each rule over every text was most of what the security rules cost. A rule not
 * listed runs on every text, so one a later secretlint adds is never skipped (a test names the unlisted).
 */
export const HOLDS: Record<string, string> = {
  // The secret access key assigned to its name; the key and account ids are scanned only when asked (not here).
  aws: String.raw`secret_?access`,
  gcp: 'PRIVATE KEY',
  privatekey: 'PRIVATE KEY',
  npm: String.raw`npm_|_authToken|x-oauth-basic`,
  basicauth: String.raw`:\/\/[-\w]{1,256}:[-\w]{1,256}@`,
  slack: String.raw`xox[bpaor]-|xapp-|hooks\.slack\.com`,
  sendgrid: String.raw`SG\.`,
  shopify: String.raw`shp(?:pa|ca|at|ss)_`,
  github: String.raw`gh[pousr]_|github_pat_`,
  gitlab: 'glpat-',
  grafana: 'glc_|glsa_',
  openai: 'T3BlbkFJ',
  anthropic: 'sk-ant-api0',
  groq: 'gsk_',
  huggingface: 'hf_',
  linear: 'lin_api_',
  notion: 'ntn_',
  '1password': 'ops_ey',
  'database-connection-string': String.raw`mongodb|mysql|postgres`,
  'hashicorp-vault': String.raw`hv[sbr]\.`,
  vercel: 'vc[piakr]_',
  databricks: 'dapi',
  docker: 'dckr_pat_',
  figma: 'figd_',
};

/** Where the rule being run reports: the host runs one rule on one text at a time, synchronously. */
let sink: { rule: string; text: string; found: SecretlintFinding[] } | undefined;

const shortId = (rule: SecretLintRuleCreator<unknown>) => rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');

function created(rule: SecretLintRuleCreator<unknown>, options: unknown): SecretLintRuleReportHandler {
  const context: SecretLintRuleContext = {
    sharedOptions: {},
    // The message id is all the host keeps: the English message would hold the secret itself.
    createTranslator: () => (messageId) => ({ message: String(messageId), messageId: String(messageId), data: {} }),
    report({ message, range }) {
      if (!sink) return;
      const id = sink.rule;
      const provider = PROVIDERS[message.messageId] ?? PROVIDERS[id] ?? `a ${id} credential`;
      const [start, end] = range;
      const after = VALUE_AFTER[id]?.exec(sink.text.slice(start, end));
      const shift = after ? after.index + after[0].length : 0;
      sink.found.push({ rule: id, provider, start: start + shift, end: end + shift });
    },
    ignore: () => undefined,
  };
  return rule.create(context, options);
}

/** The preset's rules with the options it registers them with (its defaults: AWS's key ids are not scanned). */
const RULES: { id: string; handler: SecretLintRuleReportHandler }[] = [];
recommended.create(
  {
    sharedOptions: {},
    registerRule(rule, defaults) {
      const id = shortId(rule as SecretLintRuleCreator<unknown>);
      if (!LEFT_OUT.has(id))
        RULES.push({ id, handler: created(rule as SecretLintRuleCreator<unknown>, defaults?.options ?? {}) });
    },
  },
  {},
);

/** Each hint as a group of one pattern (the hints hold no groups of their own), with the rules it stands for. */
const HINTS = [...new Set(Object.values(HOLDS))];
const HINTED = HINTS.map((hint) => Object.keys(HOLDS).filter((id) => HOLDS[id] === hint));
const ANY_HINT = new RegExp(HINTS.map((hint) => `(${hint})`).join('|'), 'gi');

/** The preset's rules run on every text, with no hint: none, unless a later secretlint adds one (a test says so). */
export const unhintedRules = () => RULES.filter((rule) => !(rule.id in HOLDS)).map((rule) => rule.id);

/** The rules that can report in `text`, in the preset's order (on a tie, the first rule's finding is kept). */
function rulesFor(text: string): typeof RULES {
  const hinted = new Set<string>();
  for (const match of text.matchAll(ANY_HINT))
    for (const id of HINTED[match.findIndex((group, at) => at > 0 && group !== undefined) - 1]) hinted.add(id);
  return RULES.filter((rule) => hinted.has(rule.id) || !(rule.id in HOLDS));
}

/**
 * What secretlint's recommended rules find in `text`, the content of `file` (or of part of it). Only the file's name
 * and extension reach the rules (npm's reads `.npmrc`, GCP's reads `.json`): the one handler that would read the file
 * itself, GCP's for a `.p12` key, is asynchronous and is never given one (the host reads text files only, and passes
 * no path a rule could open). A handler that still returned a promise would report after this returns: its reports
 * go nowhere.
 */
export function secretlintFindings(file: string, text: string): SecretlintFinding[] {
  const ext = path.extname(file);
  // The fields the scanner rules read; the others (positions, the path on disk) are for the filter rules left out.
  const source = {
    content: text,
    filePath: path.basename(file),
    physicalFilePath: undefined,
    ext: ext === '.p12' ? '' : ext,
    contentType: 'text',
    hasBOM: false,
  } as unknown as SecretLintSourceCode;
  const found: SecretlintFinding[] = [];
  for (const { id, handler } of rulesFor(text)) {
    sink = { rule: id, text, found };
    try {
      void handler.file?.(source);
    } catch {
      // A rule that throws on a text finds nothing in it: a check never throws on bad input.
    } finally {
      sink = undefined;
    }
  }
  return found;
}
