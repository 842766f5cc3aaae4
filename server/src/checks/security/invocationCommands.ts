import { argumentPlaceholders } from '../../parse/markdown/argumentPlaceholders';
import type { Span } from '../../parse/text/lineIndex';
import { shellDirectives, type ShellDirective } from '../../parse/markdown/shellDirectives';
import type { Fence } from '../../parse/markdown/skillFile';
import type { TextLike } from '../../parse/text/textLike';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { fencedCommands, riskyExecution, riskyCommand } from './riskyExecution';
import { CREDENTIAL_FILES } from './shellFlows';
import { defineRule } from '../engine/rule';

// The commands Claude Code runs when a skill is invoked (`` !`command` `` and ```` ```! ```` blocks in SKILL.md),
// before the model reads a word of it: each is said (one that reads as an example, louder), and each is read for the
// risks a fenced command is read for. Only SKILL.md is read this way: Claude Code does not run them in the skill's
// other files, which the model reads when it needs them.

/**
 * Only Claude Code runs these commands at invocation: for the other consumers they are text (read for risks all the
 * same, as any command the model may follow). The portable profile keeps them, as a skill written for it is installed
 * into Claude Code too.
 */
const NOT_RUN_AT_INVOCATION = {
  'claude-api': 'off',
  codex: 'off',
  vscode: 'off',
  cursor: 'off',
  opensquilla: 'off',
} as const;

export const invocationCommand = defineRule({
  code: 'invocation_command',
  category: 'security',
  severity: 'information',
  summary: 'A command Claude Code runs when the skill is invoked (`` !`command` ``, a ```` ```! ```` block).',
  stability: 'stable',
  formats: 'all',
  security: { severity: '3.0', cwe: ['CWE-829'], review: true },
  profiles: NOT_RUN_AT_INVOCATION,
});

export const shownCommandRuns = defineRule({
  code: 'shown_command_runs',
  category: 'security',
  severity: 'warning',
  summary: 'A `` !`command` `` shown as an example in SKILL.md, which Claude Code runs all the same.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '6.0', cwe: ['CWE-451', 'CWE-78'] },
  profiles: NOT_RUN_AT_INVOCATION,
});

export const argumentsInCommand = defineRule({
  code: 'arguments_in_command',
  category: 'security',
  severity: 'warning',
  summary: "A command run at invocation with the skill's arguments spliced in as typed (`$ARGUMENTS`, `$0`).",
  stability: 'stable',
  formats: 'all',
  security: { severity: '6.5', cwe: ['CWE-78'] },
  profiles: NOT_RUN_AT_INVOCATION,
});

/** A command as the message quotes it: its first line, cut short. */
function quoted(script: string): string {
  const text = script.trim();
  const line = text.split('\n')[0];
  return line.length > 80 || line.length < text.length ? `${line.slice(0, 80)}…` : line;
}

/**
 * What a directive runs, said. One that reads as an example is said louder, once: it runs all the same; with the
 * skill's arguments (`placeholder`) it runs what they hold too, which its fix (the example stops running) ends too.
 */
function said(file: string, directive: ShellDirective, placeholder: string | undefined): Diagnostic {
  const command = quoted(directive.script);
  const what = directive.block ? `the script of this \`\`\`! block (\`${command}\`)` : `\`${command}\``;
  const spliced = placeholder
    ? `, with the skill's arguments in place of \`${placeholder}\` as they were typed (a \`;\` or \`$(…)\` in them runs too)`
    : '';
  return directive.shown
    ? diagnostic(
        shownCommandRuns,
        file,
        directive.span,
        `This reads as an example, but Claude Code reads SKILL.md as plain text, code included, and runs ${what} whenever the skill is invoked${spliced}: where it fails the invocation fails, where it works it runs. Describe the syntax in words, or move the example into a file under \`references/\`, which is not run.`,
      )
    : diagnostic(
        invocationCommand,
        file,
        directive.span,
        `When the skill is invoked, Claude Code runs ${what} and puts what it prints here, before the model reads the skill. Check that it does only what the skill says.`,
      );
}

/** A credentials file, or the project's `.env`: what a command run at invocation puts into the prompt. */
const SECRETS_READ = new RegExp(String.raw`${CREDENTIAL_FILES}|(?:^|[\s"'=])\.env\b`);

/**
 * A command run at invocation that reads secrets: what it prints goes to the model, so to its provider, and may come
 * back in the conversation.
 */
function secretsInPrompt(file: string, directive: ShellDirective): Diagnostic[] {
  const read = SECRETS_READ.exec(directive.script);
  if (!read) return [];
  const what = read[0].replace(/^[\s"'=]/, '');
  return [
    diagnostic(
      riskyCommand,
      file,
      directive.span,
      `When the skill is invoked, this puts \`${what}\` into the prompt: the model and its provider read the secrets, and they may come back in the conversation. Read only what the task needs, and never a credentials file.`,
      { risk: 'puts credentials into the prompt' },
    ),
  ];
}

/**
 * A command run at invocation that reads the skill's arguments: Claude Code splices them in as they were typed, before
 * the shell reads the line, and the model may invoke the skill with text it read somewhere. One shown as an example
 * says so in its own finding: stopping it from running is the fix of both.
 */
function argumentsSpliced(file: string, directive: ShellDirective, placeholders: RegExp): Diagnostic[] {
  const placeholder = placeholders.exec(directive.script);
  if (!placeholder || directive.shown) return [];
  const start = directive.command.start + placeholder.index;
  return [
    diagnostic(
      argumentsInCommand,
      file,
      { start, end: start + placeholder[0].length },
      `Claude Code puts the skill's arguments in place of \`${placeholder[0]}\` as they were typed, before the shell reads this command: a quote in them breaks it, and \`;\`, \`$(…)\` or a backtick runs what follows. The model may invoke the skill with text from an issue or a page. Have the model run the command as a step instead, where it quotes the arguments and the user sees it${/^\$\d/.test(placeholder[0]) ? `; if \`${placeholder[0]}\` is meant for the shell or awk, write \`\\${placeholder[0]}\`` : ''}.`,
    ),
  ];
}

/**
 * What the directives of SKILL.md (its `body`, with its Markdown `fences`) run, said, and read for risks; `names`: the
 * arguments its frontmatter declares.
 */
export function invocationFindings(
  file: string,
  source: TextLike,
  body: Span,
  fences: Fence[],
  names: readonly string[],
): Diagnostic[] {
  const directives = shellDirectives(source, body, fences);
  if (directives.length === 0) return [];
  // A directive in a command of a block of commands is read for risks with the command already.
  const read = fencedCommands(source, fences);
  const unread = directives.filter(
    (directive) =>
      !read.some(
        (command) =>
          command.start <= directive.span.start && directive.span.start < command.start + command.text.length,
      ),
  );
  const risks = riskyExecution(
    file,
    unread.map((directive) => ({ start: directive.command.start, text: directive.script })),
  );
  const placeholders = argumentPlaceholders(names);
  // A command that sends the secrets it reads is reported for that; one that only reads them, for where they go.
  const risky = (directive: ShellDirective) =>
    risks.some((risk) => directive.span.start <= risk.span.start && risk.span.start < directive.span.end);
  return [
    ...directives.map((directive) => said(file, directive, placeholders.exec(directive.script)?.[0])),
    ...risks,
    ...directives.flatMap((directive) => (risky(directive) ? [] : secretsInPrompt(file, directive))),
    ...directives.flatMap((directive) => argumentsSpliced(file, directive, placeholders)),
  ];
}
