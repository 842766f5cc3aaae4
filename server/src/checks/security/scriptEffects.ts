import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { Span } from '../../parse/text/lineIndex';
import { isCredentialPath } from '../../platforms/credentialStores';
import { persistence, remoteCode, riskyCommand, riskyExecution, SENDS_CREDENTIALS } from './riskyExecution';

// What a helper script (Python, JavaScript) does, as a small model its readers share: values that hold a secret, a
// download or decoded text, followed to the calls that send them, run them, or write where they outlast the task.
// The readers (pythonEffects.ts, javascriptEffects.ts) say what each call of their language is; this file says what
// is a secret, where it belongs, and how each finding reads.

/** What a value holds that matters where it goes: where it came from, for the message. */
export interface Source {
  kind: 'credential_file' | 'secret_env' | 'environment' | 'download' | 'decoded';
  /** `~/.aws/credentials`, `GITHUB_TOKEN`, `the environment`, `https://…`, `base64`. */
  what: string;
  /** The line (1-based) it was read on. */
  line: number;
}

/**
 * A value as far as the reader knows it: its text (a path, an address, a command) with `UNKNOWN` for what it cannot
 * tell and `~` for the home folder; what it holds; and what it is when it is an object that sends (`socket`, a client
 * made for a host) or a module.
 */
export interface Value {
  text?: string;
  sources: Source[];
  object?: string;
  /** Where the text's first character is in the file, when the text is one literal as written (no escapes). */
  at?: number;
}

/** Past this many expressions read, a file is read no further: a large generated file costs a bounded amount. */
export const MAX_STEPS = 200_000;
/** At most this many functions are read again with the values a call passes them. */
export const MAX_BOUND_CALLS = 100;

/** What a script's reader knows at a place: the values of its names, in a function or at the top of the file. */
export interface Scope {
  values: Map<string, Value>;
  outer?: Scope;
  /** The function read, for messages; undefined at the top of the file. */
  inFunction?: string;
  /** Whether the function is read with the values a call passed (its calls then use what functions return). */
  bound: boolean;
  returns: Value[];
}

/**
 * A call to a function of the script, as both readers follow one: given a secret, the function is read again with
 * the values passed (at most MAX_BOUND_CALLS times a file), else for what it returns, once; a function that calls
 * itself returns nothing of note meanwhile.
 */
export function localCalls<Fn>(
  readFunction: (fn: Fn, args: Value[], bound: boolean) => Value,
): (fn: Fn, args: Value[], scope: Scope) => Value {
  const summaries = new Map<Fn, Value>();
  let boundCalls = 0;
  return (fn, args, scope) => {
    if (!scope.bound && args.some((arg) => arg.sources.length > 0) && boundCalls++ < MAX_BOUND_CALLS)
      return readFunction(fn, args, true);
    if (!summaries.has(fn)) {
      summaries.set(fn, NOTHING);
      summaries.set(fn, readFunction(fn, [], true));
    }
    return summaries.get(fn)!;
  };
}

export const UNKNOWN = '\u0000';
export const NOTHING: Value = { sources: [] };
/** A value holds at most this many sources: a long chain of concatenations stays small. */
const MAX_SOURCES = 6;

/** The sources of several values, each once. */
export function sourcesOf(values: readonly (Value | undefined)[]): Source[] {
  const sources: Source[] = [];
  for (const value of values)
    for (const source of value?.sources ?? [])
      if (sources.length < MAX_SOURCES && !sources.some((s) => s.kind === source.kind && s.what === source.what))
        sources.push(source);
  return sources;
}

/** The credentials file a path names, as shown (`~/.aws/credentials`), or undefined. */
export function credentialFile(path: string | undefined): string | undefined {
  if (path === undefined || !isCredentialPath(path)) return undefined;
  return path.replaceAll(UNKNOWN, '…');
}

/** A variable's name that says it holds a secret: `GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`. */
export function secretName(name: string): boolean {
  return /(?:^|_)(?:[A-Z]*TOKEN|(?:API_?|ACCESS_|PRIVATE_)?KEY|SECRET(?:_KEY)?|PASSWORD|PASSWD|CREDENTIALS?)(?:_|$)/i.test(
    name,
  );
}

/** Words of a variable's name that say nothing of the service it is for. */
const GENERIC = new Set(
  'api key token secret access private password passwd credential credentials auth bearer bot client id user personal pat app my env prod dev default'.split(
    ' ',
  ),
);
/** Short names of services whose hosts spell them out. */
const SERVICE_ALIASES: Record<string, string> = { gh: 'github', hf: 'huggingface', gcp: 'google', gcloud: 'google' };

/** The host of an address whose host is known, or undefined. */
export function hostOf(address: string | undefined): string | undefined {
  const host =
    address === undefined ? undefined : /^[a-z][a-z0-9+.-]*:\/\/([^/:?#\s@]+)(?=[/:?#]|$)/i.exec(address)?.[1];
  return host && !host.includes(UNKNOWN) ? host.toLowerCase() : undefined;
}

/**
 * Where a secret from the environment belongs. A token is there to be sent to its service: to the API it names
 * (`GITHUB_TOKEN` to `api.github.com`), or to an address the script is given rather than one written in it. It is
 * out of place only at an address written in the script whose host has none of the words of its name that name a
 * service (`AWS_SECRET_ACCESS_KEY` posted to `collector.example`). A name that names no service (`API_KEY`) belongs
 * to whatever the script calls.
 */
export function belongsAt(name: string, address: string | undefined): boolean {
  const host = hostOf(address);
  if (!host) return true;
  const services = name
    .toLowerCase()
    .split(/[_\W]+/)
    .filter((word) => word.length > 1 && !GENERIC.has(word) && !/^\d+$/.test(word))
    .map((word) => SERVICE_ALIASES[word] ?? word);
  return services.length === 0 || services.some((word) => host.includes(word));
}

/** How a finding names where it is: the function it is in, or the script. */
function subject(inFunction: string | undefined): string {
  return inFunction ? `\`${inFunction}()\`` : 'This script';
}

function describe(source: Source): string {
  switch (source.kind) {
    case 'credential_file':
      return `the contents of \`${source.what}\` (read at line ${source.line})`;
    case 'secret_env':
      return `\`${source.what}\` from the environment (read at line ${source.line})`;
    case 'environment':
      return `the whole environment (read at line ${source.line})`;
    case 'download':
      return `code downloaded${source.what ? ` from \`${source.what}\`` : ''} (at line ${source.line})`;
    case 'decoded':
      return `code decoded with \`${source.what}\` (at line ${source.line})`;
  }
}

/** What a call sends out, if it is credentials out of place: a finding at the call, or none. */
export function sendFinding(
  file: string,
  span: Span,
  sent: Source[],
  destination: { to?: string; how: string; inFunction?: string; headerOnly?: boolean },
): Diagnostic | undefined {
  // A file of logins, or the whole environment, is no one service's: sent anywhere, it leaves the machine. A token in
  // the environment is sent where it belongs, and always belongs in the headers that carry it (Authorization).
  const leaked = sent.filter(
    (source) =>
      source.kind === 'credential_file' ||
      source.kind === 'environment' ||
      (source.kind === 'secret_env' && !destination.headerOnly && !belongsAt(source.what, destination.to)),
  );
  if (leaked.length === 0) return undefined;
  const to = destination.to ? ` to \`${destination.to.replaceAll(UNKNOWN, '…').slice(0, 100)}\`` : '';
  return diagnostic(
    riskyCommand,
    file,
    span,
    `${subject(destination.inFunction)} ${destination.how} ${leaked.map(describe).join(' and ')}${to}. ${SENDS_CREDENTIALS.advice}`,
    { risk: SENDS_CREDENTIALS.what },
  );
}

/** Code run from a download (remote_code) or from decoded text (risky_command): a finding at the call, or none. */
export function runFinding(file: string, span: Span, run: Source[], how: string, inFunction?: string) {
  const downloaded = run.find((source) => source.kind === 'download');
  const decoded = run.find((source) => source.kind === 'decoded');
  const source = downloaded ?? decoded;
  if (!source) return undefined;
  return downloaded
    ? diagnostic(
        remoteCode,
        file,
        span,
        `${subject(inFunction)} ${how} ${describe(source)}. Whatever the address serves then runs with the user's permissions, and may change after review. Ship the code with the skill.`,
        { risk: 'runs code it downloads', ...(hostOf(source.what) ? { url: source.what } : {}) },
      )
    : diagnostic(
        riskyCommand,
        file,
        span,
        `${subject(inFunction)} ${how} ${describe(source)}, which no reviewer reads. Ship the code as it runs, readable, in a script of the skill.`,
        { risk: 'runs code it decodes from an encoded blob, which no reviewer reads' },
      );
}

/** Files a shell, SSH or Git trusts (risky_command, as the shell reader says of `>> ~/.bashrc`). */
const TRUSTED_FILE =
  /^~[/\\]\.(?:bashrc|zshrc|profile|bash_profile|zprofile|ssh[/\\](?:authorized_keys|config)|gitconfig)$/;
/** Places whose files run again after the task: Git hooks, launch agents, systemd user units, autostart entries. */
const LASTING_PLACE =
  /(?:^|[/\\])\.git[/\\]hooks[/\\]|(?:^|[/\\])Library[/\\]Launch(?:Agents|Daemons)[/\\]|\.config[/\\](?:systemd[/\\]user|autostart)[/\\]|^[/\\]etc[/\\](?:cron|systemd)/;

/** A file written by the script, if where it is makes it outlast the task: a finding at the call, or none. */
export function writeFinding(file: string, span: Span, path: string | undefined, inFunction?: string) {
  if (path === undefined) return undefined;
  const shown = path.replaceAll(UNKNOWN, '…');
  if (TRUSTED_FILE.test(path))
    return diagnostic(
      riskyCommand,
      file,
      span,
      `${subject(inFunction)} writes into \`${shown}\`, a file the shell, SSH or Git trusts, outside the skill and the project. Keep what the skill does inside the skill folder and the project.`,
      { risk: 'writes into a file the shell, SSH or Git trusts, outside the skill and the project' },
    );
  if (LASTING_PLACE.test(path))
    return diagnostic(
      persistence,
      file,
      span,
      `${subject(inFunction)} writes \`${shown}\`, which runs again after the task (a Git hook, a login agent, a service). If the user asked for it, say so where the script does it; else leave nothing behind after the task.`,
      { risk: 'leaves something to run after the task (a scheduled job, a service started at login, a Git hook)' },
    );
  return undefined;
}

/**
 * What a command a script runs does, read as the shell reads it (riskyExecution.ts): `curl … | sh`, `crontab -`,
 * `scp ~/.ssh/id_rsa host:`. Placed in the literal when the command is one as written, else on the call.
 */
export function commandFindings(file: string, command: Value, call: Span): Diagnostic[] {
  if (command.text === undefined) return [];
  const text = command.text.replaceAll(UNKNOWN, '$X');
  if (command.at !== undefined) return riskyExecution(file, [{ start: command.at, text }]);
  return riskyExecution(file, [{ start: 0, text }]).map((found) => ({ ...found, span: call }));
}

/** The first line of `program` a sending program (`curl`, `nc`, `scp`…) runs as: it sends its arguments. */
export const SENDING_PROGRAM = /^(?:.*[/\\])?(?:curl|wget|nc|ncat|netcat|ssh|scp|sftp|rsync|socat|ftp|http|https)$/;

/** The first web address in a text. */
export function addressIn(text: string | undefined): string | undefined {
  return text === undefined ? undefined : (/https?:\/\/[^\s'"|)`;<>]+/.exec(text)?.[0] ?? undefined);
}

/** TLS certificate checks turned off by a call (`verify=False`, an unverified SSL context): a finding at the call. */
export function tlsFinding(file: string, span: Span, how: string, inFunction?: string): Diagnostic {
  return diagnostic(
    riskyCommand,
    file,
    span,
    `${subject(inFunction)} turns off TLS certificate checks (${how}): any server on the way can read and change what it sends and receives. Keep the checks on.`,
    { risk: 'turns off TLS certificate checks' },
  );
}

/** An environment variable read by name: the home folder as `~`, a secret by its name, else nothing of note. */
export function environmentValue(name: string | undefined, line: number): Value {
  if (name === 'HOME' || name === 'USERPROFILE') return { text: '~', sources: [] };
  return name !== undefined && secretName(name) ? { sources: [{ kind: 'secret_env', what: name, line }] } : NOTHING;
}

/** Where each line of a text starts, for `lineOf`. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The line (1-based) an offset is on. */
export function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/**
 * Whether a script names anything its effects are made of: code run from text, a file the shell trusts, TLS checks, a
 * program that sends, or both a secret's source and a way to send. A script naming none has no effect to find, and is
 * not parsed (parsing is most of what reading a script costs).
 */
export function mayHaveEffects(text: string): boolean {
  // Only what the readers report on: `verify=False` (not every `verify`), a shell's profile file (not a profiler),
  // `exec`/`eval` (`re.compile` runs nothing).
  return OTHER_EFFECT_HINT.test(text) || (SOURCE_HINT.test(text) && SINK_HINT.test(text));
}

const OTHER_EFFECT_HINT =
  /\b(?:exec|eval|Function|vm|pickle|marshal|b64decode|atob|decompress|fromhex|rot_?13|unverified|CERT_NONE|rejectUnauthorized|NODE_TLS_REJECT_UNAUTHORIZED|curl|wget|nc|ncat|netcat|socat|scp|rsync|crontab|schtasks|launchctl|systemctl)\b|\bverify\s*=\s*False\b|bashrc|zshrc|\.(?:bash_|z)?profile\b|authorized_keys|hooks|LaunchAgents|systemd|Buffer\.from/;
const SOURCE_HINT =
  /environ|getenv|process\.env|expanduser|homedir|home\(|HOME|\.aws|\.ssh|netrc|npmrc|pypirc|\.docker|\.kube|credentials|\.env\b|keyring|keychain|Cookies|Login Data|generic-password|hosts\.ya?ml/;
const SINK_HINT =
  /requests|urllib|http|socket|smtp|ftp|paramiko|xmlrpc|fetch|axios|\bgot\b|\bnet\b|\btls\b|subprocess|os\.system|popen|child_process|spawn|\bexec/;
