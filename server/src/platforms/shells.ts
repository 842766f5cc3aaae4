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

/**
 * Words the shell reads as its own grammar where a command would start (`if grep -q x f; then … fi`): never a
 * program.
 */
export const SHELL_KEYWORDS: ReadonlySet<string> = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'select',
  'in',
  'do',
  'done',
  'while',
  'until',
  'case',
  'esac',
  'function',
  '{',
  '}',
  '!',
  '[[',
  ']]',
]);

/**
 * Builtins that change the shell itself (its folder, variables, options, flow) or test a condition: no program runs,
 * so none is granted.
 */
export const SHELL_STATE_BUILTINS: ReadonlySet<string> = new Set([
  ':',
  'true',
  'false',
  '[',
  'test',
  'cd',
  'pushd',
  'popd',
  'export',
  'local',
  'declare',
  'typeset',
  'readonly',
  'unset',
  'shift',
  'return',
  'exit',
  'break',
  'continue',
  'set',
  'shopt',
  'trap',
  'wait',
  'read',
  'let',
  'alias',
  'unalias',
  'getopts',
  'hash',
  'ulimit',
  'umask',
]);

/**
 * Programs skills run most, for telling an unlabelled block of commands from one of prose, a folder tree or output:
 * a line starting with one of these is a command.
 */
export const COMMON_PROGRAMS: ReadonlySet<string> = new Set([
  ...POSIX_SHELLS,
  ...['git', 'gh', 'glab', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'bunx', 'node', 'deno', 'tsx', 'tsc'],
  ...['python', 'python3', 'pip', 'pip3', 'uv', 'uvx', 'pipx', 'poetry', 'pytest', 'ruff', 'conda'],
  ...['ruby', 'gem', 'bundle', 'rake', 'go', 'cargo', 'rustc', 'rustup', 'java', 'mvn', 'gradle', 'dotnet'],
  ...['php', 'composer', 'swift', 'xcodebuild', 'make', 'cmake', 'docker', 'podman', 'kubectl', 'helm'],
  ...['terraform', 'aws', 'gcloud', 'az', 'curl', 'wget', 'jq', 'yq', 'ls', 'cat', 'cp', 'mv', 'rm', 'mkdir'],
  ...['touch', 'chmod', 'ln', 'grep', 'rg', 'find', 'fd', 'sed', 'awk', 'head', 'tail', 'sort', 'wc', 'diff'],
  ...['echo', 'printf', 'tar', 'zip', 'unzip', 'ssh', 'scp', 'rsync', 'brew', 'apt', 'apt-get', 'dnf', 'yum'],
  ...['sudo', 'env', 'source', 'export', 'cd', 'claude', 'codex', 'gemini', 'sqlite3', 'psql', 'mysql'],
  ...['openssl', 'ffmpeg', 'code', 'vercel', 'netlify', 'wrangler', 'firebase', 'supabase', 'flyctl', 'open'],
]);
