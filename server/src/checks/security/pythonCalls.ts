import type { SyntaxNode } from '@lezer/common';
import type { Diagnostic } from '../engine/diagnostic';
import { textOf } from '../../parse/python/python';
import { asWritten, formatted, joined, joinedPath, lineAt, type PythonFile } from './pythonValues';
import {
  addressIn,
  commandFindings,
  credentialFile,
  environmentValue,
  NOTHING,
  runFinding,
  sendFinding,
  SENDING_PROGRAM,
  sourcesOf,
  tlsFinding,
  UNKNOWN,
  writeFinding,
  type Source,
  type Value,
} from './scriptEffects';

// What each Python call does with its values: reads a secret, downloads, decodes, sends, runs or writes. A call the
// reader does not know returns what its receiver and arguments hold (`json.dumps(creds)` still holds the creds).

/** A call as read: its name (through the imports) or the value it is a method of, and its arguments' values. */
export interface CallSite {
  file: PythonFile;
  node: SyntaxNode;
  callee: SyntaxNode;
  /** `requests.post`, `open`: the call's dotted name, when it is not a method of a value of the script. */
  name?: string;
  method?: string;
  receiver?: Value;
  positional: Value[];
  positionalNodes: SyntaxNode[];
  keywords: Map<string, { value: Value; node: SyntaxNode }>;
  spread: Value[];
  inFunction?: string;
  /** The values of a list's items (a command given as a list), read again one by one. */
  itemsOf: (node: SyntaxNode) => Value[] | undefined;
  report: (found: Diagnostic | undefined) => void;
  /** `config.read(path)` reads into its receiver: the variable then holds what was read. */
  setReceiver: (value: Value) => void;
}

const PATH_OF_FIRST = new Set([
  'os.path.expanduser',
  'os.path.abspath',
  'os.path.realpath',
  'os.path.normpath',
  'str',
  'os.fspath',
  'pathlib.Path',
  'pathlib.PurePath',
  'pathlib.PosixPath',
]);
const ENV_READS = new Set(['os.getenv', 'os.environ.get', 'os.environ.setdefault', 'os.environ.pop']);
const OPENS = new Set(['open', 'io.open', 'codecs.open', 'builtins.open']);
const COPIES = new Set(['shutil.copy', 'shutil.copyfile', 'shutil.copy2', 'shutil.move', 'os.symlink', 'os.replace']);
const HTTP_CALL =
  /^(?:requests|httpx)\.(get|post|put|patch|delete|head|options|request|stream)$|^urllib[23]?(?:\.request)?\.urlopen$/;
/** Constructors of objects whose methods send over the network. */
const CLIENTS = new Set([
  'requests.Session',
  'httpx.Client',
  'httpx.AsyncClient',
  'aiohttp.ClientSession',
  'http.client.HTTPConnection',
  'http.client.HTTPSConnection',
  'socket.socket',
  'socket.create_connection',
  'smtplib.SMTP',
  'smtplib.SMTP_SSL',
  'ftplib.FTP',
  'ftplib.FTP_TLS',
  'paramiko.SSHClient',
  'paramiko.Transport',
  'xmlrpc.client.ServerProxy',
  'telnetlib.Telnet',
  'websocket.create_connection',
  'websockets.connect',
]);
const DECODERS =
  /^(?:base64\.(?:b64decode|b32decode|b16decode|a85decode|b85decode|urlsafe_b64decode|standard_b64decode|decodebytes)|(?:zlib|gzip|bz2|lzma)\.decompress|binascii\.(?:unhexlify|a2b_base64)|bytes\.fromhex|marshal\.loads)$/;
const UNPICKLES = /^(?:c?[pP]ickle|dill|cloudpickle|joblib)\.loads?$/;
/** Calls that run a command through a shell; those that run a program with its arguments (a list, or `shell=True`). */
const SHELL_CALLS =
  /^(?:os\.(?:system|popen)|subprocess\.(?:getoutput|getstatusoutput)|asyncio\.create_subprocess_shell)$/;
const PROCESS_CALLS = /^subprocess\.(?:run|call|check_call|check_output|Popen)$/;
/** Programs that run the code they are given: with `-c`/`-e`, or piped in when given no file to run. */
const INTERPRETER = /^(?:.*\/)?(?:sh|bash|zsh|dash|ksh|python[\d.]*|node|perl|ruby|php)$/;

/** What a call returns, having reported what it does. */
export function callEffect(site: CallSite): Value {
  const { name, receiver, positional, keywords, spread, file } = site;
  const line = lineAt(file, site.node.from);
  const span = { start: site.callee.from, end: site.callee.to, file: file.py.file };
  const arg = (index: number, keyword: string) => positional[index] ?? keywords.get(keyword)?.value ?? NOTHING;
  const all = [...positional, ...[...keywords.values()].map((item) => item.value), ...spread];
  const passed: Value = { sources: sourcesOf([receiver, ...all]) };
  if (keywords.get('verify') && textOf(file.py, keywords.get('verify')!.node) === 'False')
    site.report(tlsFinding(file.py.file, span, '`verify=False`', site.inFunction));
  if (name === undefined) return receiver ? methodEffect(site, span, line, passed) : passed;
  if (name === 'ssl._create_unverified_context')
    site.report(tlsFinding(file.py.file, span, 'an unverified SSL context', site.inFunction));
  if (PATH_OF_FIRST.has(name))
    return { text: positional.length > 1 ? joinedPath(positional) : positional[0]?.text, sources: passed.sources };
  if (name === 'pathlib.Path.home') return { text: '~', sources: [] };
  if (name === 'os.path.join') return { text: joinedPath(positional), sources: passed.sources };
  if (name === 'os.path.expandvars') return { text: positional[0]?.text?.replace(/\$\{?HOME\}?/g, '~'), sources: [] };
  if (ENV_READS.has(name)) return environmentValue(positional[0]?.text, line);
  if (OPENS.has(name))
    return opened(site, span, line, arg(0, 'file').text, arg(1, 'mode').text, arg(0, 'file').sources);
  if (COPIES.has(name)) site.report(writeFinding(file.py.file, span, arg(1, 'dst').text, site.inFunction));
  if (name === 'keyring.get_password')
    return { sources: [{ kind: 'credential_file', what: 'the system keyring', line }] };
  const http = HTTP_CALL.exec(name);
  if (http) {
    const url = http[1] === 'request' || http[1] === 'stream' ? arg(1, 'url') : arg(0, 'url');
    return sent(site, span, line, url.text, http[1] === 'post' ? 'posts' : 'sends');
  }
  if (name === 'urllib.request.Request') return { text: arg(0, 'url').text, sources: passed.sources };
  if (CLIENTS.has(name)) {
    const address = (keywords.get('base_url')?.value ?? keywords.get('host')?.value ?? positional[0])?.text;
    return { object: 'client', text: address, sources: passed.sources };
  }
  if (
    DECODERS.test(name) ||
    (name === 'codecs.decode' && /^(?:rot_?13|base64|hex|zlib|bz2)$/.test(arg(1, 'encoding').text ?? ''))
  )
    return { sources: [...passed.sources, { kind: 'decoded', what: name, line }] };
  if (name === 'exec' || name === 'eval' || name === 'builtins.exec' || name === 'builtins.eval')
    site.report(runFinding(file.py.file, span, positional[0]?.sources ?? [], `runs (\`${name}\`)`, site.inFunction));
  if (UNPICKLES.test(name))
    site.report(
      runFinding(
        file.py.file,
        span,
        (positional[0]?.sources ?? []).filter((source) => source.kind === 'download'),
        `unpickles (which runs the code a pickle names)`,
        site.inFunction,
      ),
    );
  if (SHELL_CALLS.test(name) || PROCESS_CALLS.test(name)) return processEffect(site, span, line, name, arg(0, 'args'));
  // A call given where logins are kept that is no question about the path (an archiver, a copier, a reader this one
  // does not know) returns what it took: `shutil.make_archive(…, '~/.ssh')` is the keys, packed.
  const taken = PATH_QUESTIONS.test(name) ? undefined : all.map((value) => credentialFile(value.text)).find(Boolean);
  return taken ? { ...passed, sources: [...passed.sources, { kind: 'credential_file', what: taken, line }] } : passed;
}

/** Calls that ask about a path without reading what is there. */
const PATH_QUESTIONS =
  /^os\.path\.(?:exists|lexists|isfile|isdir|islink|getsize|getmtime|getctime|getatime|basename|dirname)$|^os\.(?:stat|lstat|access|chmod|chown|remove|unlink|rmdir|makedirs|mkdir)$|^shutil\.rmtree$/;

/** `open(path, mode)`: a credentials file read, or a file written where it outlasts the task. */
function opened(
  site: CallSite,
  span: CallSpan,
  line: number,
  path: string | undefined,
  mode = 'r',
  pathSources: Value['sources'] = [],
): Value {
  if (/[wax+]/.test(mode)) {
    site.report(writeFinding(site.file.py.file, span, path, site.inFunction));
    return { object: 'file', sources: [] };
  }
  // A file whose path came from what was taken (an archive of the keys) holds it too.
  const credentials = credentialFile(path);
  const taken = credentials ? [{ kind: 'credential_file' as const, what: credentials, line }] : [];
  return { object: 'file', sources: [...taken, ...pathSources] };
}

type CallSpan = { start: number; end: number; file: string };

/**
 * A request sent: what its arguments hold goes to `to`. A token in the headers or `auth` goes where the call goes,
 * as a token is meant to (scriptEffects.ts says where it belongs); files read whole, or the environment, never do.
 */
function sent(site: CallSite, span: CallSpan, line: number, to: string | undefined, how: string): Value {
  const carried = [...site.positional, ...site.spread, site.receiver];
  const headers: Source[] = [];
  for (const [keyword, { value }] of site.keywords)
    if (keyword === 'headers' || keyword === 'auth')
      headers.push(...value.sources.filter((s) => s.kind !== 'secret_env'));
    else carried.push(value);
  // A credentials file named in the arguments is sent by name (`sftp.put(path)`, `files=…`).
  const named = carried.flatMap((value) => {
    const what = credentialFile(value?.text);
    return what ? [{ kind: 'credential_file' as const, what, line }] : [];
  });
  site.report(
    sendFinding(site.file.py.file, span, [...sourcesOf(carried), ...headers, ...named], {
      to,
      how,
      inFunction: site.inFunction,
    }),
  );
  return { sources: [{ kind: 'download', what: to?.replaceAll(UNKNOWN, '…') ?? '', line }] };
}

/** A method of a value of the script: a client's request, a path's read or write, a string's format. */
function methodEffect(site: CallSite, span: CallSpan, line: number, passed: Value): Value {
  const { receiver, method, positional } = site;
  if (!receiver || !method) return passed;
  if (receiver.object === 'client') {
    if (/^(?:open_sftp|get_transport|open_session|invoke_shell)$/.test(method))
      return { object: 'client', text: receiver.text, sources: passed.sources };
    const first = positional[0]?.text;
    const to = first && /^[a-z]+:\/\//i.test(first) ? first : receiver.text;
    return sent(site, span, line, to, method === 'post' ? 'posts' : 'sends');
  }
  switch (method) {
    case 'read_text':
    case 'read_bytes': {
      const credentials = credentialFile(receiver.text);
      return credentials ? { sources: [{ kind: 'credential_file', what: credentials, line }] } : passed;
    }
    case 'open':
      return opened(site, span, line, receiver.text, positional[0]?.text);
    case 'write_text':
    case 'write_bytes':
      site.report(writeFinding(site.file.py.file, span, receiver.text, site.inFunction));
      return NOTHING;
    case 'expanduser':
    case 'resolve':
    case 'absolute':
    case 'as_posix':
      return { text: receiver.text, sources: passed.sources };
    case 'joinpath':
      return { text: joinedPath([receiver, ...positional]), sources: passed.sources };
    case 'format':
      return receiver.text === undefined
        ? passed
        : { text: formatted(receiver.text, positional, /\{[^{}]*\}/g), sources: passed.sources };
    case 'read':
    case 'read_file': {
      // `config.read(path)` (configparser): the parser holds the file's contents from then on.
      const credentials = credentialFile(positional[0]?.text);
      if (!credentials) return passed;
      const source: Source = { kind: 'credential_file', what: credentials, line };
      site.setReceiver({ ...receiver, sources: [...receiver.sources, source] });
      return { sources: [source] };
    }
    default:
      return passed;
  }
}

/**
 * A command run: code it runs from a download or a decoding, what it sends with a program that sends, and what the
 * shell reader finds in its text (`curl … | sh`, `crontab -`). Its output is a download when a program fetches it.
 */
function processEffect(site: CallSite, span: CallSpan, line: number, name: string, command: Value): Value {
  const commandNode = site.positionalNodes[0];
  const items = commandNode ? site.itemsOf(commandNode) : undefined;
  const shell =
    SHELL_CALLS.test(name) || textOf(site.file.py, site.keywords.get('shell')?.node ?? site.node) === 'True';
  const text = items && !shell ? joined(items, ' ') : command.text;
  const program = (items && !shell ? items[0]?.text : command.text?.trim().split(/\s+/)[0]) ?? '';
  const file = site.file.py.file;
  if (shell || !items) site.report(runFinding(file, span, command.sources, 'runs in a shell', site.inFunction));
  else if (INTERPRETER.test(program)) {
    const flag = items.findIndex((item) => /^-[a-zA-Z]*[ce]$/.test(item.text ?? ''));
    const code =
      flag > 0 ? items.slice(flag + 1, flag + 2) : items.length === 1 ? [site.keywords.get('input')?.value] : [];
    site.report(runFinding(file, span, sourcesOf(code), `runs with \`${program}\``, site.inFunction));
  }
  if (SENDING_PROGRAM.test(program)) {
    const sentItems = items ?? [command];
    const named = sentItems.flatMap((item) => {
      const what = credentialFile(item.text);
      return what ? [{ kind: 'credential_file' as const, what, line }] : [];
    });
    site.report(
      sendFinding(file, span, [...sourcesOf(sentItems), ...named], {
        to: addressIn(text),
        how: `runs \`${program.split('/').pop()}\`, which sends`,
        inFunction: site.inFunction,
      }),
    );
  }
  const written = items || !commandNode ? undefined : asWritten(site.file, commandNode);
  for (const found of commandFindings(file, { sources: [], ...(written ?? { text }) }, span)) site.report(found);
  if (/^security\s+find-(?:generic|internet)-password\b/.test(text ?? ''))
    return { sources: [{ kind: 'credential_file', what: 'the macOS keychain', line }] };
  return /^(?:.*\/)?(?:curl|wget)$/.test(program)
    ? { sources: [{ kind: 'download', what: addressIn(text) ?? '', line }] }
    : NOTHING;
}
