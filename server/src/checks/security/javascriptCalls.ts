import type { Diagnostic } from '../engine/diagnostic';
import type { JsNode } from '../../parse/javascript/javascript';
import {
  addressIn,
  commandFindings,
  credentialFile,
  NOTHING,
  runFinding,
  sendFinding,
  SENDING_PROGRAM,
  sourcesOf,
  UNKNOWN,
  writeFinding,
  type Source,
  type Value,
} from './scriptEffects';

// What each JavaScript call does with its values (the Python reader's pythonCalls.ts, for Node's modules): reads a
// secret, downloads, decodes, sends, runs or writes. A call the reader does not know returns what its receiver and
// arguments hold.

export interface JsCallSite {
  file: string;
  node: JsNode;
  callee: JsNode;
  /** `child_process.execSync`, `fetch`: the call's dotted name (through the imports), unless a method of a value. */
  name?: string;
  method?: string;
  receiver?: Value;
  args: Value[];
  line: number;
  inFunction?: string;
  isNew: boolean;
  evaluate: (node: JsNode) => Value;
  report: (found: Diagnostic | undefined) => void;
}

const PATH_JOINS = /^(?:path\.(?:join|resolve|normalize)|String)$/;
const READS = /^fs\.(?:readFileSync|readFile|promises\.readFile|createReadStream)$|^fs\/promises\.readFile$/;
const WRITES =
  /^fs\.(?:writeFileSync|writeFile|appendFileSync|appendFile|promises\.(?:writeFile|appendFile)|createWriteStream)$|^fs\/promises\.(?:writeFile|appendFile)$/;
const COPIES = /^fs\.(?:copyFileSync|copyFile|symlinkSync|symlink|renameSync|rename|cpSync)$/;
const HTTP_CALL =
  /^(?:fetch|globalThis\.fetch|axios(?:\.(?:get|post|put|patch|delete|request))?|got(?:\.(?:get|post|put))?|node-fetch|superagent\.(?:get|post|put))$/;
/** Calls that return an object whose methods (`write`, `end`, `send`) send over the network. */
const CLIENTS =
  /^(?:https?\.(?:request|get)|net\.(?:connect|createConnection|Socket)|tls\.connect|dgram\.createSocket|ws|WebSocket)$/;
const SHELL_CALLS = /^child_process\.(?:exec|execSync)$/;
const PROGRAM_CALLS = /^child_process\.(?:spawn|spawnSync|execFile|execFileSync)$/;
const RUNS_CODE = /^(?:eval|Function|vm\.(?:runInThisContext|runInNewContext|runInContext|compileFunction|Script))$/;
const DECODERS = /^(?:atob|zlib\.(?:inflateSync|gunzipSync|brotliDecompressSync|unzipSync|inflateRawSync))$/;

/** What a call returns, having reported what it does. */
export function javascriptCall(site: JsCallSite): Value {
  const { name, receiver, args, line, file } = site;
  const span = { start: site.callee.start, end: site.callee.end, file };
  const passed: Value = { sources: sourcesOf([receiver, ...args]) };
  const argNodes = site.node.arguments as JsNode[];
  if (name === undefined) return receiver ? methodCall(site, span, passed) : passed;
  if (name === 'os.homedir') return { text: '~', sources: [] };
  if (PATH_JOINS.test(name)) return { text: args.map((arg) => arg.text ?? UNKNOWN).join('/'), sources: passed.sources };
  if (READS.test(name)) {
    const what = credentialFile(args[0]?.text);
    return what ? { sources: [{ kind: 'credential_file', what, line }] } : passed;
  }
  if (WRITES.test(name)) site.report(writeFinding(file, span, args[0]?.text, site.inFunction));
  if (COPIES.test(name)) site.report(writeFinding(file, span, args[1]?.text, site.inFunction));
  if (name === 'Buffer.from' && /^(?:base64|base64url|hex)$/.test(args[1]?.text ?? ''))
    return { sources: [...passed.sources, { kind: 'decoded', what: `Buffer.from(…, '${args[1].text}')`, line }] };
  if (DECODERS.test(name)) return { sources: [...passed.sources, { kind: 'decoded', what: name, line }] };
  if (RUNS_CODE.test(name)) {
    // `new Function(a, b, body)`: the last argument is the code.
    const code = name === 'Function' ? args.at(-1) : args[0];
    site.report(runFinding(file, span, code?.sources ?? [], `runs (\`${name}\`)`, site.inFunction));
  }
  if (HTTP_CALL.test(name)) {
    const options = argNodes[argNodes.length > 1 ? argNodes.length - 1 : 1];
    const url = argNodes[0]?.type === 'ObjectExpression' ? field(site, argNodes[0], 'url') : args[0];
    return sent(
      site,
      span,
      url?.text,
      /post/i.test(name) || /post/i.test(optionText(site, options, 'method') ?? '') ? 'posts' : 'sends',
    );
  }
  if (CLIENTS.test(name)) {
    const address =
      argNodes[0]?.type === 'ObjectExpression'
        ? (field(site, argNodes[0], 'hostname') ?? field(site, argNodes[0], 'host'))
        : args[0];
    return { object: 'client', text: address?.text, sources: passed.sources };
  }
  if (SHELL_CALLS.test(name) || PROGRAM_CALLS.test(name)) return processCall(site, span, name);
  return passed;
}

/** An option of a call's object argument (`{ method: 'POST' }`), as text. */
function optionText(site: JsCallSite, options: JsNode | undefined, key: string): string | undefined {
  return options?.type === 'ObjectExpression' ? field(site, options, key)?.text : undefined;
}

/** The value of `key` in an object literal. */
function field(site: JsCallSite, object: JsNode, key: string): Value | undefined {
  const property = (object.properties as JsNode[]).find((item) => {
    const name = item.key as JsNode | undefined;
    return name && (name.name === key || name.value === key);
  });
  return property ? site.evaluate(property.value as JsNode) : undefined;
}

/**
 * A request sent: what its arguments hold goes to `to`. What an object argument's `headers` (or `auth`) holds goes
 * where a token is meant to go, as in the Python reader; a credentials file or the environment never does.
 */
function sent(site: JsCallSite, span: Diagnostic['span'], to: string | undefined, how: string): Value {
  const carried: Value[] = [];
  const headers: Source[] = [];
  (site.node.arguments as JsNode[]).forEach((arg, index) => {
    if (arg.type !== 'ObjectExpression') carried.push(site.args[index]);
    else
      for (const property of arg.properties as JsNode[]) {
        const key = property.key as JsNode | undefined;
        const value = site.evaluate((property.value ?? property.argument) as JsNode);
        if (key && /^(?:headers|auth)$/.test(String(key.name ?? key.value)))
          headers.push(...value.sources.filter((s) => s.kind !== 'secret_env'));
        else carried.push(value);
      }
  });
  site.report(
    sendFinding(site.file, span, [...sourcesOf([site.receiver, ...carried]), ...headers], {
      to,
      how,
      inFunction: site.inFunction,
    }),
  );
  return { sources: [{ kind: 'download', what: to?.replaceAll(UNKNOWN, '…') ?? '', line: site.line }] };
}

/** A method of a value: a client's write, a response read, a string's decoding. */
function methodCall(site: JsCallSite, span: Diagnostic['span'], passed: Value): Value {
  const { receiver, method } = site;
  if (receiver?.object === 'client' && method && /^(?:write|end|send|sendto)$/.test(method))
    return sent(site, span, receiver.text, 'sends');
  if (method === 'toString' && receiver && /^(?:utf-?8|ascii|latin1|binary)?$/i.test(site.args[0]?.text ?? ''))
    return { text: receiver.text, sources: passed.sources };
  return passed;
}

/** A command run through `child_process`: code it runs from a download or decoding, what it sends, what it does. */
function processCall(site: JsCallSite, span: Diagnostic['span'], name: string): Value {
  const [command, list] = site.args;
  const listNode = (site.node.arguments as JsNode[])[1];
  const items =
    PROGRAM_CALLS.test(name) && listNode?.type === 'ArrayExpression'
      ? (listNode.elements as JsNode[]).map((item) => site.evaluate(item))
      : [];
  const words = [command ?? NOTHING, ...items];
  const text = words.map((word) => word.text ?? UNKNOWN).join(' ');
  const program = (SHELL_CALLS.test(name) ? command?.text?.trim().split(/\s+/)[0] : command?.text) ?? '';
  if (SHELL_CALLS.test(name))
    site.report(runFinding(site.file, span, command?.sources ?? [], 'runs in a shell', site.inFunction));
  else if (/^(?:.*\/)?(?:sh|bash|zsh|node|python[\d.]*)$/.test(program)) {
    const flag = items.findIndex((item) => /^-[a-zA-Z]*[ce]$/.test(item.text ?? ''));
    if (flag >= 0)
      site.report(
        runFinding(site.file, span, items[flag + 1]?.sources ?? [], `runs with \`${program}\``, site.inFunction),
      );
  }
  if (SENDING_PROGRAM.test(program)) {
    const named = words.flatMap((word) => {
      const what = credentialFile(word.text);
      return what ? [{ kind: 'credential_file' as const, what, line: site.line }] : [];
    });
    site.report(
      sendFinding(site.file, span, [...sourcesOf(words), ...named, ...(list && !items.length ? list.sources : [])], {
        to: addressIn(text),
        how: `runs \`${program.split('/').pop()}\`, which sends`,
        inFunction: site.inFunction,
      }),
    );
  }
  const literal = (site.node.arguments as JsNode[])[0];
  const written =
    SHELL_CALLS.test(name) && literal?.type === 'Literal' && command?.at !== undefined ? command : undefined;
  for (const found of commandFindings(site.file, written ?? { text, sources: [] }, span)) site.report(found);
  return /^(?:.*\/)?(?:curl|wget)$/.test(program)
    ? { sources: [{ kind: 'download', what: addressIn(text) ?? '', line: site.line }] }
    : NOTHING;
}
