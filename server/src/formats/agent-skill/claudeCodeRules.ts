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
import { suggestionFix } from '../../checks/engine/suggestionFix';
import { closestName } from '../../checks/match/nameDistance';

// What Claude Code reads in a skill beyond the specification: hooks that run while the skill is active (2.1.0 on),
// the arguments a user types after `/name` (`$ARGUMENTS`, with `argument-hint` shown as they type) and the model the
// skill runs on.

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

export const unknownModel = defineRule({
  code: 'unknown_model',
  category: 'client',
  severity: 'warning',
  summary:
    '`model` is neither a model alias Claude Code knows (`sonnet`, `opus`, `haiku`, `inherit`) nor a Claude model id.',
  stability: 'preview',
  formats: 'all',
  fixable: 'unsafe',
  fix: suggestionFix,
});

/**
 * The aliases Claude Code takes for a model (its model configuration), `inherit` (the session's model) among them; any
 * may ask for the long context with `[1m]`. Aliases come with new models: this is why the rule is a preview.
 */
const MODEL_ALIASES = ['inherit', 'default', 'best', 'sonnet', 'opus', 'haiku', 'fable', 'opusplan'];

/** A model id: Anthropic's (`claude-sonnet-4-5`), Bedrock's (`us.anthropic.claude-…`, an ARN), Vertex's (`…@date`). */
const MODEL_ID = /claude|^arn:/i;

/** Where the body reads what the user typed after `/name`: `$ARGUMENTS` and `$ARGUMENTS[N]`. */
const ARGUMENTS = /\$ARGUMENTS(?:\[\d+\])?/g;

export interface ClaudeCodeContext {
  file: string;
  syntax: SkillFileSyntax;
  yaml: YamlSyntax;
  value: Record<string, unknown>;
}

/**
 * The Claude Code rules of a skill checked for Claude Code: its hooks, its arguments against `argument-hint`, its
 * `model`, and the `$N` it writes for something else, which Claude Code replaces with them.
 */
export function checkClaudeCodeSkill(context: ClaudeCodeContext): Diagnostic[] {
  return [
    ...hookFindings(context),
    ...argumentFindings(context),
    ...modelFindings(context),
    ...placeholderCollisions(context.file, context.syntax),
  ];
}

/** `model` that names no model Claude Code can pick: a model of another vendor, an alias misspelt. */
function modelFindings({ file, yaml, value }: ClaudeCodeContext): Diagnostic[] {
  const model = value.model;
  if (typeof model !== 'string' || model.trim() === '') return [];
  const [, alias, longContext = ''] = /^(.*?)(\[1m\])?$/.exec(model.trim().toLowerCase())!;
  if (MODEL_ALIASES.includes(alias) || MODEL_ID.test(model)) return [];
  const span = nodeSpan(yaml, pairOf(yaml.doc.contents, 'model')?.value);
  if (!span) return [];
  const meant = closestName(alias, MODEL_ALIASES);
  // A misspelt alias keeps the long context it asked for.
  const suggestion = meant && `${meant}${longContext}`;
  return [
    diagnostic(
      unknownModel,
      file,
      span,
      `\`model\` is \`${model}\`, which is not a model Claude Code knows.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} It takes an alias (\`sonnet\`, \`opus\`, \`haiku\`, \`inherit\` for the session's model) or a Claude model id (\`claude-sonnet-4-5\`, or the id or ARN of one on Bedrock or Vertex).`,
      suggestion ? { suggestion } : undefined,
    ),
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
