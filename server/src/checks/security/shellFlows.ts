import type { Placed } from './skillTexts';

/**
 * The files a user's credentials are kept in, by their usual place in the home folder: cloud and registry logins, SSH
 * private keys (not `.pub`), netrc and Git's store.
 */
export const CREDENTIAL_FILES = String.raw`(?:~|\$HOME|\$\{HOME\})/\.(?:aws/credentials|ssh/id_[a-z0-9_]+(?![\w.])|netrc|git-credentials|docker/config\.json|kube/config|npmrc|pypirc|config/gcloud/[\w.-]+)`;

// What a script does across its lines that no one line shows: a program downloaded to a file and run later, and
// credentials read in one place while data leaves the machine in another (through a temporary file, a function's
// argument, a hashtable turned into a request body). The shell's values are not followed through every construct;
// a script that does both is told, at the line that sends, with the line that read.

/** An address on this machine, as a host name or IP: a hook or a request may talk to a local service. */
export const LOCAL_HOST = String.raw`localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0`;

/** A request that carries data off the machine (a body, a form, an upload), or a pipe or file into a raw socket. */
export const SENDS_DATA =
  /\b(?:curl|wget|xh|http|https|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^|;&\n]*?(?:\s(?:-d|--data[\w-]*|-F|--form|-T|--upload-file|--post-(?:data|file)|-Body|-InFile)\b|\s-X\s*["']?(?:POST|PUT|PATCH)\b|\s-Method\s+["']?(?:Post|Put|Patch)\b)|\|\s*(?:curl|wget|nc|ncat|netcat|socat|ssh)\b|\b(?:nc|ncat|netcat|socat)\s+(?:-\w+\s+\S+\s+)*[\w.$"{}-]+\s+\d+|\b(?:scp|rsync|sftp)\b[^\n]*\s["']?[\w.$@{}-]+:/i;

/**
 * Credentials a script reads: a credentials file (a shell's `~/.aws/credentials`, PowerShell's `.aws\credentials`
 * under the profile), the SSH private keys (`id_*`), or the whole environment.
 */
const READS_CREDENTIALS =
  /\.aws[\\/]credentials\b|\.ssh[\\/](?!config\b|known_hosts\b|authorized_keys\b|[\w.-]*\.pub\b)[\w.*-]+|["'/\\]id_(?:rsa|dsa|ecdsa|ed25519|\*)(?![\w.])|\.git-credentials\b|\.netrc\b|\.docker[\\/]config\.json\b|\.kube[\\/]config\b|\.config[\\/]gh[\\/]hosts\.ya?ml\b|\b(?:Get-ChildItem|gci|dir|ls)\s+env:|\[Environment\]::GetEnvironmentVariables|(?:^|[|;&(`]\s*|\$\(\s*)(?:env|printenv)\s*(?:$|[|)>;&`])/i;
/** A line that names a key to use it or check it, not to read it: an identity, a fingerprint, a test. */
const USES_KEY = /\s-i\s|IdentityFile|\bssh-(?:keygen|add|copy-id)\b|\bchmod\b|\bTest-Path\b|\btest\s+-\w\b|\[\s+-\w\s/;
/** A shell variable assigned: `NAME=…`, `export NAME=…`, `local NAME=…`. */
const SHELL_ASSIGNMENT = /^\s*(?:export\s+|local\s+|readonly\s+)?[A-Za-z_]\w*=/;
/** A comment line, or a line that prints: it names things, it does not do them. */
const SAYS = /^\s*(?:#|\/\/|REM\b|echo\b|printf\b|Write-(?:Host|Output)\b)/i;

/** One finding of a flow: where in the piece, what it is, and what the message says of it. */
export interface Flow {
  start: number;
  end: number;
  kind: 'sendsHeldCredentials' | 'sendsCredentials' | 'runsDownload';
  /** The command at the place, as the message quotes it. */
  command: string;
  /** What the message says about where the flow began. */
  origin: string;
  /** The address a download came from, when it names one. */
  url?: string;
}

/** The lines of a piece with their offsets, continuation lines (`\` at the end) joined to the line they continue. */
function logicalLines(piece: Placed): { start: number; number: number; text: string }[] {
  const lines: { start: number; number: number; text: string }[] = [];
  let offset = piece.start;
  let open: { start: number; number: number; text: string } | undefined;
  piece.text.split('\n').forEach((line, index) => {
    if (open) open.text += `\n${line}`;
    else open = { start: offset, number: index + 1, text: line };
    offset += line.length + 1;
    if (!/\\\r?$/.test(line)) {
      lines.push(open);
      open = undefined;
    }
  });
  if (open) lines.push(open);
  return lines;
}

/** Credentials read somewhere in a piece, and data sent elsewhere in it: at the first line that sends. */
function credentialsAndSending(lines: ReturnType<typeof logicalLines>): Flow[] {
  // A shell variable given the credentials (`CREDS=$(cat …)`) is followed line by line (riskyExecution's flows),
  // which knows when it is reassigned: only what that cannot follow is judged here.
  const read = lines.find(
    (line) =>
      !SAYS.test(line.text) &&
      !SHELL_ASSIGNMENT.test(line.text) &&
      READS_CREDENTIALS.test(line.text) &&
      !USES_KEY.test(line.text),
  );
  if (!read) return [];
  const sends = lines.find((line) => !SAYS.test(line.text) && SENDS_DATA.test(line.text));
  if (!sends) return [];
  const what = READS_CREDENTIALS.exec(read.text)![0].replace(/^["'/\\]/, '');
  const at = SENDS_DATA.exec(sends.text)!;
  return [
    {
      start: sends.start + at.index,
      end: sends.start + at.index + at[0].length,
      kind: 'sendsCredentials',
      command: sends.text
        .trim()
        .replace(/\s*\\\n\s*/g, ' ')
        .slice(0, 120),
      origin: `\`${what}\` is read on line ${read.number}`,
    },
  ];
}

/** Where a download is saved: `curl … -o FILE`, `wget … -O FILE`, `Invoke-WebRequest … -OutFile FILE`. */
const SAVED =
  /\b(?:curl|wget|Invoke-WebRequest|iwr)\b[^\n;&|]*?\s(?:-o|--output|-O|--output-document|-OutFile)[=\s]+["']?([^\s"';|&)]+)/i;
/** A command that runs a file: the file itself, or an interpreter, `source`, `.` or PowerShell's `&` given it. */
const RUNNER =
  /^(?:sudo\s+(?:-\w+\s+)*)?(?:(?:bash|sh|zsh|dash|ksh|python[23]?|node|perl|ruby|pwsh|powershell(?:\.exe)?|source|\.|&|Start-Process)\s+(?:-\w+\s+)*)?["']?(\S+?)["']?(?:\s|$)/i;

/** A file downloaded and then run, in the same piece: at the command that runs it. */
function downloadsRun(lines: ReturnType<typeof logicalLines>): Flow[] {
  const saved = new Map<string, { line: number; url?: string }>();
  const flows: Flow[] = [];
  for (const line of lines) {
    if (SAYS.test(line.text)) continue;
    // Each command of the line in turn: `curl -o f … && chmod +x f && ./f` downloads and runs on one line.
    let at = 0;
    for (const command of line.text.split(/&&|\|\||;|\n/)) {
      const start = line.text.indexOf(command, at);
      at = start + command.length;
      const download = SAVED.exec(command);
      if (download) {
        const url = /https?:\/\/[^\s'"|)`;<>]+/.exec(command)?.[0];
        saved.set(download[1].replace(/^\.\//, ''), { line: line.number, url });
        continue;
      }
      const runs = RUNNER.exec(command.trim());
      const target = runs?.[1].replace(/^\.\//, '');
      const from = target !== undefined ? saved.get(target) : undefined;
      if (!from) continue;
      const offset = start + command.indexOf(command.trim());
      flows.push({
        start: line.start + offset,
        end: line.start + offset + command.trim().length,
        kind: 'runsDownload',
        command: command.trim().slice(0, 120),
        origin: from.line === line.number ? 'downloaded on this line' : `downloaded on line ${from.line}`,
        url: from.url,
      });
      saved.delete(target!);
    }
  }
  return flows;
}

/** A comment line: it says, it does not run. */
export const COMMENT_LINE = /^\s*(?:#|\/\/|REM\b)/;
/** An assignment of a shell variable: `NAME=…`, `export NAME=…`, `local NAME=…`. */
const ASSIGNMENT = /^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?([A-Za-z_]\w*)=(.*)$/;
/** What reads credentials into a value: a credentials file, or the whole environment. */
const CREDENTIAL_SOURCE = new RegExp(
  String.raw`${CREDENTIAL_FILES}|\$\(\s*(?:env|printenv)\s*\)|\x60\s*(?:env|printenv)\s*\x60`,
);
/** A program that sends what its command line holds over the network. */
const NETWORK_SINK =
  /\b(?:curl|wget|nc|ncat|netcat|ssh|scp|socat|http|https|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/;

/**
 * Credentials followed through a script's variables: a variable that holds what a credentials file or the environment
 * read (`CREDS=$(cat ~/.aws/credentials)`, or another such variable), named on a line that sends over the network
 * (`curl -d "$CREDS" …`). A value reassigned from elsewhere holds credentials no longer. Reported at the variable the
 * sending line names, with where it was read.
 */
function heldCredentialsSent(piece: Placed): Flow[] {
  const flows: Flow[] = [];
  // Each variable holding credentials: where it was read, what read it, and how a line names it.
  const holding = new Map<string, { line: number; source: string; reference: RegExp }>();
  const named = (text: string) =>
    [...holding].flatMap(([name, held]) => {
      const match = held.reference.exec(text);
      return match ? [{ name, match }] : [];
    });
  let offset = piece.start;
  piece.text.split('\n').forEach((line, index) => {
    const start = offset;
    offset += line.length + 1;
    if (COMMENT_LINE.test(line)) return;
    const assignment = ASSIGNMENT.exec(line);
    if (assignment) {
      const [, name, value] = assignment;
      const source = CREDENTIAL_SOURCE.exec(value)?.[0] ?? named(value).map(({ name }) => holding.get(name)!.source)[0];
      if (source) holding.set(name, { line: index + 1, source, reference: new RegExp(String.raw`\$\{?${name}\b\}?`) });
      else holding.delete(name);
      if (!NETWORK_SINK.test(value)) return;
    }
    if (holding.size === 0 || !NETWORK_SINK.test(line)) return;
    const [sent] = named(line);
    if (!sent) return;
    const { line: read, source } = holding.get(sent.name)!;
    const above = index + 1 - read;
    flows.push({
      start: start + sent.match.index,
      end: start + sent.match.index + sent.match[0].length,
      kind: 'sendsHeldCredentials',
      command: line.trim().slice(0, 120),
      origin: `\`${sent.match[0]}\`, which holds what was read from \`${source}\` ${above === 1 ? 'on the line above' : `${above} lines above`}`,
    });
  });
  return flows;
}

/** The flows across the lines of a script or a block of commands. */
export function shellFlows(piece: Placed): Flow[] {
  if (!/curl|wget|Invoke-WebRequest|iwr|irm|\bnc\b|ncat|netcat|socat|scp|rsync|sftp|xh\b|http|ssh/i.test(piece.text))
    return [];
  const lines = logicalLines(piece);
  return [...heldCredentialsSent(piece), ...credentialsAndSending(lines), ...downloadsRun(lines)];
}
