import { blockScript } from '../../parse/markdown/blockCommands';
import { COMMON_PROGRAMS, POSIX_SHELLS, PROMPT, SHELL_FENCE_LANGUAGES, SHELL_KEYWORDS } from '../../platforms/shells';
import { fenceLanguage, type Fence } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import { defineRule } from '../engine/rule';
import { scriptPrograms } from './shellPrograms';

// What a skill that grants every shell command (`allowed-tools: Bash`) could grant instead: the programs its blocks of
// commands run, each as a Claude Code rule matches it. `Bash(git:*)` matches a command whose text starts with `git`,
// so a program is kept as written (`./scripts/run.sh`, not `run.sh`).

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
 * is no narrower than `Bash`. (`env`, `sudo`, `exec` are read through to the program they run.)
 */
const ANY_COMMAND = new Set([...POSIX_SHELLS, 'fish', 'su', 'eval', 'xargs']);

/**
 * A program a rule can name: a name or a path, with a letter; not an option, a folder or a slash command. Programs are
 * named in lower case: a capitalised word is prose or a value read as a command (`NAME=My Project`).
 */
const PROGRAM = /^(?!-)(?=.*[A-Za-z])(?:[\w.~+-]*\/[\w.~/+-]*|[a-z0-9_.+-]*[a-z][\w.+-]*)$/;

/** A line that starts with a slash command (`/review 123`): a program is never a file at the disk's root. */
const SLASH_LINE = /^[ \t]*\/[\w.:-]+(?:[ \t].*)?$/;

/** A line's first word, past assignments and a wrapper: what an unlabelled block's line would run. */
const LEADING_WORD = /^\s*(?:\w+=\S*\s+)*(?:(?:sudo|env|command|exec|nohup|time)\s+)*([^\s;|&()<>]+)/;

/**
 * Whether an unlabelled block holds commands: a session at a prompt, or every line (but comments and lines a `\`
 * carries on) starts with a program skills run, a script's path or the shell's grammar. Otherwise it is a folder tree,
 * output, prose or a list, whose first words are no programs.
 */
function holdsCommands(text: string): boolean {
  const lines = text.split('\n');
  if (lines.some((line) => PROMPT.test(line))) return true;
  let commands = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (/^\s*(?:#|$)/.test(line) || /\\\s*$/.test(lines[index - 1] ?? '')) continue;
    const word = LEADING_WORD.exec(line)?.[1] ?? '';
    const path = /^(?:\.{1,2}|~)?\/[\w.-]/.test(word) && !SLASH_LINE.test(line);
    if (!COMMON_PROGRAMS.has(word) && !SHELL_KEYWORDS.has(word) && !path) return false;
    commands++;
  }
  return commands > 0;
}

/**
 * The programs the blocks of commands of SKILL.md run, sorted: blocks labelled as a shell or a session, and unlabelled
 * ones that hold commands. Undefined when one of them runs anything (a shell, `eval`), so that no narrower grant is
 * there to suggest.
 */
export function grantedCommands(fences: Fence[], source: TextLike): string[] | undefined {
  const programs = new Set<string>();
  const functions = new Set<string>();
  for (const fence of fences) {
    const language = fenceLanguage(fence);
    if (!SHELL_FENCE_LANGUAGES.has(language) && language !== '') continue;
    if (language === '' && !holdsCommands(source.slice(fence.content.start, fence.content.end))) continue;
    // In a session at a prompt, the prompted commands (`$ npm test`), not what they printed.
    // A slash command shown in a block (`/review 123  <- reviews PR 123`) is the client's, not the shell's.
    const lines = blockScript(source, fence).split('\n');
    const read = scriptPrograms(lines.map((line) => (SLASH_LINE.test(line) ? '' : line)).join('\n'));
    for (const program of read.programs) programs.add(program);
    for (const name of read.functions) functions.add(name);
  }
  const granted = [...programs].filter(
    (program) =>
      PROGRAM.test(program) && !program.endsWith('/') && !/^\/[^/]*$/.test(program) && !functions.has(program),
  );
  if (granted.some((program) => ANY_COMMAND.has(program.slice(program.lastIndexOf('/') + 1)))) return undefined;
  return granted.sort();
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
