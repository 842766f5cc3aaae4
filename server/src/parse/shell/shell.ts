import { programAt, programName } from './commandProgram';
import { shellParser } from './shellGrammar';
import { doubleQuoted, literal } from './shellQuotes';
import { syntaxNodes, type SyntaxNode } from './syntaxNodes';
import type { ShellAssignment, ShellCommand, ShellRedirection, ShellScript, ShellWord } from './shellSyntax';

// A shell script read by tree-sitter-bash (bash's grammar; sh and zsh scripts read as bash reads them), never run.
// The grammar recovers from what is not shell by marking it an error: the line an error starts on is blanked (its
// offsets kept) and the rest read again, a bounded number of times; what is still an error then is left out. A string
// given to a shell to run (`bash -c '…'`, `eval "…"`) is read as a script too, a bounded depth deep.

/** Lines blanked before what is still an error is left out: each retry parses the text again. */
const MAX_RETRIES = 4;
/** Strings given to a shell inside strings given to a shell: past this depth they are not read. */
const MAX_DEPTH = 3;
/** A placeholder in documentation's commands (`<file>`, `<brd|rules>`): a value to fill in, not a redirection. */
const PLACEHOLDER = /(?<=^|[\s=])<[A-Za-z][^<>\s]*>/g;
/** Redirections, as a command's children or after a here-document's delimiter. */
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
/** Nodes that hold no statement. */
const NO_STATEMENT = new Set(['word', 'number', 'string_content', 'raw_string', 'variable_name', 'comment']);
/** What a loop runs: `do …; done`, or bash's `{ …; }`. */
const BODIES = new Set(['do_group', 'compound_statement']);
/** Shells whose `-c` runs the string after it. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

/** The command a substitution's commands are in, and the variable that takes their output. */
type Into = { command: number; assign?: string };

/**
 * Reads a shell script; undefined when the grammar is not loaded (see shellGrammar.ts), where a caller reads the text
 * a line at a time instead. Never throws: what the grammar cannot read is in `unread`.
 */
export function parseShell(text: string): ShellScript | undefined {
  if (!shellParser()) return undefined;
  const script: ShellScript = { commands: [], unread: [] };
  read(text, 0, 0, script);
  return script;
}

/** Reads `text`, found at `offset` of the script, into `script`; `places` maps a string's characters to the text's. */
function read(text: string, offset: number, depth: number, script: ShellScript, places?: number[]): void {
  const parser = shellParser()!;
  let source = text.replace(PLACEHOLDER, (placeholder) => placeholder.replace(/[<>|]/g, '_'));
  for (let retry = 0; ; retry++) {
    const tree = parser.parse(source);
    if (!tree) return;
    const { root, firstError } = syntaxNodes(tree);
    tree.delete();
    if (firstError === undefined || retry === MAX_RETRIES) {
      new Reader(source, offset, depth, places, script).statement(root);
      return;
    }
    // The line the error starts on is blanked: spaces keep every other offset.
    const lineStart = source.lastIndexOf('\n', firstError - 1) + 1;
    const next = source.indexOf('\n', firstError);
    const lineEnd = next === -1 ? source.length : next;
    script.unread.push({ start: offset + lineStart, end: offset + lineEnd });
    source = source.slice(0, lineStart) + ' '.repeat(lineEnd - lineStart) + source.slice(lineEnd);
  }
}

/** One reading of a parsed text into the commands of a script. */
class Reader {
  constructor(
    private readonly text: string,
    private readonly offset: number,
    private readonly depth: number,
    private readonly places: number[] | undefined,
    private readonly script: ShellScript,
  ) {}

  private slice(node: SyntaxNode): string {
    return this.text.slice(node.start, node.end);
  }

  /** Where a place of the parsed text is in the script. */
  private at(place: number): number {
    return this.offset + (this.places ? (this.places[place] ?? this.places[this.places.length - 1]) : place);
  }

  /**
   * Reads a statement (a command, a pipeline, a list, a compound command) and the redirections written after it;
   * returns the indexes of its simple commands (for a pipe between them), not those of its substitutions.
   */
  statement(node: SyntaxNode, into?: Into, redirects: SyntaxNode[] = []): number[] {
    switch (node.type) {
      case 'command':
        return this.command(node, redirects, into);
      case 'redirected_statement': {
        const body = node.children.find((child) => !REDIRECTS.has(child.type));
        const own = [...node.children.filter((child) => REDIRECTS.has(child.type)), ...redirects];
        // Redirections alone (`> file`): a command with no words.
        if (!body) return [this.simple(node, [], [], own, into)];
        return this.statement(body, into, own);
      }
      case 'variable_assignment':
        return [this.simple(node, [], [node], redirects, into)];
      case 'variable_assignments':
        return [this.simple(node, [], node.children, redirects, into)];
      case 'declaration_command': {
        // `export A=$(…)`, `local -r B`: the builtin's word, then its assignments.
        const assigns = node.children.filter((child) => /^(?:variable_assignment|variable_name)$/.test(child.type));
        return [this.simple(node, [], assigns, redirects, into, this.keyword(node))];
      }
      case 'unset_command':
        return [this.simple(node, node.children, [], redirects, into, this.keyword(node))];
      case 'pipeline':
        return this.pipeline(node.children, [], into, redirects);
      case 'list':
        // `a && b > f`: the grammar puts the redirection after the list; the shell gives it to the last command.
        return this.each(node.children, into, redirects);
      case 'for_statement':
        // Its words are read with the loop's variable; its body as any compound command's.
        this.loop(node, into);
        return this.each(
          node.children.filter((child) => BODIES.has(child.type)),
          into,
        );
      case 'ERROR':
        return [];
      default:
        // A compound command (`{ …; }`, `( … )`, `if`, `while`, `case`, a function) or any other node.
        return this.each(
          node.children.filter((child) => !NO_STATEMENT.has(child.type)),
          into,
        );
    }
  }

  /** Statements one after another; the redirections written after the last are its. */
  private each(nodes: SyntaxNode[], into?: Into, redirects: SyntaxNode[] = []): number[] {
    const all: number[] = [];
    nodes.forEach((node, at) => all.push(...this.statement(node, into, at === nodes.length - 1 ? redirects : [])));
    return all;
  }

  /** `a | b | c`: each part reads the output of the part before; the first from `from`, when given. */
  private pipeline(parts: SyntaxNode[], from: number[], into?: Into, redirects: SyntaxNode[] = []): number[] {
    let before = from;
    const all: number[] = [];
    parts.forEach((part, at) => {
      const indexes = this.statement(part, into, at === parts.length - 1 ? redirects : []);
      for (const index of indexes) this.script.commands[index].pipedFrom.push(...before);
      before = indexes;
      all.push(...indexes);
    });
    return all;
  }

  /** `for f in a b`: the loop's variable is given each word in turn, as an assignment would. */
  private loop(node: SyntaxNode, into?: Into): void {
    const variable = node.children[0];
    if (variable?.type !== 'variable_name') return;
    const name = this.slice(variable);
    const items = node.children.slice(1).filter((child) => !BODIES.has(child.type) && child.type !== 'comment');
    const index = this.simple({ start: variable.start, end: items.at(-1)?.end ?? variable.end }, [], [], [], into);
    for (const item of items) {
      const value = this.word(item, { command: index, assign: name });
      this.script.commands[index].assignments.push({ name, value, start: value.start, end: value.end });
    }
  }

  private command(node: SyntaxNode, redirects: SyntaxNode[], into?: Into): number[] {
    const nameAt = node.children.findIndex((child) => child.type === 'command_name');
    const prefix = nameAt === -1 ? node.children : node.children.slice(0, nameAt);
    const assigns = prefix.filter((child) => child.type === 'variable_assignment');
    const rest = nameAt === -1 ? [] : node.children.slice(nameAt);
    const args = rest.filter((child) => !REDIRECTS.has(child.type));
    const own = [...node.children.filter((child) => REDIRECTS.has(child.type)), ...redirects];
    // tree-sitter-bash reads `A=1 B=2⏎cmd` as one command (a newline after two or more assignments is lost): the
    // assignments are a command of their own when a newline the shell sees stands before the program.
    const last = prefix.at(-1);
    if (last && nameAt !== -1 && this.text.slice(last.end, rest[0].start).replace(/\\\n/g, '').includes('\n')) {
      const alone = this.simple({ start: node.start, end: last.end }, [], assigns, [], into);
      return [alone, this.simple({ start: rest[0].start, end: node.end }, args, [], own, into)];
    }
    return [this.simple(node, args, assigns, own, into)];
  }

  /** The builtin a declaration or `unset` starts with (`export`, `local`, `readonly`), as a word. */
  private keyword(node: SyntaxNode): ShellWord {
    const text = /^[a-z]*/.exec(this.text.slice(node.start, node.start + 16))![0];
    const [start, end] = [this.at(node.start), this.at(node.start + text.length)];
    return { text, expanded: false, quoted: false, variables: [], start, end };
  }

  private simple(
    span: { start: number; end: number },
    args: SyntaxNode[],
    assigns: SyntaxNode[],
    redirects: SyntaxNode[],
    into?: Into,
    builtin?: ShellWord,
  ): number {
    const index = this.script.commands.length;
    const command: ShellCommand = {
      words: builtin ? [builtin] : [],
      assignments: [],
      redirections: [],
      start: this.at(span.start),
      end: this.at(span.end),
      pipedFrom: [],
      depth: this.depth,
      ...(into ? { substitutedIn: into.command, ...(into.assign ? { assignedTo: into.assign } : {}) } : {}),
    };
    this.script.commands.push(command);
    for (const assign of assigns) command.assignments.push(this.assignment(assign, index));
    for (const arg of args) {
      // A shell's `-c` string and `eval`'s are scripts: read as such, not as words whose substitutions run.
      const runs = this.runsString(command.words);
      command.words.push(this.word(arg, runs ? undefined : { command: index }));
      if (runs && this.depth < MAX_DEPTH) this.reparse(arg);
    }
    const after: SyntaxNode[] = [];
    for (const redirect of redirects) this.redirection(redirect, index, after);
    // The command ends where its last word or redirection does: a here-document's lines are not quoted with it.
    let end = -1;
    for (const parts of [command.words, command.assignments, command.redirections])
      for (const part of parts) end = Math.max(end, part.end);
    if (end !== -1) command.end = end;
    // A here-document given to a shell, or written to a file (a hook, a script, a unit), is a script that runs.
    const bodies = command.redirections.filter((item) => item.body);
    if (bodies.length > 0 && this.depth < MAX_DEPTH) {
      const program = programAt(command.words);
      const name = program === undefined ? '' : programName(command.words[program]);
      const writes = command.redirections.some((item) => /^(?:>|>>|>\|)$/.test(item.op)) || name === 'tee';
      if (SHELLS.has(name) || writes)
        for (const { body } of bodies) read(body!.text, body!.start, this.depth + 1, this.script);
    }
    // What follows a here-document's delimiter on its line: `cat <<EOF | sh`, `cat <<EOF && next`.
    for (const node of after)
      if (node.type === 'pipeline') this.pipeline(node.children, [index], into);
      else this.statement(node, into);
    return index;
  }

  /** Whether the next word of a command is a string its program runs as a script. */
  private runsString(words: ShellWord[]): boolean {
    const last = words[words.length - 1];
    if (last === undefined) return false;
    const shellOption = /^-[a-z]*c[a-z]*$/.test(last.text);
    // Most words are neither: the program is looked for only after `-c` or `eval`.
    if (!shellOption && programName(last) !== 'eval') return false;
    const program = programAt(words);
    if (program === undefined) return false;
    const name = programName(words[program]);
    if (name === 'eval') return words.length === program + 1;
    return SHELLS.has(name) && words.length > program + 1 && shellOption;
  }

  /** A word given to a shell to run, read as a script at its place (inside its quotes, when it is one quoted part). */
  private reparse(node: SyntaxNode) {
    const quoted = node.type === 'string' || node.type === 'raw_string';
    const whole = this.slice(node);
    const from = this.at(node.start) - this.offset + (quoted ? 1 : 0);
    const written = quoted ? whole.slice(1, -1) : whole;
    if (node.type !== 'string' || !written.includes('\\'))
      return read(written, this.offset + from, this.depth + 1, this.script);
    // In double quotes `\"` is a quote to the shell that runs the string: read without its backslash, at its place.
    const { text, places } = doubleQuoted(written);
    read(text, this.offset + from, this.depth + 1, this.script, places);
  }

  /** `NAME=value`, `a[1]=x`, `NAME+=more`, or a name alone (`export NAME`). */
  private assignment(node: SyntaxNode, command: number): ShellAssignment {
    const target = node.type === 'variable_assignment' ? node.children[0] : node;
    const variable = target?.type === 'subscript' ? target.children[0] : target;
    const name = variable?.type === 'variable_name' ? this.slice(variable) : '';
    const value = node.type === 'variable_assignment' ? node.children[1] : undefined;
    return {
      name,
      // An array (`A=(…)`) is not one value.
      ...(value && value.type !== 'array'
        ? { value: this.word(value, { command, ...(name ? { assign: name } : {}) }) }
        : {}),
      start: this.at(node.start),
      end: this.at(node.end),
    };
  }

  /**
   * A redirection into the command's; a here-document's delimiter may be followed by more redirections (read here)
   * and by pipes or other commands (put in `after`).
   */
  private redirection(node: SyntaxNode, command: number, after: SyntaxNode[]): void {
    const descriptor = node.children[0]?.type === 'file_descriptor' ? node.children[0] : undefined;
    const target = node.children.find((child) =>
      node.type === 'heredoc_redirect' ? child.type === 'heredoc_start' : child !== descriptor,
    );
    // The operator is the text between the descriptor and the target (`>&-` has no target).
    const opEnd = target?.start ?? node.end;
    const op = this.text
      .slice(descriptor?.end ?? node.start, opEnd)
      .replace(/\\\n/g, '')
      .trim();
    const end = this.at(target?.end ?? opEnd);
    const redirection: ShellRedirection = {
      op: op || '>',
      ...(descriptor ? { descriptor: this.slice(descriptor) } : {}),
      target: target
        ? this.word(target, { command })
        : { text: '', expanded: false, quoted: false, variables: [], start: end, end },
      start: this.at(node.start),
      end,
    };
    this.script.commands[command].redirections.push(redirection);
    if (node.type !== 'heredoc_redirect') return;
    for (const child of node.children) {
      if (child.type === 'heredoc_body') {
        redirection.body = { start: this.at(child.start), end: this.at(child.end), text: this.slice(child) };
      } else if (REDIRECTS.has(child.type)) this.redirection(child, command, after);
      else if (!child.type.startsWith('heredoc_') && child !== descriptor) after.push(child);
    }
  }

  /** A word: its text as the shell reads it, and the commands of its substitutions (into the script). */
  private word(node: SyntaxNode, into: Into | undefined): ShellWord {
    const word: ShellWord = {
      text: '',
      expanded: false,
      quoted: false,
      variables: [],
      start: this.at(node.start),
      end: this.at(node.end),
    };
    this.part(node, word, into, false);
    return word;
  }

  private part(node: SyntaxNode, word: ShellWord, into: Into | undefined, inQuotes: boolean): void {
    switch (node.type) {
      case 'raw_string':
        word.quoted = true;
        word.text += this.text.slice(node.start + 1, node.end - 1);
        return;
      case 'ansi_c_string':
        word.quoted = true;
        word.text += this.text.slice(node.start + 2, node.end - 1);
        return;
      case 'string': {
        word.quoted = true;
        // Between its quotes (the closing one may be missing).
        const end = node.end - (node.end - node.start > 1 && this.text[node.end - 1] === '"' ? 1 : 0);
        this.parts(node.children, node.start + 1, end, word, into, true);
        return;
      }
      case 'concatenation':
      case 'command_name':
        this.parts(node.children, node.start, node.end, word, into, inQuotes);
        return;
      case 'simple_expansion':
      case 'expansion': {
        word.expanded = true;
        word.text += this.slice(node);
        const name = node.children.find((child) => /^(?:special_)?variable_name$/.test(child.type));
        if (name) word.variables.push(this.slice(name));
        return;
      }
      case 'command_substitution':
      case 'process_substitution':
        word.expanded = true;
        word.text += this.slice(node);
        if (into) this.each(node.children, into);
        return;
      case 'arithmetic_expansion':
        word.expanded = true;
        word.text += this.slice(node);
        return;
      default:
        word.text += literal(this.slice(node), inQuotes);
    }
  }

  /** The parts of a word or a string between `start` and `end`: text between its parts' nodes is literal. */
  private parts(
    children: SyntaxNode[],
    start: number,
    end: number,
    word: ShellWord,
    into: Into | undefined,
    inQuotes: boolean,
  ): void {
    let at = start;
    for (const child of children) {
      if (child.start < start || child.end > end || child.type === 'string_content') continue;
      if (child.start > at) word.text += literal(this.text.slice(at, child.start), inQuotes);
      this.part(child, word, into, inQuotes);
      at = child.end;
    }
    if (end > at) word.text += literal(this.text.slice(at, end), inQuotes);
  }
}
