// What runs a skill's commands: the shells and interpreters, as a fence's label, a file's name and a script's first
// line name them. Every rule, compile and the library read these here, so they agree on what a command is.

/** POSIX-like shells: a script's `$1` is its own parameter, `-c` gives the shell its program. */
export const POSIX_SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'ksh', 'zsh']);

/**
 * The labels of a fenced block of shell commands: the shells, and a session at a prompt as the highlighters name it
 * (`console`; Prism's `shell-session`, `sh-session` and `shellsession`).
 */
export const SHELL_FENCE_LANGUAGES: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'shell',
  'console',
  'shell-session',
  'sh-session',
  'shellsession',
]);

/** Blocks read as shell commands: a shell's, a session's, or unlabelled (which often holds commands). */
export const SHELL_BLOCK_LANGUAGES: ReadonlySet<string> = new Set([...SHELL_FENCE_LANGUAGES, '']);

/** Blocks that may be a session at a prompt: a shell's, unlabelled, PowerShell's (not Python's: `% ` is code). */
export const SESSION_LANGUAGES: ReadonlySet<string> = new Set([...SHELL_BLOCK_LANGUAGES, 'powershell', 'ps1', 'pwsh']);

/** Blocks of commands: a shell's, PowerShell's or Windows', Python's, or unlabelled. */
export const COMMAND_LANGUAGES: ReadonlySet<string> = new Set([...SESSION_LANGUAGES, 'cmd', 'bat', 'python', 'py']);

/**
 * A prompt: `$ `, zsh's `% `, `❯ ` or `➜ `, after an optional `(venv) `, `user@host:~/dir` or `~/dir`; or PowerShell's
 * `PS> ` and `PS C:\dir> `. Not `# ` (a comment far more often than a root prompt, in a skill) nor `> ` (npm prints
 * `> package@1.0.0 build` before a script, and a shell's second prompt continues a command already read).
 */
export const PROMPT =
  /^[ \t]*(?:\([^()\s]*\)[ \t]*)?(?:(?:[\w.-]+@[\w.-]+(?::[^\s$%]*)?|[~/][^\s$%]*)[ \t]?)?(?:[$%\u276F\u279C]|PS(?:[ \t][^>\n]*)?>)[ \t]+(?=\S)/;

/** The extension of a script written from a fenced block of commands, by the block's label. */
export const SCRIPT_EXTENSIONS: Readonly<Record<string, string>> = {
  bash: 'sh',
  sh: 'sh',
  shell: 'sh',
  zsh: 'sh',
  python: 'py',
  py: 'py',
  python3: 'py',
};

/** What a script file is written in, by its name. */
export function scriptLanguage(file: string): 'shell' | 'python' | 'javascript' | 'typescript' | undefined {
  const extension = /\.([a-z]+)$/.exec(file)?.[1];
  switch (extension) {
    case 'sh':
    case 'bash':
    case 'zsh':
      return 'shell';
    case 'py':
      return 'python';
    case 'js':
    case 'mjs':
    case 'cjs':
      return 'javascript';
    case 'ts':
      return 'typescript';
    default:
      return undefined;
  }
}

/** A script's first line: the interpreter's path, and what follows it (`env`'s program). */
const SHEBANG = /^#![ \t]*(\S+)(?:[ \t]+(?:-\S+[ \t]+)*(\S+))?/;

/** The program a script's first line names, without its folder and version (`#!/usr/bin/env python3` → `python`). */
export function shebangProgram(text: string): string | undefined {
  const shebang = SHEBANG.exec(text);
  if (!shebang) return undefined;
  const named = (program: string) => program.slice(program.lastIndexOf('/') + 1).replace(/[\d.]+$/, '');
  return named(shebang[1]) === 'env' && shebang[2] ? named(shebang[2]) : named(shebang[1]);
}
