import { SLASH_COMMAND } from '../../parse/markdown/pathMentions';
import { blockCommands } from '../../parse/markdown/blockCommands';
import { POSIX_SHELLS, SHELL_BLOCK_LANGUAGES } from '../../platforms/shells';
import { fenceLanguage, type Fence } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import { defineRule } from '../engine/rule';

// What a skill that grants every shell command (`allowed-tools: Bash`) could grant instead: the commands its fenced
// blocks start with, each as a Claude Code rule matches it. `Bash(git:*)` matches a command whose text starts with
// `git`, so a program is kept as written (`./scripts/run.sh`, not `run.sh`) and one run through `sudo` is `sudo`.

export const unrestrictedShell = defineRule({
  code: 'unrestricted_shell',
  category: 'security',
  severity: 'information',
  summary: '`allowed-tools` grants every shell command where the skill uses a few.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '3.5', cwe: ['CWE-250'], review: true },
});

/**
 * Programs that run whatever they are given: a grant of one of them lets every command through, so a list naming one
 * is no narrower than `Bash`.
 */
const ANY_COMMAND = new Set([...POSIX_SHELLS, 'fish', 'sudo', 'su', 'env', 'eval', 'exec', 'xargs']);

/** A command line's first word, after variable assignments (`LANG=C sort`), which are not the command a rule names. */
const FIRST_WORD = /^\s*(?:\w+=\S*\s+)*([\w./~-]+)/;

/**
 * The commands the fenced blocks of SKILL.md start with, sorted; undefined when one of them runs anything (a shell,
 * `sudo`), so that no narrower grant is there to suggest.
 */
export function grantedCommands(fences: Fence[], source: TextLike): string[] | undefined {
  const programs = new Set<string>();
  for (const fence of fences) {
    const language = fenceLanguage(fence);
    // An unlabelled block often holds commands (and often a folder tree, or prose).
    if (!SHELL_BLOCK_LANGUAGES.has(language)) continue;
    let continued = false;
    // In a session at a prompt, the prompted commands (`$ npm test`), not what they printed.
    for (const line of blockCommands(source, fence).flatMap((command) => command.text.split('\n'))) {
      // A line after one ending in `\` goes on with the same command: its first word is an argument.
      const argument = continued;
      continued = /\\\s*$/.test(line);
      const word = argument ? undefined : FIRST_WORD.exec(line)?.[1];
      // A slash command shown in a block (`/review 123`) is no program at the disk's root.
      if (!word || word.startsWith('-') || word.endsWith('/') || SLASH_COMMAND.test(word)) continue;
      // In an unlabelled block, a capitalised word starts a sentence: programs are written in lower case.
      if (language === '' && /[A-Z]/.test(word)) continue;
      programs.add(word);
    }
  }
  if ([...programs].some((program) => ANY_COMMAND.has(program))) return undefined;
  return [...programs].sort();
}

/**
 * The tools an `allowed-tools` value lists: a YAML list, or one string of them separated by spaces (the spec) or commas
 * (as Claude Code's own examples write them: `Bash, Read, Grep`); a rule's parentheses are one tool, spaces and all
 * (`Bash(git diff:*)`).
 */
export function allowedTools(value: unknown): string[] {
  const written = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  const tools: string[] = [];
  for (const item of written) {
    let depth = 0;
    let tool = '';
    for (const character of item) {
      if (character === '(') depth++;
      else if (character === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && /[\s,]/.test(character)) {
        if (tool) tools.push(tool);
        tool = '';
      } else tool += character;
    }
    if (tool) tools.push(tool);
  }
  return tools;
}
