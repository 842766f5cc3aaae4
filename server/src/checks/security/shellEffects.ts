import { programAt, programName } from '../../parse/shell/commandProgram';
import type { ShellCommand, ShellWord } from '../../parse/shell/shellSyntax';
import { POSIX_SHELLS } from '../../platforms/shells';
import { runsPipedText } from './commandText';
import { uploads } from './uploadCommands';

// What one shell command does, read from its parsed words whatever their spelling: the secrets it reads, what it sends
// over the network and where, what it downloads and where it keeps it, what it runs. shellDataFlow.ts follows the
// values between commands.

/** A credentials file or folder in the home folder, by its usual place; not a public key. */
const SECRET_PATH =
  /^(?:~|\$HOME|\$\{HOME\}|\/root|\/home\/[\w.-]+|\/Users\/[\w.-]+)\/\.(?:aws(?:\/credentials)?\/?|ssh\/?|ssh\/(?:id_[\w*]+|[\w*-]*(?:_rsa|_ed25519|_ecdsa|_dsa|\.pem|\.key))(?<!\.pub)|netrc|git-credentials|docker\/config\.json|kube\/config|npmrc|pypirc|config\/gcloud(?:\/[\w.*-]+)?|config\/gh\/hosts\.ya?ml)$/;
/** A project's environment file: `.env`, `.env.local`; not the example committed beside it. */
const ENV_FILE = /(?:^|\/)\.env(?:\.(?!example|sample|template|dist|defaults)[\w-]+)?$/;
/** An environment variable named for a secret. */
export const SECRET_VARIABLE =
  /(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)(?:_|$)|^AWS_SECRET/i;
/** Programs that read what names a file and print it (or pack it) for the next command. */
const READERS = new Set(
  'cat head tail less more base64 gzip bzip2 xz zstd xxd od hexdump strings tar zip 7z jq yq awk sed grep cut tr sort openssl gpg cp tee'.split(
    ' ',
  ),
);
/** Programs that only check or use a key or a file, not read it out. */
const USES_ONLY = new Set(['ssh-add', 'ssh-keygen', 'ssh-copy-id', 'chmod', 'chown', 'ls', 'test', '[', 'stat', 'rm']);
/** A local address: a request to it does not leave the machine. */
const LOCAL = /^(?:https?:\/\/)?(?:[\w.-]*@)?(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(?:[:/]|$)/i;

/** A value a command sends: the word it is in (or the command's input), and how. */
export interface Sent {
  /** The word carrying it; undefined for what the command reads on its input. */
  word?: ShellWord;
  /** A file it uploads, named by the word (`-d @file`, `-T file`, `scp file host:`). */
  file?: string;
  /** Whether it is a header, a user or the address: authentication, not data, unless a secret file is in it. */
  authentication?: boolean;
}

/** What a command does that a security rule may report. */
export interface Effects {
  program?: string;
  /** Secret files or folders whose content it reads out (`cat ~/.aws/credentials`, `tar c ~/.ssh`). */
  readsSecretFiles: string[];
  /** It prints the whole environment (`env`, `printenv`). */
  readsEnvironment: boolean;
  /** What it sends over the network, and to where. */
  sends?: { values: Sent[]; input: boolean; to: string };
  /** It downloads: to its output, or to a file. */
  downloads?: { url?: string; savedTo?: string };
  /** It runs what it reads on its input as code (`sh`, `python3 -`, `iex`). */
  runsInput: boolean;
  /** The word naming a file it runs (`./x`, `bash x.sh`, `source x`). */
  runsFile?: ShellWord;
}

/** Whether a word names a secret file (as the shell reads it, the home folder spelled any way). */
export function secretFile(text: string): boolean {
  return SECRET_PATH.test(text.replace(/^"?\$\{?HOME\}?"?/, '$HOME')) || ENV_FILE.test(text);
}

/** A word's address, when it is one: what a request goes to. */
const URL = /^(?:https?|ftp):\/\/[^\s/?#]+/;
/** A remote place for scp, rsync or sftp: `host:path`, `user@host:path`. */
const REMOTE = /^(?:[\w.-]+@)?[\w.-]+:(?!\/\/)/;

/** The options of a web client that carry data, and whether they name a file with `@`. */
const CURL_DATA = /^(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|--json|-F|--form(?:-string)?)$/;
const CURL_UPLOAD = /^(?:-T|--upload-file)$/;
const CURL_AUTH = /^(?:-H|--header|-u|--user|--oauth2-bearer|-b|--cookie|-e|--referer|-A|--user-agent|--proxy-user)$/;
const CURL_OUTPUT = /^(?:-o|--output)$/;
const WGET_DATA = /^--(?:post|body)-(?:data|file)$/;

/** What a command does. */
export function effectsOf(command: ShellCommand): Effects {
  const effects: Effects = { readsSecretFiles: [], readsEnvironment: false, runsInput: false };
  const at = programAt(command.words);
  if (at === undefined) {
    // A program the shell fills in (`"$tmp" --post-install`) runs the file the variable names.
    if (command.words[0]?.expanded) effects.runsFile = command.words[0];
    return effects;
  }
  const words = command.words.slice(at);
  const name = programName(words[0]);
  effects.program = name;
  const args = words.slice(1);
  if ((name === 'env' || name === 'printenv') && args.length === 0) effects.readsEnvironment = true;
  if (READERS.has(name) && !USES_ONLY.has(name))
    effects.readsSecretFiles.push(...args.filter((word) => secretFile(word.text)).map((word) => word.text));
  for (const redirection of command.redirections)
    if (redirection.op === '<' && secretFile(redirection.target.text))
      effects.readsSecretFiles.push(redirection.target.text);
  if (name === 'curl' || name === 'wget') web(name, args, effects);
  else if (name === 'nc' || name === 'ncat' || name === 'netcat' || name === 'socat' || name === 'telnet') {
    const host = args.find((word) => !word.text.startsWith('-') && !/^\d+$/.test(word.text));
    // Listening (`-l`) or probing (`-z`) sends nothing anywhere.
    if (host && !args.some((word) => /^-\w*[lz]/.test(word.text)) && !LOCAL.test(host.text))
      effects.sends = { values: [], input: true, to: host.text };
  } else if (name === 'ssh') {
    const host = args.find(
      (word, index) => !word.text.startsWith('-') && !/^-[ioplFJLRDWE]$/.test(args[index - 1]?.text ?? ''),
    );
    if (host && !LOCAL.test(host.text)) effects.sends = { values: [], input: true, to: host.text };
  } else if (name === 'scp' || name === 'rsync' || name === 'sftp') {
    const remote = args.find((word) => REMOTE.test(word.text));
    if (remote && !LOCAL.test(remote.text)) {
      const local = args.filter(
        (word, index) =>
          word !== remote && !word.text.startsWith('-') && !/^-[iFPoe]$/.test(args[index - 1]?.text ?? ''),
      );
      effects.sends = { values: local.map((word) => ({ word, file: word.text })), input: false, to: remote.text };
      effects.readsSecretFiles.push(...local.filter((word) => secretFile(word.text)).map((word) => word.text));
    }
  } else if (name === 'http' || name === 'https' || name === 'xh') {
    const url = args.find((word) => !word.text.startsWith('-') && /[./:]/.test(word.text));
    if (url && !LOCAL.test(url.text))
      effects.sends = {
        values: args.filter((word) => /[=@]/.test(word.text)).map((word) => ({ word, ...fileOf(word.text) })),
        input: true,
        to: url.text,
      };
  } else uploads(name, args, effects);
  const interpreter = /^(?:python[\d.]*|node|perl|ruby|php|deno|bun)$/.test(name) || POSIX_SHELLS.has(name);
  if (interpreter || name === 'sudo') {
    effects.runsInput = runsPipedText(
      name === 'sudo' ? 'sh' : name.replace(/[\d.]+$/, ''),
      args.map((word) => word.text),
    );
    const script = args.find((word) => !word.text.startsWith('-'));
    if (script && !effects.runsInput) effects.runsFile = script;
  } else if (name === 'source' || name === '.') effects.runsFile = args[0];
  else if (/^(?:\.{0,2}\/|\$)/.test(words[0].text) || words[0].expanded) effects.runsFile = words[0];
  return effects;
}

/** The file a value names with `@` (`@file`, `name=@file`), if any; `@-` is the input. */
function fileOf(text: string): { file?: string } {
  const at = /^(?:[^=@]*=)?@(.+)$/.exec(text);
  return at && at[1] !== '-' ? { file: at[1].replace(/;.*$/, '') } : {};
}

/** curl's and wget's data, uploads and address, whatever the option's spelling (`-d x`, `--data=x`, `-dx`). */
function web(name: string, args: ShellWord[], effects: Effects): void {
  const values: Sent[] = [];
  let url: string | undefined;
  let input = false;
  let savedTo: string | undefined;
  let sends = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index];
    const [option, inline] = /^--?[\w-]+=/.test(word.text) ? word.text.split(/=(.*)/s) : [word.text, undefined];
    const short = /^-([dFTHuo])(.+)$/.exec(word.text);
    const flag = short ? `-${short[1]}` : option;
    const takes =
      CURL_DATA.test(flag) ||
      CURL_UPLOAD.test(flag) ||
      CURL_AUTH.test(flag) ||
      CURL_OUTPUT.test(flag) ||
      WGET_DATA.test(flag) ||
      /^(?:-O|--output-document)$/.test(flag);
    if (!takes) {
      if (!word.text.startsWith('-') && URL.test(word.text)) url ??= word.text;
      else if (/^-X$|^--request$/.test(word.text) && /^(?:POST|PUT|PATCH)$/i.test(args[index + 1]?.text ?? ''))
        sends = true;
      continue;
    }
    const value = short
      ? { ...word, text: short[2] }
      : inline !== undefined
        ? { ...word, text: inline }
        : args[++index];
    if (!value) break;
    if (CURL_OUTPUT.test(flag) || (name === 'wget' && /^(?:-O|--output-document)$/.test(flag))) {
      if (value.text !== '-') savedTo = value.text;
      continue;
    }
    if (CURL_AUTH.test(flag)) {
      values.push({ word: value, authentication: true });
      continue;
    }
    sends = true;
    const file = CURL_UPLOAD.test(flag) || /-file$/.test(flag) ? { file: value.text } : fileOf(value.text);
    if (file.file === '-' || (!file.file && /(?:^|=)@-$/.test(value.text))) input = true;
    else values.push({ word: value, ...file });
  }
  if (url && LOCAL.test(url)) return;
  // A request sends its address too: a secret in the query leaves the machine.
  const address = args.find((word) => word.text === url);
  if (address) values.push({ word: address, authentication: true });
  if (sends || values.some((value) => !value.authentication)) effects.sends = { values, input, to: host(url) };
  else if (values.length > 0) effects.sends = { values, input: false, to: host(url) };
  effects.downloads = { ...(url ? { url } : {}), ...(savedTo ? { savedTo } : {}) };
}

/** Where a request goes, for the message. */
function host(url: string | undefined): string {
  return url ? (URL.exec(url)?.[0] ?? url) : 'the address it is given';
}
