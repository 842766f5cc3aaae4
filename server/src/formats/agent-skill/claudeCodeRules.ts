import hooksSchema from '../../../../schemas/claude-code.hooks.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { HOOK_EVENTS } from '../../checks/match/hookEvents';
import { misspeltKeys } from '../../checks/match/misspeltKeys';
import { validateAgainstSchema } from '../../checks/schema/schemaValidation';
import type { Span } from '../../parse/text/lineIndex';
import { ARGUMENT_PLACEHOLDER } from '../../parse/markdown/argumentPlaceholders';
import { placeholderCollisions } from './placeholderCollisions';
import type { SkillFileSyntax } from '../../parse/markdown/skillFile';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';
import { defineRule } from '../../checks/engine/rule';

// What Claude Code reads in a skill beyond the specification: hooks that run while the skill is active (2.1.0 on)
// and the arguments a user types after `/name` (`$ARGUMENTS`, with `argument-hint` shown as they type).

export const invalidHooks = defineRule({
  code: 'invalid_hooks',
  category: 'client',
  severity: 'warning',
  summary:
    "A skill's `hooks` that Claude Code cannot run: a wrong shape, a hook without its command, an event misspelt.",
  stability: 'stable',
  formats: 'all',
});

export const argumentHintMismatch = defineRule({
  code: 'argument_hint_mismatch',
  category: 'client',
  severity: 'information',
  summary:
    'The body reads `$ARGUMENTS` with no `argument-hint`, or `argument-hint` is set and the body reads no argument.',
  stability: 'stable',
  formats: 'all',
});

/** Where the body reads what the user typed after `/name`: `$ARGUMENTS` and `$ARGUMENTS[N]`. */
const ARGUMENTS = /\$ARGUMENTS(?:\[\d+\])?/g;

export interface ClaudeCodeContext {
  file: string;
  syntax: SkillFileSyntax;
  yaml: YamlSyntax;
  value: Record<string, unknown>;
}

/**
 * The Claude Code rules of a skill checked for Claude Code: its hooks, its arguments against `argument-hint`, and the
 * `$N` it writes for something else, which Claude Code replaces with them.
 */
export function checkClaudeCodeSkill(context: ClaudeCodeContext): Diagnostic[] {
  return [
    ...hookFindings(context),
    ...argumentFindings(context),
    ...placeholderCollisions(context.file, context.syntax),
  ];
}

function hookFindings({ file, yaml, value }: ClaudeCodeContext): Diagnostic[] {
  if (value.hooks === undefined) return [];
  const pair = pairOf(yaml.doc.contents, 'hooks');
  const keySpan = nodeSpan(yaml, pair?.key) ?? { start: 0, end: 0 };
  const findings = validateAgainstSchema(hooksSchema, value.hooks, {
    file,
    yaml,
    rootSpan: keySpan,
    defaultRule: invalidHooks,
    rootName: '`hooks`',
    basePath: ['hooks'],
  });
  for (const { key, meant, span } of misspeltKeys(yaml, pair?.value, HOOK_EVENTS))
    findings.push(
      diagnostic(
        invalidHooks,
        file,
        span,
        `\`${key}\` is not a hook event Claude Code fires, so these hooks never run. Did you mean \`${meant}\`?`,
        { suggestion: meant },
      ),
    );
  return findings;
}

/**
 * `$ARGUMENTS` without `argument-hint`: the user is not told what to type. `argument-hint` with no argument read:
 * Claude Code appends what was typed as `ARGUMENTS: …` at the end, where the body never says what it is for. Each is
 * reported only when it is certain: any `$N` counts as reading arguments, only `$ARGUMENTS` as needing a hint.
 */
function argumentFindings({ file, syntax, yaml, value }: ClaudeCodeContext): Diagnostic[] {
  const body = syntax.source.slice(syntax.body.start, syntax.body.end);
  const hint = value['argument-hint'];
  if (hint === undefined || hint === null) {
    const used = ARGUMENTS.exec(body);
    ARGUMENTS.lastIndex = 0;
    if (!used) return [];
    const start = syntax.body.start + used.index;
    return [
      diagnostic(
        argumentHintMismatch,
        file,
        { start, end: start + used[0].length },
        `The body reads the arguments typed after the skill's name (\`${used[0]}\`), but there is no \`argument-hint\`; Claude Code shows the hint as the user types, so they know what to give. Add one, such as \`argument-hint: "[file]"\`.`,
      ),
    ];
  }
  // Named arguments (`arguments:`) are read as `$<name>`: with them declared, the body is taken to read its arguments.
  if (ARGUMENT_PLACEHOLDER.test(body) || value.arguments !== undefined) return [];
  const at: Span = nodeSpan(yaml, pairOf(yaml.doc.contents, 'argument-hint')?.key) ?? { start: 0, end: 0 };
  return [
    diagnostic(
      argumentHintMismatch,
      file,
      at,
      'The skill asks for arguments (`argument-hint`), but the body never reads them (`$ARGUMENTS`, `$ARGUMENTS[0]`, `$0`); Claude Code then appends them as `ARGUMENTS: …` after the body. Say in the body where they go.',
    ),
  ];
}
