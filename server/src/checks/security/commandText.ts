import { POSIX_SHELLS } from '../../platforms/shells';
import { argumentOf } from './shellPrograms';

// How the risk rules read the text of a command line: whether what is piped into an interpreter is its program, and
// whether a command is printed for a reader rather than run.

/**
 * For each interpreter, the options that give it its program on the command line (`python3 -m json.tool`,
 * `node -e '…'`, `perl -ne '…'`, `bash -c '…'`): what is piped in is then the program's input, not code.
 */
const PROGRAM_OPTIONS: Record<string, RegExp> = {
  python: /^-[a-zA-Z]*[cm]$/,
  node: /^(?:-[a-zA-Z]*[ep]|--eval|--print)$/,
  perl: /^-[a-zA-Z]*[eE]/,
  ruby: /^-[a-zA-Z]*e$/,
  php: /^-r$/,
  shell: /^-[a-zA-Z]*c$/,
};

/**
 * Whether an interpreter whose command line is `words` runs what is piped into it: it does unless it is given its
 * program, by an option or as a file to run (`| python3 scripts/parse.py` feeds the download to the skill's script).
 * `-`, `/dev/stdin` and a shell's `-s` name the piped text itself; a `--` before any program leaves it to the pipe too.
 */
export function runsPipedText(interpreter: string, words: string[]): boolean {
  const kind = /^python/.test(interpreter) ? 'python' : POSIX_SHELLS.has(interpreter) ? 'shell' : interpreter;
  const programOption = PROGRAM_OPTIONS[kind];
  if (!programOption) return true;
  for (const word of words) {
    // A redirection (`>/dev/null`, `2>&1`) is the shell's, not an argument of the interpreter.
    if (/^\d*[<>]/.test(word)) continue;
    if (
      word === '-' ||
      word === '--' ||
      word === '/dev/stdin' ||
      (kind === 'shell' && /^-[a-zA-Z]*s[a-zA-Z]*$/.test(word))
    )
      return true;
    if (programOption.test(word)) return false;
    if (!word.startsWith('-')) return false;
  }
  return true;
}

/**
 * Commands that show their arguments to the user: `echo`, `printf`, PowerShell's `Write-Host`, and the functions
 * scripts write for their messages (`err`, `warn`, `die`, `log_info`, `print_error`).
 */
const PRINTS =
  /^(?:Write-(?:Host|Output|Warning|Error|Information)|(?:echo|printf|print|puts|say|msg|log|info|note|notice|warn|warning|err|error|die|fail|fatal|abort|debug|hint|usage)(?:_(?:echo|print|log|info|note|notice|warn|warning|err|error|fatal|debug|hint|exit))?)$/i;

/**
 * Whether the text at `offset` of a line is printed, not run: the shell reads it as part of a quoted argument of a
 * command that prints it (`err "… Install: curl … | sh"`), a hint to a reader like any other text.
 */
export function printed(line: string, offset: number): boolean {
  const program = argumentOf(line, offset);
  return (
    program !== undefined &&
    PRINTS.test(program.slice(program.lastIndexOf('/') + 1)) &&
    // Where the printed text goes, read outside the quotes it is printed from.
    !RUNS_WHAT_IS_PRINTED.test(line.replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, '""'))
  );
}

/**
 * What is printed into something that runs it later is a command after all: a crontab, a shell, a Git hook, a unit
 * file, a shell's startup file (a cron line echoed into `crontab -` that runs `curl … | bash` every 20 minutes).
 */
const RUNS_WHAT_IS_PRINTED =
  /\|\s*(?:sudo\s+)?(?:crontab|sh|bash|zsh)\b|>>?\s*["']?\S*(?:\.git\/hooks\/|\/Launch(?:Agents|Daemons)\/|\/systemd\/|\.(?:bashrc|zshrc|profile|bash_profile|zprofile)\b)/;
