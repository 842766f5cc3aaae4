import type { ShellWord } from './shellSyntax';

// The program a command runs, read through the commands that run another (`env`, `sudo`, `command`, `exec`, `nohup`,
// `time`, `nice`, `timeout`, `xargs`): `/usr/bin/env python3 x.py` runs `python3`, `sudo -u root bash -c '…'` runs
// `bash`.

/** The words each wrapper takes before the program it runs, by option; `true` when the option takes a value. */
export const WRAPPERS: Record<string, Record<string, boolean>> = {
  env: { '-u': true, '--unset': true, '-C': true, '--chdir': true, '-S': true, '--split-string': true },
  sudo: { '-u': true, '-g': true, '-C': true, '-h': true, '-p': true, '-U': true, '-r': true, '-t': true, '-D': true },
  command: {},
  exec: { '-a': true },
  nohup: {},
  time: {},
  nice: { '-n': true, '--adjustment': true },
  timeout: { '-s': true, '--signal': true, '-k': true, '--kill-after': true },
  xargs: { '-I': true, '-n': true, '-P': true, '-d': true, '-E': true, '-L': true, '-s': true, '-a': true },
};

/** `NAME=value`: an assignment `env` makes before the program. */
export const ASSIGNMENT = /^[A-Za-z_]\w*\+?=/;

/** A program's name without its folder: `/usr/bin/curl` is `curl`. */
export function programName(word: ShellWord): string {
  return word.text.slice(word.text.lastIndexOf('/') + 1);
}

/**
 * Where in a command's words the program it runs is, read through wrappers; undefined when none runs (`command -v git`
 * asks where git is) or the program is filled in by the shell (`$CMD`). A shell run by `sudo -s` is at sudo's word.
 */
export function programAt(words: ShellWord[]): number | undefined {
  let at = 0;
  while (at < words.length) {
    const word = words[at];
    if (word.expanded) return undefined;
    const name = programName(word);
    const wrapper = WRAPPERS[name];
    if (!wrapper) return at;
    const wrapperAt = at;
    at++;
    for (; at < words.length && words[at].text.startsWith('-'); at++) {
      const option = words[at].text;
      if (option === '--') {
        at++;
        break;
      }
      if (name === 'command' && /^-[vV]/.test(option)) return undefined;
      if (name === 'sudo' && /^-[si]$/.test(option)) return wrapperAt;
      if (wrapper[option]) at++;
    }
    // `timeout 30 cmd`: its first word is the time allowed.
    if (name === 'timeout') at++;
    while ((name === 'env' || name === 'sudo') && at < words.length && ASSIGNMENT.test(words[at].text)) at++;
    // `env` alone prints the environment; `sudo -v` refreshes a login: the wrapper is the program.
    if (at >= words.length) return wrapperAt;
  }
  return undefined;
}
