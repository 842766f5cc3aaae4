import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { defineRule } from '../../checks/engine/rule';
import type { FrontmatterContext } from './frontmatterRules';
import { keySpan, stringOr, valueSpan } from './frontmatterValues';
import { nodeAtPath, nodeSpan } from '../../parse/yaml/yamlNodes';
import { CLAUDE_LISTING_LIMIT } from '../../platforms/clients';

// What one client checks of the frontmatter beyond the specification: Claude Code's listing limit and `agent`, Codex's
// loader and validator, the Claude API's upload.

export const descriptionTruncated = defineRule({
  code: 'description_truncated',
  category: 'frontmatter',
  severity: 'warning',
  summary: 'Claude Code truncates a description and when_to_use longer than 1536 characters.',
  stability: 'stable',
  formats: 'all',
});

export const agentWithoutFork = defineRule({
  code: 'agent_without_fork',
  category: 'client',
  severity: 'error',
  summary: '`agent` is set without `context: fork`.',
  stability: 'stable',
  formats: 'all',
});

export const angleBracketInDescription = defineRule({
  code: 'angle_bracket_in_description',
  category: 'client',
  severity: 'warning',
  summary: "A `<` or `>` in `description`, which Codex's skill-creator validator rejects (its loader does not).",
  stability: 'stable',
  formats: 'all',
});

export const shortDescriptionTooLong = defineRule({
  code: 'short_description_too_long',
  category: 'client',
  severity: 'error',
  summary: '`metadata.short-description` is over 1,024 characters, and Codex does not load the skill.',
  stability: 'stable',
  formats: 'all',
});

export const xmlInFrontmatter = defineRule({
  code: 'xml_in_frontmatter',
  category: 'client',
  severity: 'error',
  summary: 'XML tags in `name` or `description` are rejected on upload.',
  stability: 'stable',
  formats: 'all',
});

export const reservedName = defineRule({
  code: 'reserved_name',
  category: 'client',
  severity: 'error',
  summary: '`name` contains a reserved word.',
  stability: 'stable',
  formats: 'all',
});

/** The frontmatter rules of the profile's client. */
export function clientFrontmatterRules(context: FrontmatterContext): Diagnostic[] {
  const { file, yaml, value, profile } = context;
  const diagnostics: Diagnostic[] = [];
  if (profile.id === 'claude-code') {
    const listed = `${stringOr(value.description)}${stringOr(value.when_to_use)}`.length;
    if (listed > CLAUDE_LISTING_LIMIT) {
      diagnostics.push(
        diagnostic(
          descriptionTruncated,
          file,
          valueSpan(yaml, 'description') ?? context.anchor,
          `\`description\` and \`when_to_use\` together are ${listed} characters; Claude Code cuts the listing at ${CLAUDE_LISTING_LIMIT}, so the end is never seen.`,
        ),
      );
    }
    if (value.agent !== undefined && value.context !== 'fork') {
      diagnostics.push(
        diagnostic(
          agentWithoutFork,
          file,
          keySpan(yaml, 'agent', context.anchor),
          '`agent` only takes effect with `context: fork`; add it or remove `agent`.',
        ),
      );
    }
  }
  if (profile.id === 'codex') {
    const bracket = /[<>]/.exec(stringOr(value.description));
    const span = valueSpan(yaml, 'description');
    if (bracket && span) {
      // The character itself when the value is written as it reads (a plain or single-line scalar), else the value.
      const written = context.source.slice(span.start, span.end);
      const at = written.indexOf(bracket[0]);
      diagnostics.push(
        diagnostic(
          angleBracketInDescription,
          file,
          at >= 0 && !written.includes('\n') ? { start: span.start + at, end: span.start + at + 1 } : span,
          `\`description\` contains \`${bracket[0]}\`; Codex loads the skill, but the validator of its skill-creator rejects \`<\` and \`>\` in a description. Say it in words ("less than", "the file name").`,
        ),
      );
    }
    diagnostics.push(...shortDescriptionFindings(context));
  }
  if (profile.id === 'claude-api') {
    for (const key of ['name', 'description']) {
      const text = stringOr(value[key]);
      if (/<[A-Za-z/][^>]*>/.test(text)) {
        diagnostics.push(
          diagnostic(
            xmlInFrontmatter,
            file,
            valueSpan(yaml, key) ?? context.anchor,
            `\`${key}\` contains an XML tag; the Claude API rejects XML tags in \`name\` and \`description\`. Use backticks or plain words.`,
          ),
        );
      }
    }
    const reserved = /anthropic|claude/i.exec(stringOr(value.name));
    if (reserved) {
      diagnostics.push(
        diagnostic(
          reservedName,
          file,
          valueSpan(yaml, 'name') ?? context.anchor,
          `\`name\` contains the reserved word "${reserved[0].toLowerCase()}", which the Claude API rejects.`,
        ),
      );
    }
  }
  return diagnostics;
}

/** The longest `metadata.short-description` Codex's loader takes (its `MAX_SHORT_DESCRIPTION_LEN`). */
const CODEX_SHORT_DESCRIPTION_LIMIT = 1024;

/** `metadata.short-description` longer than Codex's loader takes: it refuses the skill, as for a long `description`. */
function shortDescriptionFindings({ file, yaml, value, anchor }: FrontmatterContext): Diagnostic[] {
  const metadata = value.metadata;
  const text =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as Record<string, unknown>)['short-description']
      : undefined;
  if (typeof text !== 'string') return [];
  // Measured as the loader does: on one line (each run of white space one space), in characters (code points).
  const length = [...text.split(/\s+/).filter(Boolean).join(' ')].length;
  if (length <= CODEX_SHORT_DESCRIPTION_LIMIT) return [];
  const found = nodeAtPath(yaml, ['metadata', 'short-description']);
  return [
    diagnostic(
      shortDescriptionTooLong,
      file,
      (found.depth === 2 ? nodeSpan(yaml, found.node) : undefined) ?? anchor,
      `\`metadata.short-description\` is ${length} characters; Codex does not load a skill whose short description is over ${CODEX_SHORT_DESCRIPTION_LIMIT}. Shorten it.`,
    ),
  ];
}
