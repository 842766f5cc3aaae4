import type { ShNode } from 'mvdan-sh';
import type * as ShellGrammar from './shellGrammar';
import { programAt, programName } from './commandProgram';
import type { ShellAssignment, ShellCommand, ShellRedirection, ShellScript, ShellWord } from './shellSyntax';

// A shell script read by mvdan/sh's parser (bash's grammar; sh and zsh scripts read as bash reads them), never run.
// The parser stops at the first thing that is not shell: a line it cannot read is blanked (its offsets kept) and the
// rest read again, a bounded number of times. A string given to a shell to run (`bash -c '…'`, `eval "…"`) is read as
// a script too, a bounded depth deep.

let grammar: typeof ShellGrammar | undefined;

/** The grammar is loaded on first use (see shellGrammar.ts). */
function mvdan(): typeof ShellGrammar {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  grammar ??= require('./shellGrammar') as typeof ShellGrammar;
  return grammar;
}

/** Lines blanked before the rest of a text is left unread: each retry parses the text again. */
const MAX_RETRIES = 4;
/** Strings given to a shell inside strings given to a shell: past this depth they are not read. */
const MAX_DEPTH = 3;
/** A placeholder in documentation's commands (`<file>`, `<brd|rules>`): a value to fill in, not a redirection. */
const PLACEHOLDER = /(?<=^|[\s=])<[A-Za-z][^<>\s]*>/g;
/** Redirection operators by mvdan/sh's token number. */
const REDIRECTIONS: Record<number, string> = {
  54: '>',
  55: '>>',
  56: '<',
  57: '<>',
  58: '<&',
  59: '>&',
  60: '>|',
  61: '<<',
  62: '<<-',
  63: '<<<',
  64: '&>',
  65: '&>>',
};
/** `|` and `|&` by token number: the operators that join commands into a pipeline. */
const PIPES = new Set([12, 13]);
/** Shells whose `-c` runs the string after it. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

/** Reads a shell script. Never throws: what the grammar cannot read is in `unread`. */
export function parseShell(text: string): ShellScript {
  const script: ShellScript = { commands: [], unread: [] };
  read(text, 0, 0, script);
  return script;
}

/** Reads `text`, found at `offset` of the script, into `script`. */
function read(text: string, offset: number, depth: number, script: ShellScript, places?: number[]): void {
  const { syntax } = mvdan();
  const parser = syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash));
  let source = text.replace(PLACEHOLDER, (placeholder) => placeholder.replace(/[<>|]/g, '_'));
  const utf16 = byteOffsets(source);
  // Where each character is in the text given (a string's characters, its escapes removed, are not where they read).
  const bytes = places ? (byte: number) => places[utf16 ? utf16(byte) : byte] ?? text.length : utf16;
  for (let retry = 0; retry <= MAX_RETRIES; retry++) {
    try {
      const file = parser.Parse(source, '');
      new Reader(source, offset, depth, bytes, utf16, script).statements(file.Stmts as ShNode[]);
      return;
    } catch (error) {
      const at = (error as { Pos?: { Offset(): number } }).Pos?.Offset();
      if (at === undefined) return;
      // The line the parser stopped on is blanked: spaces keep every other offset.
      const place = utf16 ? utf16(at) : at;
      const lineStart = source.lastIndexOf('\n', place - 1) + 1;
      const next = source.indexOf('\n', place);
      const lineEnd = next === -1 ? source.length : next;
      script.unread.push({ start: offset + lineStart, end: offset + lineEnd });
      if (retry === MAX_RETRIES) return;
      source = source.slice(0, lineStart) + ' '.repeat(lineEnd - lineStart) + source.slice(lineEnd);
    }
  }
}

/**
 * The UTF-16 offset of each UTF-8 byte offset of a text that is not ASCII (the parser counts bytes); undefined for
 * ASCII, where they are the same.
 */
function byteOffsets(text: string): ((byte: number) => number) | undefined {
  if (!/[^\x00-\x7f]/.test(text)) return undefined;
  const table: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const code = text.codePointAt(at)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    for (let byte = 0; byte < size; byte++) table.push(at);
    if (code >= 0x10000) at++;
  }
  return (byte) => (byte < table.length ? table[byte] : text.length);
}

/** One reading of a parsed text into the commands of a script. */
class Reader {
  constructor(
    private readonly text: string,
    private readonly offset: number,
    private readonly depth: number,
    private readonly bytes: ((byte: number) => number) | undefined,
    private readonly utf16: ((byte: number) => number) | undefined,
    private readonly script: ShellScript,
  ) {}

  /** The text of a node, as read (a string's escapes removed). */
  private slice(node: ShNode): string {
    const [from, to] = [node.Pos().Offset(), node.End().Offset()];
    return this.utf16 ? this.text.slice(this.utf16(from), this.utf16(to)) : this.text.slice(from, to);
  }

  private at(position: { Offset(): number }): number {
    const byte = position.Offset();
    return this.offset + (this.bytes ? this.bytes(byte) : byte);
  }

  /** Reads statements; returns the indexes of the simple commands among them (for a pipe between them). */
  statements(statements: ShNode[], into?: { command: number; assign?: string }): number[] {
    return statements.flatMap((statement) => this.statement(statement, into));
  }

  private statement(statement: ShNode, into?: { command: number; assign?: string }): number[] {
    const command = statement.Cmd as ShNode | null;
    const redirects = (statement.Redirs as ShNode[]) ?? [];
    if (!command) {
      // Redirections alone (`> file`): a command with no words.
      return redirects.length > 0 ? [this.simple(statement, [], [], redirects, into)] : [];
    }
    return this.command(command, redirects, statement, into);
  }

  private command(
    node: ShNode,
    redirects: ShNode[],
    statement: ShNode,
    into?: { command: number; assign?: string },
  ): number[] {
    const { syntax } = mvdan();
    switch (syntax.NodeType(node)) {
      case 'CallExpr':
        return [this.simple(statement, node.Args as ShNode[], node.Assigns as ShNode[], redirects, into)];
      case 'DeclClause': {
        // `export A=$(…)`: the builtin's word, then its assignments.
        const index = this.simple(statement, [], node.Args as ShNode[], redirects, into);
        const variant = node.Variant as ShNode;
        const [start, end] = [this.at(variant.Pos()), this.at(variant.End())];
        const word = { text: variant.Value as string, expanded: false, quoted: false, variables: [], start, end };
        this.script.commands[index].words.push(word);
        return [index];
      }
      case 'BinaryCmd': {
        const left = this.statement(node.X as ShNode, into);
        const right = this.statement(node.Y as ShNode, into);
        if (PIPES.has(node.Op as number))
          for (const index of right) this.script.commands[index].pipedFrom.push(...left);
        return [...left, ...right];
      }
      default:
        return this.compound(node, into);
    }
  }

  /** A compound command (`{ …; }`, `( … )`, `if`, loops, `case`, a function): the statements it holds. */
  private compound(node: ShNode, into?: { command: number; assign?: string }): number[] {
    const { syntax } = mvdan();
    // `for f in a b`: the loop's variable is given each word in turn, as an assignment would.
    const loop = node.Loop as ShNode | undefined;
    if (loop && syntax.NodeType(loop) === 'WordIter') {
      const name = (loop.Name as ShNode).Value as string;
      const index = this.simple(loop, [], [], [], into);
      for (const item of (loop.Items as ShNode[]) ?? []) {
        const value = this.word(item, { command: index, assign: name });
        this.script.commands[index].assignments.push({ name, value, start: value.start, end: value.end });
      }
    }
    const lists: ShNode[][] = [];
    const add = (value: unknown) => {
      if (Array.isArray(value)) lists.push(value as ShNode[]);
      else if (value && typeof value === 'object') {
        const type = syntax.NodeType(value as ShNode);
        if (type === 'Stmt') lists.push([value as ShNode]);
        else if (type === 'IfClause' || type === 'CaseItem') lists.push(...nestedLists(value as ShNode));
      }
    };
    for (const field of ['Stmts', 'Cond', 'Then', 'Else', 'Do', 'Body', 'Stmt']) add(node[field]);
    if (Array.isArray(node.Items)) for (const item of node.Items as ShNode[]) add(item.Stmts);
    return lists.flatMap((list) => this.statements(list, into));
  }

  private simple(
    statement: ShNode,
    args: ShNode[],
    assigns: ShNode[],
    redirects: ShNode[],
    into?: { command: number; assign?: string },
  ): number {
    const index = this.script.commands.length;
    const command: ShellCommand = {
      words: [],
      assignments: [],
      redirections: [],
      start: this.at(statement.Pos()),
      end: this.at(statement.End()),
      pipedFrom: [],
      depth: this.depth,
      ...(into ? { substitutedIn: into.command, ...(into.assign ? { assignedTo: into.assign } : {}) } : {}),
    };
    this.script.commands.push(command);
    for (const assign of assigns) command.assignments.push(this.assignment(assign, index));
    const program = () => programAt(command.words);
    for (const arg of args) {
      // A shell's `-c` string and `eval`'s are scripts: read as such, not as words whose substitutions run.
      const runs = this.runsString(command.words, program());
      command.words.push(this.word(arg, runs ? undefined : { command: index }));
      if (runs && this.depth < MAX_DEPTH) this.reparse(arg);
    }
    for (const redirect of redirects) command.redirections.push(this.redirection(redirect, index));
    // A here-document given to a shell, or written to a file (a hook, a script, a unit), is a script that runs.
    const name = program() === undefined ? '' : programName(command.words[program()!]);
    const writes = command.redirections.some((item) => /^(?:>|>>|>\|)$/.test(item.op)) || name === 'tee';
    if ((SHELLS.has(name) || writes) && this.depth < MAX_DEPTH)
      for (const { body } of command.redirections) if (body) read(body.text, body.start, this.depth + 1, this.script);
    return index;
  }

  /** Whether the next word of a command is a string its program runs as a script. */
  private runsString(words: ShellWord[], program: number | undefined): boolean {
    if (program === undefined) return false;
    const name = programName(words[program]);
    if (name === 'eval') return words.length === program + 1;
    const last = words[words.length - 1];
    return SHELLS.has(name) && words.length > program + 1 && /^-[a-z]*c[a-z]*$/.test(last.text);
  }

  /** A word given to a shell to run, read as a script at its place (inside its quotes, when it is one quoted part). */
  private reparse(node: ShNode) {
    const { syntax } = mvdan();
    const parts = node.Parts as ShNode[];
    const quoted = parts.length === 1 && /^(?:SglQuoted|DblQuoted)$/.test(syntax.NodeType(parts[0]));
    const whole = this.slice(node);
    const from = this.at(node.Pos()) - this.offset + (quoted ? 1 : 0);
    const written = quoted ? whole.slice(1, -1) : whole;
    if (!quoted || syntax.NodeType(parts[0]) !== 'DblQuoted' || !written.includes('\\'))
      return read(written, this.offset + from, this.depth + 1, this.script);
    // In double quotes `\"` is a quote to the shell that runs the string: read without its backslash, at its place.
    let inner = '';
    const places: number[] = [];
    for (let at = 0; at < written.length; at++) {
      if (written[at] === '\\' && /[\\"$`]/.test(written[at + 1] ?? '')) at++;
      inner += written[at];
      places.push(at);
    }
    places.push(written.length);
    read(inner, this.offset + from, this.depth + 1, this.script, places);
  }

  private assignment(node: ShNode, command: number): ShellAssignment {
    const name = (node.Name as ShNode | null)?.Value as string | undefined;
    const value = node.Value as ShNode | null;
    return {
      name: name ?? '',
      ...(value ? { value: this.word(value, { command, ...(name ? { assign: name } : {}) }) } : {}),
      start: this.at(node.Pos()),
      end: this.at(node.End()),
    };
  }

  private redirection(node: ShNode, command: number): ShellRedirection {
    const descriptor = (node.N as ShNode | null)?.Value as string | undefined;
    const body = node.Hdoc as ShNode | null;
    const redirection: ShellRedirection = {
      op: REDIRECTIONS[node.Op as number] ?? '>',
      ...(descriptor ? { descriptor } : {}),
      target: this.word(node.Word as ShNode, { command }),
      start: this.at(node.Pos()),
      end: this.at(node.End()),
    };
    if (body) {
      redirection.body = { start: this.at(body.Pos()), end: this.at(body.End()), text: this.slice(body) };
    }
    return redirection;
  }

  /** A word: its text as the shell reads it, and the commands of its substitutions (into the script). */
  private word(node: ShNode, into: { command: number; assign?: string } | undefined): ShellWord {
    const word: ShellWord = {
      text: '',
      expanded: false,
      quoted: false,
      variables: [],
      start: this.at(node.Pos()),
      end: this.at(node.End()),
    };
    this.parts(node.Parts as ShNode[], word, into, false);
    return word;
  }

  private parts(
    parts: ShNode[],
    word: ShellWord,
    into: { command: number; assign?: string } | undefined,
    inQuotes: boolean,
  ) {
    const { syntax } = mvdan();
    for (const part of parts) {
      const type = syntax.NodeType(part);
      if (type === 'Lit') {
        const value = part.Value as string;
        word.text += inQuotes ? value.replace(/\\([\\"$`])|\\\n/g, '$1') : value.replace(/\\(.)|\\\n/gs, '$1');
      } else if (type === 'SglQuoted') {
        word.quoted = true;
        word.text += part.Value as string;
      } else if (type === 'DblQuoted') {
        word.quoted = true;
        this.parts(part.Parts as ShNode[], word, into, true);
      } else {
        word.expanded = true;
        word.text += this.slice(part);
        if (type === 'ParamExp') {
          const name = (part.Param as ShNode | null)?.Value as string | undefined;
          if (name) word.variables.push(name);
        } else if ((type === 'CmdSubst' || type === 'ProcSubst') && into) this.statements(part.Stmts as ShNode[], into);
      }
    }
  }
}

/** The statement lists of an `if` (its condition, branches and `elif`s) or a `case` item. */
function nestedLists(node: ShNode): ShNode[][] {
  const lists: ShNode[][] = [];
  for (let clause: ShNode | null = node; clause; clause = clause.Else as ShNode | null) {
    for (const field of ['Cond', 'Then', 'Stmts'])
      if (Array.isArray(clause[field])) lists.push(clause[field] as ShNode[]);
    if (!('Else' in clause)) break;
  }
  return lists;
}
