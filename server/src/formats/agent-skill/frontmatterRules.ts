import * as path from 'node:path';
import { isSeq } from 'yaml';
import frontmatterSchema from '../../../../schemas/agent-skills.frontmatter.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/diagnostic';
import type { Profile } from '../../checks/profiles';
import { validateAgainstSchema } from '../../checks/schemaValidation';
import type { FormatId } from '../../model/skillModel';
import type { Span } from '../../parse/lineIndex';
import type { TextLike } from '../../parse/textLike';
import { closestName } from '../../checks/nameDistance';
import { mapEntries, nodeAtPath, nodeSpan, pairOf, topKeys, type YamlSyntax } from '../../parse/yamlSyntax';

export interface FrontmatterContext {
  file: string;
  dir: string;
  yaml: YamlSyntax;
  value: Record<string, unknown>;
  /** The opening `---`, where errors about the whole frontmatter go. */
  anchor: Span;
  profile: Profile;
  format: FormatId;
  /** The SKILL.md text the spans are in. */
  source: TextLike;
}

/** The Agent Skills rules every format shares: schema, name and folder, unknown keys, profile rules. */
export function checkFrontmatter(context: FrontmatterContext): Diagnostic[] {
  const { file, yaml, value, profile } = context;
  const view = schemaView(context);
  const diagnostics = validateAgainstSchema(frontmatterSchema, view.value, {
    file,
    yaml,
    rootSpan: context.anchor,
    defaultCode: 'invalid_frontmatter',
    rootRequiredCode: 'missing_required_frontmatter',
    rootName: 'the frontmatter',
  })
    .flatMap((found): Diagnostic[] => {
      if (found.code !== 'missing_required_frontmatter' || !found.message.includes('`name`')) return [found];
      if (profile.missingName === 'allowed') return [];
      return [profile.missingName === 'warning' ? { ...found, severity: 'warning' } : found];
    })
    .map((found) =>
      found.code === 'invalid_name' &&
      profile.id === 'opensquilla' &&
      typeof value.name === 'string' &&
      value.name !== ''
        ? { ...found, severity: 'warning' as const }
        : found,
    );
  diagnostics.push(...view.diagnostics);
  // The schema's minLength passes a description of spaces; the spec (and the reference validator) ask for text.
  if (typeof value.description === 'string' && value.description !== '' && value.description.trim() === '') {
    diagnostics.push(
      diagnostic(
        'invalid_description',
        file,
        valueSpan(yaml, 'description') ?? keySpan(yaml, 'description', context.anchor),
        '`description` holds only white space; agents choose a skill from its description, and the spec requires one.',
      ),
    );
  }

  const folder = path.basename(context.dir);
  if (typeof value.name === 'string' && value.name !== folder) {
    diagnostics.push(
      diagnostic(
        'name_mismatch',
        file,
        valueSpan(yaml, 'name') ?? keySpan(yaml, 'name', context.anchor),
        `\`name\` is "${value.name}" but the skill folder is "${folder}"; they must be equal.`,
        {
          expected: folder,
        },
      ),
    );
  }
  diagnostics.push(...unknownKeys(context), ...profileRules(context));
  return diagnostics;
}

/** The specification's longest description. */
const SPEC_DESCRIPTION_LIMIT = 1024;

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value the schema sees, read as the reference validator reads it: a
 * metadata value that is not a string is turned into one, and a YAML list of
 * tool names into one space-separated string. Each such departure is a
 * `portable_value` finding (strict consumers reject it) instead of a schema
 * error. AIP 0.3's nested `metadata.aip` map and a consumer's own nested
 * metadata (OpenSquilla) are not the schema's to judge.
 */
function schemaView({ value, format, file, yaml, profile, source }: FrontmatterContext): {
  value: Record<string, unknown>;
  diagnostics: Diagnostic[];
} {
  const diagnostics: Diagnostic[] = [];
  const view: Record<string, unknown> = { ...value };
  // Claude Code lists a longer description cut at its own limit (description_truncated says where), not rejected.
  if (profile.longDescription === 'truncated' && typeof value.description === 'string')
    view.description = value.description.slice(0, SPEC_DESCRIPTION_LIMIT);
  const portable = (path: string[], message: string, data?: Record<string, unknown>) => {
    const node = nodeAtPath(yaml, path);
    if (node.depth === path.length)
      diagnostics.push(diagnostic('portable_value', file, nodeSpan(yaml, node.node)!, message, data));
  };
  const tools = value['allowed-tools'];
  if (Array.isArray(tools) && tools.every((item) => typeof item === 'string')) {
    const toolsNode = pairOf(yaml.doc.contents, 'allowed-tools')?.value;
    const bracketed = isSeq(toolsNode) && toolsNode.flow === true;
    portable(
      ['allowed-tools'],
      bracketed
        ? '`allowed-tools` is a YAML list in brackets; the spec asks for one space-separated string. The reference validator rejects the bracket form (its YAML has no flow style) and the Claude API upload rejects any list; most clients accept it.'
        : '`allowed-tools` is a YAML list; the spec asks for one space-separated string. Most clients and the reference validator accept a list, but the Claude API upload rejects it.',
    );
    view['allowed-tools'] = tools.join(' ');
  }
  // A hint such as `[file]` or `[optional: date]` is meant as the text shown, but YAML reads brackets as a list.
  const hint = value['argument-hint'];
  if (hint !== undefined && hint !== null && typeof hint !== 'string') {
    const span = valueSpan(yaml, 'argument-hint');
    const written = span ? source.slice(span.start, span.end) : undefined;
    portable(
      ['argument-hint'],
      `\`argument-hint\` is read as a YAML ${Array.isArray(hint) ? 'list' : isMap(hint) ? 'map' : typeof hint}, not as the text ${written ? `\`${written}\`` : 'it shows'}; Claude Code shows it, but strict readers reject it. Quote the value.`,
      written ? { quoted: JSON.stringify(written) } : undefined,
    );
    view['argument-hint'] = written ?? String(hint);
  }
  if (isMap(value.metadata)) {
    const metadata: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value.metadata)) {
      if (format === 'aip-0.3' && key === 'aip') continue;
      if (typeof item !== 'string' && item !== null && !profile.nestedMetadata)
        portable(
          ['metadata', key],
          `\`metadata.${key}\` is ${Array.isArray(item) ? 'a list' : isMap(item) ? 'a map' : `a ${typeof item}`}, not a string; the reference validator and most clients turn it into one, but the Claude API upload rejects it.`,
        );
      metadata[key] = typeof item === 'string' || item === null ? item : JSON.stringify(item);
    }
    view.metadata = metadata;
  }
  return { value: view, diagnostics };
}

function unknownKeys({ file, yaml, profile }: FrontmatterContext): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // When every key is known there is nothing to point at, and a plain reading's nodes are not built.
  if (topKeys(yaml).every((key) => profile.knownKeys.has(key))) return diagnostics;
  for (const entry of mapEntries(yaml.doc.contents)) {
    if (profile.knownKeys.has(entry.key)) continue;
    const suggestion = closestName(entry.key, profile.knownKeys);
    diagnostics.push(
      diagnostic(
        'unknown_frontmatter_key',
        file,
        nodeSpan(yaml, entry.keyNode)!,
        `Unknown frontmatter key \`${entry.key}\` for ${profile.consumer}.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Known keys: ${[...profile.knownKeys].join(', ')}.`,
        { key: entry.key, ...(suggestion ? { suggestion } : {}) },
      ),
    );
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
        diagnostic(
          'description_truncated',
          file,
          valueSpan(yaml, 'description') ?? context.anchor,
          `\`description\` and \`when_to_use\` together are ${listed} characters; Claude Code cuts the listing at 1536, so the end is never seen.`,
        ),
      );
    }
    if (value.agent !== undefined && value.context !== 'fork') {
      diagnostics.push(
        diagnostic(
          'agent_without_fork',
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
          'angle_bracket_in_description',
          file,
          at >= 0 && !written.includes('\n') ? { start: span.start + at, end: span.start + at + 1 } : span,
          `\`description\` contains \`${bracket[0]}\`; Codex's skill validator rejects \`<\` and \`>\` in a description. Say it in words ("less than", "the file name").`,
        ),
      );
    }
  }
  if (profile.id === 'claude-api') {
    for (const key of ['name', 'description']) {
      const text = stringOr(value[key]);
      if (/<[A-Za-z/][^>]*>/.test(text)) {
        diagnostics.push(
          diagnostic(
            'xml_in_frontmatter',
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
          'reserved_name',
          file,
          valueSpan(yaml, 'name') ?? context.anchor,
          `\`name\` contains the reserved word "${reserved[0].toLowerCase()}", which the Claude API rejects.`,
        ),
      );
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
