import { SHELL_KEYWORDS, SHELL_STATE_BUILTINS } from '../../platforms/shells';
import { ASSIGNMENT, WRAPPERS } from '../../parse/shell/commandProgram';

// The programs a shell script runs, read as the shell reads it (never run): the first word of each command, past
// its assignments (`LANG=C sort`), its redirections and the shell's grammar (`if`, `do`, `done`, a `case` pattern, a
// function's definition); not a here-document's lines, nor text in quotes, which are arguments; the commands inside
// `$( )`, backticks and `<( )` too. A wrapper (commandProgram.ts: `env`, `sudo`, `nohup`, `xargs`, …)
// is read through to the program it runs: `/usr/bin/env python3 x.py` runs `python3`.

/**
 * A word of a command, its quotes removed; `expanded` when the shell fills part of it in (`$NAME`, `$(…)`). Where it
 * is in its script, and where the commands of its substitutions are (`runs`): what in it the shell runs.
 */
interface Word {
  text: string;
  raw: string;
  expanded: boolean;
  start: number;
  end: number;
  runs: { start: number; end: number }[];
}

type Token = { word: Word } | { op: string };

/** What a script runs: its programs, and the functions it defines (whose calls run no program). */
export interface ScriptPrograms {
  programs: string[];
  functions: string[];
}

/** Operators of more than one character, longest first (`&&` is not two `&`); each starts with a single one. */
const OPERATORS = [';;&', '&>>', '<<<', '<<-', ';;', ';&', '&&', '||', '|&', '&>', '<<', '<>', '<&', '>>', '>&', '>|'];
const SINGLE_OPERATORS = new Set([';', '&', '|', '(', ')', '<', '>']);
const REDIRECTIONS = new Set(['&>>', '<<<', '<<-', '&>', '<<', '<>', '<&', '>>', '>&', '>|', '<', '>']);
/** A placeholder in documentation's commands (`<file>`, `<brd|rules>`): a value for the reader to fill in. */
const PLACEHOLDER = /^<[A-Za-z][^<>\s]*>/;
/** Substitutions nest; past this depth their commands are not read (a script is no deeper, input may be). */
const MAX_DEPTH = 8;

/** Where the bracket opened at `open` closes, counting nesting and skipping quotes; the text's end if never. */
function closing(text: string, open: number, left: string, right: string): number {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const char = text[at];
    if (char === '\\') at++;
    else if (char === "'" || char === '"') {
      const end = text.indexOf(char, at + 1);
      if (end !== -1) at = end;
    } else if (char === left) depth++;
    else if (char === right && --depth === 0) return at;
  }
  return text.length;
}

/**
 * Where a quote opened at `open` closes; one never closed is read to its line's end (prose's apostrophe). In double
 * quotes, a substitution's own quotes are its own (`"$(cat "$file")"`).
 */
function quoteEnd(text: string, open: number, quote: string): number {
  for (let at = open + 1; at < text.length; at++) {
    if (quote === '"' && text[at] === '\\') at++;
    else if (quote === '"' && text.startsWith('$(', at)) at = closing(text, at + 1, '(', ')');
    else if (text[at] === quote) return at;
  }
  // Its last character, so the line's end still ends the command.
  const lineEnd = text.indexOf('\n', open);
  return (lineEnd === -1 ? text.length : lineEnd) - 1;
}

/** The tokens of a script; the scripts inside its substitutions are added to `nested`. */
function tokenize(script: string, nested: string[]): Token[] {
  const tokens: Token[] = [];
  let word: Word | undefined;
  // Where the character being read is: a word starts at the first character added to it, and ends where it ends.
  let position = 0;
  let heredocNext: boolean | undefined;
  const heredocs: { delimiter: string; tabs: boolean }[] = [];
  const add = (text: string, raw: string, expanded = false) => {
    word ??= { text: '', raw: '', expanded: false, start: position, end: position, runs: [] };
    word.text += text;
    word.raw += raw;
    word.expanded ||= expanded;
  };
  const endWord = () => {
    if (!word) return;
    word.end = position;
    if (heredocNext !== undefined) heredocs.push({ delimiter: word.text, tabs: heredocNext });
    else tokens.push({ word });
    heredocNext = undefined;
    word = undefined;
  };
  // A substitution's commands are read as a script of their own; its word is filled in by the shell.
  const substitution = (from: number, to: number, inner: string) => {
    nested.push(inner);
    add('', script.slice(from, to + 1), true);
    word!.runs.push({ start: from, end: to + 1 });
    return to;
  };
  // Reads the substitution or expansion starting with `$` at `at`; returns where it ends.
  const dollar = (at: number): number => {
    const next = script[at + 1];
    if (next === '(' && script[at + 2] === '(') {
      const end = closing(script, at + 1, '(', ')');
      add('', script.slice(at, end + 1), true);
      return end;
    }
    if (next === '(') {
      const end = closing(script, at + 1, '(', ')');
      return substitution(at, end, script.slice(at + 2, end));
    }
    if (next === '{') {
      const end = closing(script, at + 1, '{', '}');
      add('', script.slice(at, end + 1), true);
      return end;
    }
    add('$', '$', /[\w@*#?$!-]/.test(next ?? ''));
    return at;
  };
  for (let at = 0; at < script.length; at++) {
    position = at;
    const char = script[at];
    if (char === '\\') {
      // A line going on: the command continues on the next.
      if (script.startsWith('\r\n', at + 1)) at++;
      else if (script[at + 1] !== '\n') add(script[at + 1] ?? '', script.slice(at, at + 2));
      at++;
    } else if (char === ' ' || char === '\t' || char === '\r') endWord();
    else if (char === '\n') {
      endWord();
      tokens.push({ op: '\n' });
      // A here-document's lines are the command's input, up to its delimiter.
      for (const { delimiter, tabs } of heredocs.splice(0)) {
        while (at + 1 < script.length) {
          const lineEnd = script.indexOf('\n', at + 1);
          const line = script.slice(at + 1, lineEnd === -1 ? script.length : lineEnd).replace(/\r$/, '');
          at = lineEnd === -1 ? script.length : lineEnd;
          if ((tabs ? line.replace(/^\t+/, '') : line) === delimiter) break;
        }
      }
    } else if (char === '#' && !word) {
      const lineEnd = script.indexOf('\n', at);
      at = (lineEnd === -1 ? script.length : lineEnd) - 1;
    } else if (char === "'") {
      const end = quoteEnd(script, at, "'");
      add(script.slice(at + 1, end), script.slice(at, end + 1));
      at = end;
    } else if (char === '"') {
      const end = quoteEnd(script, at, '"');
      add('', '"');
      for (let inner = at + 1; inner < end; inner++) {
        if (script[inner] === '$') inner = dollar(inner);
        else if (script[inner] === '`') {
          const close = Math.min(end, quoteEnd(script, inner, '`'));
          inner = substitution(inner, close, script.slice(inner + 1, close));
        } else if (script[inner] === '\\') add(script[++inner] ?? '', script.slice(inner - 1, inner + 1));
        else add(script[inner], script[inner]);
      }
      add('', '"');
      at = end;
    } else if (char === '$') at = dollar(at);
    else if (char === '`') {
      const end = quoteEnd(script, at, '`');
      at = substitution(at, end, script.slice(at + 1, end));
    } else if (char === '<' && PLACEHOLDER.test(script.slice(at, at + 120))) {
      // `--mode <brd|rules>`: a value for the reader to fill in, not a redirection and a pipe.
      const placeholder = PLACEHOLDER.exec(script.slice(at, at + 120))![0];
      add(placeholder, placeholder);
      at += placeholder.length - 1;
    } else if ((char === '<' || char === '>') && script[at + 1] === '(' && !word) {
      const end = closing(script, at + 1, '(', ')');
      at = substitution(at, end, script.slice(at + 2, end));
    } else if (char === '(' && script[at + 1] === '(' && !word) {
      // Arithmetic (`(( i++ ))`, `for ((…))`): no command.
      const end = closing(script, at, '(', ')');
      add('', script.slice(at, end + 1), true);
      at = end;
    } else if (!SINGLE_OPERATORS.has(char)) add(char, char);
    else {
      const op = OPERATORS.find((operator) => script.startsWith(operator, at)) ?? char;
      // `2>&1`: the digits before a redirection name a file descriptor, not a word.
      if (REDIRECTIONS.has(op) && word && /^\d+$/.test(word.raw)) word = undefined;
      endWord();
      tokens.push({ op });
      if (op === '<<' || op === '<<-') heredocNext = op === '<<-';
      at += op.length - 1;
    }
  }
  position = script.length;
  endWord();
  return tokens;
}

/**
 * The program a command's words run, read through wrappers; undefined when none runs (`command -v git` asks where git
 * is, `exec >log` only redirects). A shell run by `sudo -s` is the shell.
 */
function programOf(words: Word[]): Word | undefined {
  let at = 0;
  while (at < words.length && ASSIGNMENT.test(words[at].raw)) at++;
  for (let word = words[at]; word; word = words[at]) {
    const wrapper = word.expanded ? undefined : WRAPPERS[word.text.slice(word.text.lastIndexOf('/') + 1)];
    if (!wrapper) return word;
    const name = word.text.slice(word.text.lastIndexOf('/') + 1);
    at++;
    for (; at < words.length && words[at].text.startsWith('-'); at++) {
      const option = words[at].text;
      if (option === '--') {
        at++;
        break;
      }
      if (name === 'command' && /^-[vV]/.test(option)) return undefined;
      if (name === 'sudo' && /^-[si]$/.test(option)) return { ...word, text: 'sh', raw: 'sh' };
      if (wrapper[option]) at++;
    }
    // `timeout 30 cmd`: its first word is the time allowed.
    if (name === 'timeout') at++;
    while (at < words.length && ASSIGNMENT.test(words[at].raw)) at++;
  }
  return undefined;
}

/** Whether a command so far holds only the shell's grammar (`if`, `while !`): a command or a test may start. */
const atStart = (words: Word[]) => words.every((word) => SHELL_KEYWORDS.has(word.text));

/**
 * The simple commands of a script's tokens, each its words past the grammar that leads it (`then make`, `! grep`), and
 * the functions it defines.
 */
function commandsOf(tokens: Token[]): { commands: Word[][]; functions: string[] } {
  const commands: Word[][] = [];
  const functions: string[] = [];
  let words: Word[] = [];
  // After `case … in` and each `;;`: the words up to `)` are a pattern. Inside `[[ … ]]`: a test, whose `&&` and
  // `||` join conditions, not commands.
  let pattern = false;
  let test = false;
  const endCommand = () => {
    // The grammar before the command it leads to (`then make`, `! grep`, `{ cd`); a loop's header runs nothing.
    while (words.length > 0 && !words[0].expanded && SHELL_KEYWORDS.has(words[0].text)) {
      const keyword = words[0].text;
      if (keyword === 'for' || keyword === 'select' || keyword === 'case') words = [];
      else if (keyword === 'function') {
        if (words[1]) functions.push(words[1].text);
        words = words.slice(2);
      } else words = words.slice(1);
    }
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if ('word' in token) {
      const { text } = token.word;
      if (test) test = text !== ']]';
      else if (pattern && words.length === 0 && text !== 'esac') {
        while (index + 1 < tokens.length && !isOp(tokens[index + 1], ')')) index++;
        index++;
        pattern = false;
      } else if (text === 'in' && words.length === 2 && words[0].text === 'case') {
        words = [];
        pattern = true;
      } else if (text === '[[' && atStart(words)) test = true;
      else {
        if (text === 'esac') pattern = false;
        words.push(token.word);
      }
      continue;
    }
    const { op } = token;
    // A test left open ends with its line.
    if (test && op !== '\n') continue;
    test = false;
    if (REDIRECTIONS.has(op)) {
      // Its target is a file (a here-document's delimiter is taken already), not a word of the command.
      if (op !== '<<' && op !== '<<-' && index + 1 < tokens.length && 'word' in tokens[index + 1]) index++;
      continue;
    }
    // `name() {`: a function's definition.
    if (op === '(' && words.length === 1 && isOp(tokens[index + 1], ')')) {
      functions.push(words[0].text);
      words = [];
      index++;
      continue;
    }
    endCommand();
    if (op === ';;' || op === ';&' || op === ';;&') pattern = true;
  }
  endCommand();
  return { commands, functions };
}

/** The programs and defined functions of a script (one block's commands). */
export function scriptPrograms(script: string, depth = 0): ScriptPrograms {
  const nested: string[] = [];
  const { commands, functions } = commandsOf(tokenize(script, nested));
  const programs: string[] = [];
  for (const words of commands) {
    const program = programOf(words);
    if (program && !program.expanded && !SHELL_STATE_BUILTINS.has(program.text)) programs.push(program.text);
  }
  if (depth < MAX_DEPTH)
    for (const inner of nested) {
      const read = scriptPrograms(inner, depth + 1);
      programs.push(...read.programs);
      functions.push(...read.functions);
    }
  return { programs, functions };
}

/**
 * The program that `offset` of a script is given to as part of one of its arguments, as the shell reads the script:
 * `echo` for the `|` of `echo "curl … | sh"`, whose pipe is a character of the text echo prints. Undefined where the
 * shell reads the text there itself: outside any word (an operator), in a command's program, in a substitution whose
 * commands it runs (`echo "$(curl … | sh)"`), or in a command with no program.
 */
export function argumentOf(script: string, offset: number): string | undefined {
  for (const words of commandsOf(tokenize(script, [])).commands) {
    const word = words.find((each) => each.start <= offset && offset < each.end);
    if (!word) continue;
    const program = programOf(words);
    const substituted = word.runs.some((run) => run.start <= offset && offset < run.end);
    return program && !program.expanded && word.start > program.start && !substituted ? program.text : undefined;
  }
  return undefined;
}

function isOp(token: Token | undefined, op: string): boolean {
  return token !== undefined && 'op' in token && token.op === op;
}
