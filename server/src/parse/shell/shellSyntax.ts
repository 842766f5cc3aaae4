// What a shell script is made of, as the rules read it: its simple commands in order, each with its words, its
// assignments and its redirections at exact offsets, and how commands hand each other their output (a pipe, a
// substitution). Offsets are the text's (UTF-16), as everywhere in the project.

/** A word of a command, as the shell reads it. */
export interface ShellWord {
  /** Its quotes and escapes removed; what the shell fills in (`$NAME`, `$(…)`, `$((…))`) kept as written. */
  text: string;
  /** Whether the shell fills part of it in. */
  expanded: boolean;
  /** Whether any part of it was quoted (`"…"`, `'…'`, `$'…'`). */
  quoted: boolean;
  /** The variables it expands (`$HOME`, `${TOKEN}`, `${X:-y}`), by name. */
  variables: string[];
  start: number;
  end: number;
}

/** `NAME=value` before a command, alone, or after `export`, `local`, `declare`, `readonly`. */
export interface ShellAssignment {
  name: string;
  /** Undefined for `export NAME` and `NAME=`. */
  value?: ShellWord;
  start: number;
  end: number;
}

/** A redirection: `> file`, `2>&1`, `< file`, a here-document or a here-string. */
export interface ShellRedirection {
  /** The operator as written: `>`, `>>`, `<`, `<<`, `<<-`, `<<<`, `&>`, `&>>`, `>&`, `<&`, `<>`, `>|`. */
  op: string;
  /** The file descriptor before the operator (`2` of `2>`), if any. */
  descriptor?: string;
  /** The file, descriptor, here-string or here-document delimiter after the operator. */
  target: ShellWord;
  /** A here-document's lines: where they are and their text. */
  body?: { start: number; end: number; text: string };
  start: number;
  end: number;
}

/** A simple command: words, assignments and redirections, and where its input and its output come and go. */
export interface ShellCommand {
  /** Its words, the program first; none for assignments alone. */
  words: ShellWord[];
  assignments: ShellAssignment[];
  redirections: ShellRedirection[];
  start: number;
  end: number;
  /** The commands whose output it reads through a pipe (`a | b`; each command of `{ a; b; } | c`). */
  pipedFrom: number[];
  /** The command that holds its output, when it is substituted (`$(…)`, backticks, `<(…)`): an index into commands. */
  substitutedIn?: number;
  /** The assignment of that command whose value holds its output (`CREDS=$(cat …)`), by name. */
  assignedTo?: string;
  /** How many strings given to a shell (`bash -c '…'`, `eval "…"`) it is read from: 0 in the script itself. */
  depth: number;
}

/** A script read by the shell's grammar. */
export interface ShellScript {
  /** Its simple commands, in the order the shell reads them (a substitution's after the command it is in). */
  commands: ShellCommand[];
  /** Lines the grammar could not read (documentation's placeholders, another shell's syntax): not read as commands. */
  unread: { start: number; end: number }[];
}
