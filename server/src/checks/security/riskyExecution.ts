import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { blockCommands } from '../../parse/markdown/blockCommands';
import { fenceLanguage, type Fence } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import type { Placed } from './skillTexts';
import { COMMENT_LINE, CREDENTIAL_FILES, LOCAL_HOST } from './shellFlows';
import { COMMAND_LANGUAGES, SHELL_BLOCK_LANGUAGES } from '../../platforms/shells';
import { parseShell } from '../../parse/shell/shell';
import { shellParser } from '../../parse/shell/shellGrammar';
import { valueFlows } from './shellDataFlow';
import { flowFinding, lineFlows } from './flowFindings';
import { defineRule } from '../engine/rule';
import { printed, runsPipedText } from './commandText';
import { argumentOf } from './shellPrograms';

// Commands that hand the user's machine to someone else: code downloaded and run at once, writes into the places a
// shell or SSH trusts, permissions opened to everyone, TLS checks turned off. Read in scripts, and in the fenced
// commands of Markdown; never run.

export const remoteCode = defineRule({
  code: 'remote_code',
  category: 'security',
  severity: 'warning',
  summary: 'A command that runs code it downloads (`curl … | sh`).',
  stability: 'stable',
  formats: 'all',
  security: { severity: '8.1', cwe: ['CWE-494'] },
});

export const riskyCommand = defineRule({
  code: 'risky_command',
  category: 'security',
  severity: 'warning',
  summary:
    'A command that sends credentials out, runs decoded code, writes into shell or SSH files, opens permissions to all, or turns off TLS checks.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '6.5', cwe: ['CWE-732', 'CWE-295'] },
});

/**
 * What outlasts the task is often the task itself (a deployment skill sets up a timer, a repository's script installs
 * its Git hooks), and from a stranger it is how a foothold is kept: a reviewer is told, as information.
 */
export const persistence = defineRule({
  code: 'persistence',
  category: 'security',
  severity: 'information',
  summary:
    "A command that leaves something after the task: a scheduled job, a service or login item, a Git hook, or the user's global configuration changed.",
  stability: 'stable',
  formats: 'all',
  security: { severity: '5.0', cwe: ['CWE-506'], review: true },
});

/** What a script that reads credentials and sends data elsewhere in it does. */
export const READS_AND_SENDS = 'reads credentials and sends data over the network';

/** What sending credentials is, and what to do instead: the same for a command and for a flow through variables. */
/**
 * What turns a blob back into text, in a shell: base64, hex, a rot13 `tr`, a decompressor, a reversal. Piped into an
 * interpreter or evaluated, the blob is what runs.
 */
const SHELL_DECODER = String.raw`\bbase64\s+(?:-d|--decode|-D)\b|\bxxd\s+(?:-p\s+)?-r|\bopenssl\s+(?:enc\s+)?-?base64\s+-d|\btr\s+["']?A-Za-z["']?\s+["']?N-ZA-Mn-za-m|\|\s*(?:gunzip|zcat|rev)\b`;
/** The same in a language's code: its base64, hex and rot13 decoders and decompressors. */
const CODE_DECODER = String.raw`base64\.b64decode|codecs\.decode|zlib\.decompress|bytes\.fromhex|marshal\.loads|\batob\s*\(|Buffer\.from\s*\([^)\n]*["'](?:base64|hex)|Base64\.decode64|\.unpack1?\(\s*["'](?:m0?|H\*)["']|\bpack\(\s*["']H\*|decode_base64|\.tr\(\s*["']A-Za-z["']\s*,\s*["']N-ZA-Mn-za-m|FromBase64String`;

export const SENDS_CREDENTIALS = {
  what: 'sends credentials or the environment over the network',
  advice:
    "Credentials and the environment stay on the user's machine: send only what the task needs, and say where it goes.",
};

interface Risk {
  rule: typeof remoteCode | typeof riskyCommand | typeof persistence;
  pattern: RegExp;
  /** What the command does, for the message and the preview. */
  what: string;
  /** What to do instead, when it is not the code's. */
  advice?: string;
  /** A match that is not the risk after all, told from the line it is in. */
  unless?: (match: RegExpExecArray, line: string) => boolean;
  /** Read a line at a time only where the shell's parser does not go (PowerShell, cmd, another language's block). */
  unparsed?: true;
}

const FETCH = String.raw`(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|fetch)`;
/** A program that sends what it is given over the network. */
const SEND = String.raw`(?:curl|wget|nc|ncat|netcat|ssh|socat)\b`;

const RISKS: Risk[] = [
  {
    rule: remoteCode,
    // A download names what it downloads: past its options, a word (an address, a variable holding one). A `curl|wget`
    // with none is an alternation in a pattern, a list of names, not a command.
    pattern: new RegExp(
      String.raw`\b${FETCH}(?:[ \t]+-\S*)*[ \t]+[^\s|-][^|\n]*\|\s*(?:sudo\s+(?:-\w+\s+)*)?(?:(?:\/[\w.-]+)*\/)?(?:env\s+)?(sh|bash|zsh|dash|ksh|python[23]?|node|perl|ruby|php|iex|Invoke-Expression|pwsh|powershell)\b`,
    ),
    what: 'pipes a download into a shell or an interpreter',
    // The interpreter's own words: up to the end of its command in the pipeline or list, or of the quotes around it
    // (`os.system("curl … | sh")`); a quoted program after an option is decided by the option. A pipe in the text a
    // command prints is no pipe.
    unless: (match, line) =>
      printed(line, match.index + match[0].indexOf('|')) ||
      !runsPipedText(
        match[1],
        line
          .slice(match.index + match[0].length)
          // A comment after the command (`| bash   # macOS / Linux`) is no argument of it.
          .split(/[|;&)"'`]|(?:^|\s)#/)[0]
          .trim()
          .split(/\s+/)
          .filter(Boolean),
      ),
  },
  {
    rule: remoteCode,
    pattern: new RegExp(
      String.raw`(?:\b(?:bash|sh|zsh|source|\.)\s+<\(\s*${FETCH}\b|\b(?:bash|sh|zsh)\s+-c\s+["']?\$\(\s*${FETCH}\b|\beval\s+"?\$\(\s*${FETCH}\b|\biex\s*\(\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|\(?New-Object\s+Net\.WebClient))`,
      'i',
    ),
    what: 'runs code it downloads',
    unless: (match, line) => printed(line, match.index),
  },
  {
    rule: remoteCode,
    // A one-line program given on the command line that both downloads and evaluates what it got.
    pattern:
      /\b(?:node|deno|bun|python[23]?|perl|ruby)\b[^\n]*?\s-(?:e|c|p|-eval)\s+(?=[^\n]*\b(?:fetch|urlopen|requests\.get|https?\.get|urllib|LWP::|open-uri|Net::HTTP)\b)(?=[^\n]*\b(?:eval|exec|Function|compile|instance_eval)\b)/,
    what: 'runs code it downloads',
    unless: (match, line) => printed(line, match.index),
  },
  {
    rule: remoteCode,
    pattern: /\bexec\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|httpx\.get)\s*\(/,
    what: 'runs Python it downloads',
    unless: (match, line) => printed(line, match.index),
  },
  {
    rule: riskyCommand,
    pattern:
      /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?(?:~|\$HOME|\$\{HOME\})\/\.(?:bashrc|zshrc|profile|bash_profile|zprofile|ssh\/authorized_keys|ssh\/config|gitconfig)\b|(?:>>?|\btee\s+(?:-a\s+)?)\s*\/etc\/|\b(?:cp|mv|install)\b[^\n]*\s(?:~|\$HOME)\/\.ssh\//,
    what: 'writes into a file the shell, SSH or Git trusts, outside the skill and the project',
  },
  {
    rule: riskyCommand,
    pattern: new RegExp(
      [
        // The environment, or a credentials file, piped into a program that sends it (through others on the way).
        String.raw`\b(?:env|printenv)\s*(?:\|[^|\n]*)*?\|\s*${SEND}`,
        String.raw`\b(?:cat|base64|gzip|xxd|tar)\b[^|\n]*${CREDENTIAL_FILES}[^|\n]*(?:\|[^|\n]*)*?\|\s*${SEND}`,
        // Or uploaded by name: `-d @file`, `-F name=@file`, `-T file`.
        String.raw`\b(?:curl|wget)\b[^\n]*\s(?:(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form)[=\s]+["']?(?:[\w.-]+=)?@["']?|(?:-T|--upload-file|--post-file)[=\s]+["']?)(?:${CREDENTIAL_FILES}|\.env\b)`,
        // Or copied to another machine (an identity given with `-i` is a key used, not sent), or fed to one.
        String.raw`\b(?:scp|rsync|sftp)\b[^\n]*?(?<!-i\s+["']?)${CREDENTIAL_FILES}`,
        String.raw`\bssh\b[^\n|]*<\s*["']?${CREDENTIAL_FILES}`,
      ].join('|'),
    ),
    ...SENDS_CREDENTIALS,
    unparsed: true,
  },
  {
    rule: riskyCommand,
    pattern: new RegExp(
      [
        // Decoded and run at once: what runs is a blob no reviewer reads. Any decoder a shell pipes or evaluates.
        String.raw`(?:${SHELL_DECODER})[^|\n]*(?:\|[^|\n]*)*?\|\s*(?:sudo\s+)?(?:sh|bash|zsh|dash|python[23]?|perl|ruby|node)\b`,
        String.raw`\beval\s+["']?\$\([^)\n]*(?:${SHELL_DECODER})`,
        // A language's own eval of what it decodes on the same line (`exec(base64.b64decode(…))`, Ruby's
        // `eval %q(…).tr("A-Za-z", "N-ZA-Mn-za-m")`, Perl's `eval decode_base64(…)`).
        String.raw`\b(?:exec|eval|instance_eval|class_eval)\b\s*\(?[^\n]{0,200}?(?:${CODE_DECODER})`,
        String.raw`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{20,}`,
        String.raw`\b(?:iex|Invoke-Expression)\b[^\n]*FromBase64String`,
      ].join('|'),
      'i',
    ),
    what: 'runs code it decodes from an encoded blob, which no reviewer reads',
    unless: (match, line) => printed(line, match.index),
    advice: 'Ship the code as it runs, readable, in a script of the skill.',
  },
  {
    rule: riskyCommand,
    // A shell whose input and output are a connection: whoever is at the other end runs commands as the user.
    pattern:
      /\/dev\/(?:tcp|udp)\/[\w.$-]+\/\d+|\b(?:nc|ncat|netcat)\b[^|;&\n]*\s-[ec]\s*["']?\S*\b(?:sh|bash|zsh|cmd(?:\.exe)?|powershell)\b|\bsocat\b[^\n]*\bexec:|\bmkfifo\b[^\n]*\|\s*(?:nc|ncat|netcat)\b/i,
    what: 'opens a shell that another machine controls (a reverse shell)',
    unless: (match, line) => printed(line, match.index),
    advice: 'No task of a skill needs this: remove it.',
  },
  {
    rule: riskyCommand,
    // The user's home folder or the whole system deleted: no task of a skill on a project needs it.
    pattern:
      /\brm\s+(?:-\w+\s+)*-\w*[rR]\w*\s+(?:-\w+\s+)*(?:--no-preserve-root\s+)?["']?(?:~|\$HOME|\$\{HOME\}|\/)(?:\/\*?|\/\.\[!\.\]\*)?["']?(?=\s|$|;|&|\|)/,
    what: "deletes the user's home folder or the whole system",
    unless: (match, line) => printed(line, match.index),
    advice: 'Delete only what the task made, inside the project, by name.',
  },
  {
    rule: riskyCommand,
    // The branch everyone shares, rewritten: their work on it is lost, and the history with it.
    pattern:
      /\bgit\s+push\b[^\n;&|]*\s(?:-f|--force)(?!-with-lease)\b[^\n;&|]*\s(?:\+?(?:main|master)|HEAD:(?:main|master))\b/,
    what: 'force-pushes over the shared main branch',
    unless: (match, line) => printed(line, match.index),
    advice: 'Push to a branch of its own and open a pull request; if history must change, let the user do it.',
  },
  {
    rule: riskyCommand,
    // Git hands a credential helper the user's credentials on its input: a helper that sends anywhere sends them.
    pattern:
      /\bcredential\.helper\b[^\n]*!(?=[^\n]*\b(?:curl|wget|nc|ncat|netcat|socat|ssh|Invoke-WebRequest|Invoke-RestMethod)\b)/,
    what: 'makes Git hand its credentials to a command that sends data over the network',
    unless: (match, line) => printed(line, match.index),
  },
  {
    rule: riskyCommand,
    pattern: /\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|o\+w)\b/,
    what: 'opens permissions to every user',
    // `grep "chmod 777"` looks for the text: a command's argument, not the command.
    unless: (match, line) => argumentOf(line, match.index) !== undefined,
  },
  {
    rule: riskyCommand,
    pattern:
      // Each tool's own switch, on its command line, in its configuration or in the environment: pip's trusted
      // hosts, npm's and yarn's strict SSL, Git's sslVerify.
      /\bcurl\b[^\n]*\s(?:-k|--insecure)\b|\bwget\b[^\n]*--no-check-certificate|\bverify\s*=\s*False\b|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|\brejectUnauthorized\s*:\s*false\b|\bsslVerify\s*[\s=]\s*false\b|PYTHONHTTPSVERIFY\s*=\s*["']?0|\bInsecureSkipVerify\s*:\s*true\b|(?:--|\bglobal\.|^\s*)trusted-host\b|(?:\bstrict[-_]ssl|STRICT_SSL)\s*[\s=]\s*["']?false\b|\benableStrictSsl\s+false\b|\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)\b|\b(?:CURL_CA_BUNDLE|REQUESTS_CA_BUNDLE)\s*=\s*(?:""|''|$)/m,
    what: 'turns off TLS certificate checks',
  },
  {
    rule: riskyCommand,
    // A root certificate added to what the system or a runtime trusts: whoever holds its key can read and change
    // every TLS connection of the user's.
    pattern:
      /\bsecurity\s+add-trusted-cert\b|\bcertutil(?:\.exe)?\s+(?:-f\s+)?-addstore\s+["']?root\b|\bImport-Certificate\b[^\n]*Cert:\\+LocalMachine\\+Root|\bupdate-ca-(?:certificates|trust)\b|\btrust\s+anchor\s|\bNODE_EXTRA_CA_CERTS\s*=/i,
    what: 'adds a certificate authority that every TLS connection of the user trusts',
    unless: (match, line) => printed(line, match.index),
  },
  {
    rule: riskyCommand,
    // A package index or registry over plain HTTP (not on this machine): anyone on the way can swap what installs.
    pattern: new RegExp(
      String.raw`(?:\b(?:index-url|extra-index-url|find-links|registry)\b|\bpip[\d.]*\b[^\n]*\s-[if])[\s=:]+["']?http:\/\/(?!(?:${LOCAL_HOST})(?:[:/"'\s]|$))`,
      'i',
    ),
    what: 'installs packages over plain HTTP, which anyone on the network can replace',
    unless: (match, line) => printed(line, match.index),
  },
  // Last: a line that also does something a warning is for (a credential helper that sends) is reported for that.
  {
    rule: persistence,
    pattern: new RegExp(
      [
        // A scheduled job: a crontab written (from a pipe, a file or the editor; `-l` only lists it).
        String.raw`\|\s*(?:sudo\s+)?crontab\b|\bcrontab\s+(?:-u\s+\S+\s+)?(?:-e\b|-\s|-$|[^\s-])`,
        String.raw`\bschtasks(?:\.exe)?\s+\/create\b|\bRegister-ScheduledTask\b`,
        // A service or an agent started at login.
        String.raw`\blaunchctl\s+(?:load|bootstrap|enable|submit)\b|(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|ln)\b[^\n]*\s)["']?(?:~|\$HOME|\$\{HOME\})?\/Library\/Launch(?:Agents|Daemons)\/`,
        String.raw`\bsystemctl\s+(?:--user\s+)?enable\b|(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|ln)\b[^\n]*\s)["']?(?:~|\$HOME|\$\{HOME\})\/\.config\/(?:systemd\/user|autostart)\/`,
        String.raw`\bCurrentVersion\\+Run\b|\bmake (?:new )?login item\b`,
        // A Git hook: it runs on every commit of the repository, long after the task.
        String.raw`(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|ln|install)\b[^\n]*\s)["']?(?:\.\/)?\.git\/hooks\/|\bcore\.hooksPath\b`,
      ].join('|'),
      'i',
    ),
    what: 'leaves something to run after the task (a scheduled job, a service started at login, a Git hook)',
    unless: (match, line) => printed(line, match.index),
  },
  {
    rule: persistence,
    pattern:
      /\bgit\s+config\s+(?:--global|--system)\s+(?!--(?:get|get-all|get-regexp|list|show-origin)\b|-l\b)[\w.-]+\s+\S|\b(?:npm|pnpm|yarn)\s+config\s+set\b(?![^\n]*--location[= ]project)|\bpip3?\s+config\s+(?:--global\s+|--user\s+)?set\b|\bdefaults\s+write\b/,
    what: "changes the user's configuration for every project, beyond the task",
    unless: (match, line) => printed(line, match.index),
    advice:
      "Set what the task needs for this project only (`git config` without `--global`, a project's `.npmrc`), or show the command and let the user run it.",
  },
];

/** What to do about a risk of each code, unless the risk says. */
export const ADVICE: Record<Risk['rule']['code'], string> = {
  remote_code:
    "Whatever the address serves then runs with the user's permissions, and may change after review. Ship the script with the skill, or download, check (a pinned version or checksum) and then run.",
  risky_command: 'Keep what the skill does inside the skill folder and the project, with checks on.',
  persistence: 'If the user asked for it, say so where the command is; else leave nothing behind after the task.',
};

/** Each risk with an exception, matching all through a line: a line may pipe twice (`curl a | jq; curl b | sh`). */
const EVERY_MATCH = new Map(
  RISKS.filter((risk) => risk.unless).map((risk) => [risk, new RegExp(risk.pattern.source, `${risk.pattern.flags}g`)]),
);

/** Where `risk` is in `line`: its first match that its exception leaves. */
function riskIn(risk: Risk, line: string): RegExpExecArray | undefined {
  const everywhere = EVERY_MATCH.get(risk);
  if (!everywhere) return risk.pattern.exec(line) ?? undefined;
  for (const match of line.matchAll(everywhere)) if (!risk.unless!(match, line)) return match;
  return undefined;
}

/** A web address in a command, up to what ends it in a shell or a quoted string. */
const ADDRESS = /https?:\/\/[^\s'"|)`;<>]+/;

/** A word every risk needs: a text with none of them is not read line by line. */
const ANY_RISK =
  /\/dev\/(?:tcp|udp)|mkfifo|\brm\s|push|helper|\b(?:node|deno|bun|python|perl|ruby)\b|curl|wget|iwr|irm|Invoke-|fetch|eval|source|<\(|exec\s*\(|>>?\s*["']?(?:~|\$\{?HOME|\/etc)|tee\b|\.ssh\/|chmod|verify|TLS|trusted-host|strict|http:|\baws\s|gsutil|rclone|\baz\s|\bgh\s|CA_BUNDLE|CA_CERTS|add-trusted-cert|certutil|Import-Certificate|update-ca-|trust\s+anchor|rejectUnauthorized|sslVerify|InsecureSkip|\bnc\b|netcat|ncat|ssh\b|scp|rsync|sftp|socat|base64|FromBase64|xxd|\btr\s|\|\s*rev\b|powershell|pwsh|iex|crontab|schtasks|ScheduledTask|launchctl|LaunchAgents|LaunchDaemons|systemctl|systemd|autostart|CurrentVersion|login item|\.git\/hooks|hooksPath|config|defaults/i;

/** Commands to read: a script or a block, and whether it is a POSIX shell's (read by the shell's parser). */
export interface CommandPiece extends Placed {
  /** False for PowerShell, cmd and other languages' blocks and scripts, which are read a line at a time. */
  shell?: boolean;
}

/**
 * What every flow needs, cheap to test: a piece without it is not parsed (most scripts hold an address and many a
 * token, so each condition is narrowed to what shellDataFlow.ts can report). A download saved to a file, not
 * discarded; or a program that sends, and a secret read out of a credentials file (not an option's pattern:
 * `--exclude=.env`) or the environment (`env` alone); or
 * a variable named for a secret, which is reported only sent on a sender's input (a raw connection, `ssh`, httpie,
 * `curl -d @-`, `-T -`) or as a file the script wrote (`-d @file`, `-T`, `scp`), never as an option's value.
 */
const SAVES_DOWNLOAD =
  /\b(?:curl|wget)\b[^\n]*\s(?:-o|-O|--output(?:-document)?)(?:\s+|=)(?!["']?(?:\/dev\/null|-)(?:["'\s;|&)]|$))/m;
const MAY_SEND =
  /\b(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|rsync|sftp|https?|xh|gsutil|rclone)\b|\baws\s+s3\b|\baz\s+storage\b|\bgh\s+(?:gist|issue|pr|api)\b/;
const READS_SECRET =
  /(?<!--[\w-]*=["']?)\.(?:aws|ssh|netrc|git-credentials|docker|kube|npmrc|pypirc|config\/gcloud|config\/gh|env\b)|(?<!\.)\b(?:env|printenv)[ \t]*(?:$|[|;&)>`'"\\])/im;
const SECRET_NAME = /TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL/i;
const SENDS_INPUT =
  /@-|(?:-T|--upload-file|-file)[\s=]+-(?![\w-])|\b(?:nc|ncat|netcat|socat|telnet|ssh|xh)\b|\bhttps?(?:[ \t]|$)/m;
const SENDS_FILE = /(?<![${])@|-T\b|--upload-file|-file\b|\b(?:scp|rsync|sftp)\b/;
const WRITES_FILE = /(?<![\d>])>>?\|?[ \t]*(?!&|\/dev\/null\b)[^\s;&|)<>]|\btee\b/;
const mayFlow = (text: string) =>
  SAVES_DOWNLOAD.test(text) ||
  (MAY_SEND.test(text) &&
    (READS_SECRET.test(text) ||
      (SECRET_NAME.test(text) && (SENDS_INPUT.test(text) || (SENDS_FILE.test(text) && WRITES_FILE.test(text))))));

/** The risky commands of commands: a whole script, or the contents of Markdown's fenced blocks of commands. */
export function riskyExecution(file: string, commands: CommandPiece[]): Diagnostic[] {
  const findings: Diagnostic[] = [];
  for (const piece of commands) {
    // A POSIX shell's commands are read by the shell's grammar, once a host loaded it (shellGrammar.ts); without it,
    // a line at a time, as PowerShell's are.
    const shell = piece.shell !== false && shellParser() !== undefined;
    if (!ANY_RISK.test(piece.text)) continue;
    let offset = piece.start;
    const found = findings.length;
    for (const line of piece.text.split('\n')) {
      // A comment says, it does not run.
      if (!COMMENT_LINE.test(line))
        for (const risk of RISKS) {
          if (shell && risk.unparsed) continue;
          const match = riskIn(risk, line);
          if (!match) continue;
          const command = line.trim().slice(0, 120);
          // The address a download runs from, when the command names one: officialInstallers.ts reads who serves it.
          const url = risk.rule === remoteCode ? ADDRESS.exec(line.slice(match.index))?.[0] : undefined;
          findings.push(
            diagnostic(
              risk.rule,
              file,
              { start: offset + match.index, end: offset + match.index + match[0].length, file },
              `This ${risk.what}: \`${command}\`. ${risk.advice ?? ADVICE[risk.rule.code]}`,
              { risk: risk.what, command, ...(url ? { url } : {}) },
            ),
          );
          break;
        }
      offset += line.length + 1;
    }
    if (!shell) findings.push(...lineFlows(file, piece, findings.slice(found)));
    else if (mayFlow(piece.text)) {
      const script = parseShell(piece.text);
      if (script) findings.push(...valueFlows(script, piece.text, 0).map((flow) => flowFinding(file, piece, flow)));
    }
  }
  return findings;
}

/** The commands of the fenced blocks of commands (in a session at a prompt, not what they printed). */
export function fencedCommands(source: TextLike, fences: Fence[]): CommandPiece[] {
  return fences
    .filter((fence) => COMMAND_LANGUAGES.has(fenceLanguage(fence)))
    .flatMap((fence) => {
      const shell = SHELL_BLOCK_LANGUAGES.has(fenceLanguage(fence));
      return blockCommands(source, fence).map((command) => ({ ...command, shell }));
    });
}
