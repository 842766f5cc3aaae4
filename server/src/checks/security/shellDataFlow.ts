import type { ShellCommand, ShellScript, ShellWord } from '../../parse/shell/shellSyntax';
import { effectsOf, SECRET_VARIABLE, secretFile, type Effects } from './shellEffects';

// Values followed through a shell script, in the order it runs: a secret read (a credentials file, the environment, a
// variable named for a secret) into a variable, a pipe or a file written, and from there to a command that sends it
// over the network; a program downloaded to a file and run later. Each flow is told at the command that completes it.

/** Where a value came from: what read it, and the offset of the command that did. */
interface Origin {
  what: string;
  at: number;
  /** A secret's content, or only the name of a secret file (a path, which a reader then reads). */
  kind: 'content' | 'path' | 'variable';
}

/** A flow found: where it ends in the script, and what the message says of it. */
export interface ShellFlow {
  kind: 'sendsSecret' | 'readsAndSends' | 'runsDownload';
  start: number;
  end: number;
  /** The command that completes it, as the message quotes it. */
  command: string;
  /** What flows from where: the secret and where it was read, or the address a program was downloaded from. */
  origin: Origin;
  /** Where it goes: the host a secret is sent to. */
  to?: string;
  url?: string;
}

/** The order the shell runs a script's commands in: a command's substitutions before the command. */
function runOrder(script: ShellScript): number[] {
  const inside = new Map<number, number[]>();
  const top: number[] = [];
  script.commands.forEach((command, index) => {
    if (command.substitutedIn === undefined) top.push(index);
    else inside.set(command.substitutedIn, [...(inside.get(command.substitutedIn) ?? []), index]);
  });
  const order: number[] = [];
  const visit = (index: number) => {
    for (const nested of inside.get(index) ?? []) visit(nested);
    order.push(index);
  };
  top.forEach(visit);
  return order;
}

/** The flows of a parsed script, whose text is `text` (for quoting commands). */
export function valueFlows(script: ShellScript, text: string, offset: number): ShellFlow[] {
  const variables = new Map<string, Origin>();
  const files = new Map<string, Origin>();
  const outputs = new Map<number, Origin>();
  const downloads = new Map<string, Origin>();
  const flows: ShellFlow[] = [];
  let read: Origin | undefined;
  let sender: { command: ShellCommand; effects: Effects } | undefined;
  const quote = (command: ShellCommand, end = command.end) =>
    text
      .slice(command.start - offset, end - offset)
      .replace(/\s*\\\n\s*/g, ' ')
      .trim()
      .slice(0, 120);

  /** What a word holds: a secret file's name, a variable's secret, a substitution's output. */
  const holds = (word: ShellWord, index: number): Origin | undefined => {
    if (secretFile(word.text)) return { what: word.text, at: word.start, kind: 'path' };
    for (const name of word.variables) {
      const held = variables.get(name);
      if (held) return held;
      if (SECRET_VARIABLE.test(name)) return { what: `$${name}`, at: word.start, kind: 'variable' };
    }
    for (const [nested, origin] of outputs)
      if (script.commands[nested].substitutedIn === index) {
        const at = script.commands[nested].start;
        if (word.start <= at && at < word.end) return origin;
      }
    return undefined;
  };

  for (const index of runOrder(script)) {
    const command = script.commands[index];
    const effects = effectsOf(command);
    const at = command.start;
    const held = command.words.map((word) => holds(word, index));
    let input = command.pipedFrom.map((from) => outputs.get(from)).find(Boolean);
    for (const redirection of command.redirections)
      if (/^<{1,3}$/.test(redirection.op))
        input ??=
          files.get(redirection.target.text) ??
          (redirection.op === '<' ? holdsFile(redirection.target.text, at) : holds(redirection.target, index));
    // What it prints for the next command, the variable or the file that takes it.
    let output: Origin | undefined;
    if (effects.readsSecretFiles.length > 0) output = { what: effects.readsSecretFiles[0], at, kind: 'content' };
    else if (effects.readsEnvironment) output = { what: 'the environment', at, kind: 'content' };
    else if (!effects.sends) {
      const path = command.words.slice(1).find((_, word) => held[word + 1]?.kind === 'path');
      const value = held.slice(1).find((origin) => origin && origin.kind !== 'path');
      output =
        input ??
        value ??
        (path && effects.program && /^(?:cat|base64|tar|gzip|head|tail|xxd)$/.test(effects.program)
          ? { ...held[command.words.indexOf(path)]!, kind: 'content' }
          : undefined);
    }
    // A secret a variable takes is followed through it; one printed or written elsewhere may be lost track of.
    if (output && output.kind !== 'variable' && command.assignedTo === undefined) read ??= output;
    if (output) outputs.set(index, output);
    // A reader given a variable that names a secret file reads it too.
    if (!read && command.assignedTo === undefined) {
      const named = held.find((origin) => origin?.kind === 'path');
      if (named && effects.program && /^(?:cat|base64|tar|gzip|head|tail|xxd|cp)$/.test(effects.program)) read = named;
    }
    for (const assignment of command.assignments) {
      const origin = assignment.value && holds(assignment.value, index);
      if (origin) variables.set(assignment.name, origin);
      else if (!command.assignments.some((other) => other !== assignment && other.name === assignment.name))
        variables.delete(assignment.name);
    }
    for (const redirection of command.redirections)
      if (/^(?:>|>>|&>|&>>|>\|)$/.test(redirection.op) && !redirection.descriptor)
        if (output) files.set(redirection.target.text, output);
        else files.delete(redirection.target.text);
    if (effects.program === 'tee' && output)
      for (const word of command.words.slice(1)) if (!word.text.startsWith('-')) files.set(word.text, output);
    if (effects.downloads?.savedTo)
      downloads.set(effects.downloads.savedTo.replace(/^\.\//, ''), {
        what: effects.downloads.url ?? 'an address',
        at,
        kind: 'content',
      });
    if (effects.sends) {
      // A request that only authenticates (a header, a user) sends no data of the script's.
      if (effects.sends.input || effects.sends.values.some((value) => !value.authentication))
        sender ??= { command, effects };
      const sent = sentSecret(effects, input, files, (word) => holds(word, index), at);
      if (sent) {
        // Up to the word that carries the secret, when one does; the whole command when it sends its input.
        const end = sent.word?.end ?? lastWordEnd(command);
        // Sent from its input: from the command of the same pipeline that read it (`env | curl …`).
        const from = sent.word || !/^[^\n]*$/.test(text.slice(sent.origin.at - offset, command.start - offset));
        flows.push({
          kind: 'sendsSecret',
          start: from ? command.start : Math.min(sent.origin.at, command.start),
          end,
          command: quote(command, lastWordEnd(command)),
          origin: sent.origin,
          to: effects.sends.to,
        });
        read = undefined;
      }
    }
    const runs = effects.runsFile && downloads.get(effects.runsFile.text.replace(/^\.\//, ''));
    if (runs) {
      downloads.delete(effects.runsFile!.text.replace(/^\.\//, ''));
      flows.push({
        kind: 'runsDownload',
        start: command.start,
        end: lastWordEnd(command),
        command: quote(command, lastWordEnd(command)),
        origin: runs,
        ...(runs.what.startsWith('http') ? { url: runs.what } : {}),
      });
    }
  }
  // Read in one place and sent in another that no value followed (a function's argument, a temporary file whose name
  // is passed around): told at the first command that sends, with what was read.
  if (read && sender && !flows.some((flow) => flow.kind === 'sendsSecret'))
    flows.push({
      kind: 'readsAndSends',
      start: sender.command.start,
      end: lastWordEnd(sender.command),
      command: quote(sender.command, lastWordEnd(sender.command)),
      origin: read,
      to: sender.effects.sends!.to,
    });
  return flows;
}

/** A secret file named by a redirection's target: its content is the input. */
function holdsFile(text: string, at: number): Origin | undefined {
  return secretFile(text) ? { what: text, at, kind: 'content' } : undefined;
}

/** The secret a sending command sends, if any, and the word it is in: in a value, a file it uploads, or its input. */
function sentSecret(
  effects: Effects,
  input: Origin | undefined,
  files: Map<string, Origin>,
  holds: (word: ShellWord) => Origin | undefined,
  at: number,
): { origin: Origin; word?: ShellWord } | undefined {
  const { sends } = effects;
  if (!sends) return undefined;
  if (sends.input && input) return { origin: input };
  for (const value of sends.values) {
    if (value.file) {
      const file =
        files.get(value.file) ??
        (secretFile(value.file) ? { what: value.file, at, kind: 'content' as const } : undefined);
      if (file) return { origin: file, word: value.word };
    }
    const origin = value.word && holds(value.word);
    // A token named for what it is, in a header, a form or a query, is how a request authenticates (`-H "Bearer
    // $TOKEN"`, `-F access_token=$API_TOKEN`): its use, not a leak. Piped into a raw connection it is sent (above).
    if (origin && origin.kind === 'content') return { origin, word: value.word };
  }
  return undefined;
}

/** Where a command's words end: its redirections (`>/dev/null`) are not what it does. */
function lastWordEnd(command: ShellCommand): number {
  return command.words.length > 0 ? command.words[command.words.length - 1].end : command.end;
}
