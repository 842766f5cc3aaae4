import * as path from 'node:path';
import frontmatterSchema from '../../../../schemas/agent-skills.frontmatter.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/diagnostic';
import type { Profile } from '../../checks/profiles';
import { validateAgainstSchema } from '../../checks/schemaValidation';
import type { FormatId } from '../../model/skillModel';
import type { Span } from '../../parse/lineIndex';
import { mapEntries, nodeSpan, pairOf, type YamlSyntax } from '../../parse/yamlSyntax';

export interface FrontmatterContext {
  file: string;
  dir: string;
  yaml: YamlSyntax;
  value: Record<string, unknown>;
  /** The opening `---`, where errors about the whole frontmatter go. */
  anchor: Span;
  profile: Profile;
  format: FormatId;
}

/** Formats whose own runtime defines more frontmatter keys than we model yet: unknown keys are not ours to judge. */
const OPEN_FORMATS: FormatId[] = ['metaskill', 'metaskill-sop', 'skillplus'];

/** The Agent Skills rules every format shares: schema, name and folder, unknown keys, profile rules. */
export function checkFrontmatter(context: FrontmatterContext): Diagnostic[] {
  const { file, yaml, value, profile } = context;
  const diagnostics = validateAgainstSchema(frontmatterSchema, schemaView(context), {
    file,
    yaml,
    rootSpan: context.anchor,
    defaultCode: 'invalid_frontmatter',
    rootRequiredCode: 'missing_required_frontmatter',
    rootName: 'the frontmatter',
  }).filter((found) => profile.nameRequired || !(found.code === 'missing_required_frontmatter' && found.message.includes('`name`')));

  const nameSpan = keySpan(yaml, 'name', context.anchor);
  const folder = path.basename(context.dir);
  if (typeof value.name === 'string' && value.name !== folder) {
    diagnostics.push(
      diagnostic('name_mismatch', file, valueSpan(yaml, 'name') ?? nameSpan, `\`name\` is "${value.name}" but the skill folder is "${folder}"; they must be equal.`, {
        expected: folder,
      }),
    );
  }
  diagnostics.push(...unknownKeys(context), ...profileRules(context));
  return diagnostics;
}

/** The value the schema sees: AIP 0.3's nested `metadata.aip` map is checked by the AIP rules instead. */
function schemaView({ value, format }: FrontmatterContext): Record<string, unknown> {
  const metadata = value.metadata;
  if (format !== 'aip-0.3' || !metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return value;
  const { aip: _aip, ...rest } = metadata as Record<string, unknown>;
  return { ...value, metadata: rest };
}

function unknownKeys({ file, yaml, profile, format }: FrontmatterContext): Diagnostic[] {
  if (OPEN_FORMATS.includes(format)) return [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of mapEntries(yaml.doc.contents)) {
    if (profile.knownKeys.has(entry.key)) continue;
    const found = diagnostic(
      'unknown_frontmatter_key',
      file,
      nodeSpan(yaml, entry.keyNode)!,
      `Unknown frontmatter key \`${entry.key}\` for ${profile.consumer}. Known keys: ${[...profile.knownKeys].join(', ')}.`,
      { key: entry.key },
    );
    diagnostics.push({ ...found, severity: profile.severities.unknown_frontmatter_key ?? found.severity });
  }
  return diagnostics;
}

function profileRules(context: FrontmatterContext): Diagnostic[] {
  const { file, yaml, value, profile } = context;
  const diagnostics: Diagnostic[] = [];
  if (profile.id === 'claude-code') {
    const listed = `${stringOr(value.description)}${stringOr(value.when_to_use)}`.length;
    if (listed > 1536) {
      diagnostics.push(
        diagnostic('description_truncated', file, valueSpan(yaml, 'description') ?? context.anchor, `\`description\` and \`when_to_use\` together are ${listed} characters; Claude Code cuts the listing at 1536, so the end is never seen.`),
      );
    }
    if (value.agent !== undefined && value.context !== 'fork') {
      diagnostics.push(diagnostic('agent_without_fork', file, keySpan(yaml, 'agent', context.anchor), '`agent` only takes effect with `context: fork`; add it or remove `agent`.'));
    }
  }
  if (profile.id === 'claude-api') {
    for (const key of ['name', 'description']) {
      const text = stringOr(value[key]);
      if (/<[A-Za-z/][^>]*>/.test(text)) {
        diagnostics.push(diagnostic('xml_in_frontmatter', file, valueSpan(yaml, key) ?? context.anchor, `\`${key}\` contains an XML tag; the Claude API rejects XML tags in \`name\` and \`description\`. Use backticks or plain words.`));
      }
    }
    const reserved = /anthropic|claude/i.exec(stringOr(value.name));
    if (reserved) {
      diagnostics.push(diagnostic('reserved_name', file, valueSpan(yaml, 'name') ?? context.anchor, `\`name\` contains the reserved word "${reserved[0].toLowerCase()}", which the Claude API rejects.`));
    }
  }
  return diagnostics;
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function keySpan(yaml: YamlSyntax, key: string, fallback: Span): Span {
  return nodeSpan(yaml, pairOf(yaml.doc.contents, key)?.key) ?? fallback;
}

function valueSpan(yaml: YamlSyntax, key: string): Span | undefined {
  return nodeSpan(yaml, pairOf(yaml.doc.contents, key)?.value);
}
