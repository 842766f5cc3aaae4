import * as path from 'node:path';
import { isCollection, isMap as isYamlMap, isSeq } from 'yaml';
import frontmatterSchema from '../../../../schemas/agent-skills.frontmatter.schema.json';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import type { Profile } from '../../platforms/profiles';
import { validateAgainstSchema } from '../../checks/schema/schemaValidation';
import type { Span } from '../../parse/text/lineIndex';
import type { TextLike } from '../../parse/text/textLike';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';
import { defineRule } from '../../checks/engine/rule';
import { invalidFrontmatter } from '../../checks/skillFile/container';
import { quoteWrittenFix } from '../../checks/edits/yamlFixes';
import { fixOf, textChange, type Fix } from '../../checks/engine/fix';
import { clientFrontmatterRules } from './clientFrontmatterRules';
import { checkFrontmatterKeys } from './frontmatterKeys';
import { keySpan, valueSpan } from './frontmatterValues';

export const missingRequiredFrontmatter = defineRule({
  code: 'missing_required_frontmatter',
  category: 'frontmatter',
  severity: 'error',
  summary: 'A required frontmatter key is missing.',
  stability: 'stable',
  formats: 'all',
});

export const invalidName = defineRule({
  code: 'invalid_name',
  category: 'frontmatter',
  severity: 'error',
  summary: '`name` breaks the naming rules.',
  stability: 'stable',
  formats: 'all',
});

export const nameMismatch = defineRule({
  code: 'name_mismatch',
  category: 'frontmatter',
  severity: 'error',
  summary: '`name` differs from the skill folder name.',
  stability: 'stable',
  formats: 'all',
  fixable: 'unsafe',
  fix: renameToFolderFix,
  profiles: { vscode: 'warning', opensquilla: 'warning' },
});

export const invalidDescription = defineRule({
  code: 'invalid_description',
  category: 'frontmatter',
  severity: 'error',
  summary: '`description` is missing, empty, too long or not a string.',
  stability: 'stable',
  formats: 'all',
  profiles: { opensquilla: 'warning' },
});

export const invalidCompatibility = defineRule({
  code: 'invalid_compatibility',
  category: 'frontmatter',
  severity: 'error',
  summary: '`compatibility` is not a string of 1 to 500 characters.',
  stability: 'stable',
  formats: 'all',
  profiles: { opensquilla: 'warning' },
});

export const invalidAllowedTools = defineRule({
  code: 'invalid_allowed_tools',
  category: 'frontmatter',
  severity: 'error',
  summary: '`allowed-tools` is not one space-separated string.',
  stability: 'stable',
  formats: 'all',
  profiles: { opensquilla: 'warning' },
});

export const invalidLicense = defineRule({
  code: 'invalid_license',
  category: 'frontmatter',
  severity: 'error',
  summary: '`license` is not a short string.',
  stability: 'stable',
  formats: 'all',
  profiles: { opensquilla: 'warning' },
});

export const invalidMetadata = defineRule({
  code: 'invalid_metadata',
  category: 'frontmatter',
  severity: 'error',
  summary: '`metadata` is not a map of strings to strings.',
  stability: 'stable',
  formats: 'all',
});

export const invalidFrontmatterField = defineRule({
  code: 'invalid_frontmatter_field',
  category: 'frontmatter',
  severity: 'error',
  summary: 'A client-specific frontmatter key has the wrong type or value.',
  stability: 'stable',
  formats: 'all',
  profiles: { opensquilla: 'warning' },
});

export const portableValue = defineRule({
  code: 'portable_value',
  category: 'frontmatter',
  severity: 'warning',
  summary: 'A list, map or number where the spec asks for a string: accepted by most clients, rejected by strict ones.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: quoteWrittenFix,
  profiles: { 'claude-api': 'error' },
});

export interface FrontmatterContext {
  file: string;
  dir: string;
  yaml: YamlSyntax;
  value: Record<string, unknown>;
  /** The opening `---`, where errors about the whole frontmatter go. */
  anchor: Span;
  profile: Profile;
  /** The `metadata` keys the skill's format reads itself (its own maps, not the specification's strings). */
  ownMetadata: readonly string[];
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
    defaultRule: invalidFrontmatter,
    named: [
      invalidName,
      invalidDescription,
      invalidCompatibility,
      invalidAllowedTools,
      invalidLicense,
      invalidMetadata,
      invalidFrontmatterField,
    ],
    rootRequiredRule: missingRequiredFrontmatter,
    rootName: 'the frontmatter',
  })
    .flatMap((found): Diagnostic[] => {
      if (found.code !== missingRequiredFrontmatter.code || !found.message.includes('`name`')) return [found];
      if (profile.missingName === 'allowed') return [];
      return [profile.missingName === 'warning' ? { ...found, severity: 'warning' } : found];
    })
    .map((found) =>
      found.code === invalidName.code &&
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
        invalidDescription,
        file,
        valueSpan(yaml, 'description') ?? keySpan(yaml, 'description', context.anchor),
        '`description` holds only white space; agents choose a skill from its description, and the spec requires one.',
      ),
    );
  }

  const folder = path.basename(context.dir);
  // A name that differs from its folder only in case ("Security" in `security/`) breaks the naming rules, and
  // invalid_name says so at the same place (its message asks for the folder's name): one finding for the one fact.
  const caseOnly =
    typeof value.name === 'string' &&
    value.name.toLowerCase() === folder.toLowerCase() &&
    diagnostics.some((found) => found.code === invalidName.code);
  if (typeof value.name === 'string' && value.name !== folder && !caseOnly) {
    diagnostics.push(
      diagnostic(
        nameMismatch,
        file,
        valueSpan(yaml, 'name') ?? keySpan(yaml, 'name', context.anchor),
        `\`name\` is "${value.name}" but the skill folder is "${folder}"; they must be equal.`,
        {
          expected: folder,
        },
      ),
    );
  }
  diagnostics.push(...checkFrontmatterKeys(context), ...clientFrontmatterRules(context));
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
 * error. A format's own metadata maps (AIP 0.3's `metadata.aip`) and a consumer's own nested
 * metadata (OpenSquilla) are not the schema's to judge.
 */
function schemaView({ value, ownMetadata, file, yaml, profile, source }: FrontmatterContext): {
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
      diagnostics.push(diagnostic(portableValue, file, nodeSpan(yaml, node.node)!, message, data));
  };
  const tools = value['allowed-tools'];
  if (Array.isArray(tools) && tools.every((item) => typeof item === 'string')) {
    const toolsNode = pairOf(yaml.doc.contents, 'allowed-tools')?.value;
    const bracketed = isSeq(toolsNode) && toolsNode.flow === true;
    // Claude Code documents a list as one of its forms, with a string of tools separated by spaces or commas.
    if (profile.id !== 'claude-code')
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
      if (ownMetadata.includes(key)) continue;
      if (typeof item !== 'string' && item !== null && !profile.nestedMetadata) {
        const what = Array.isArray(item) ? 'a list' : isMap(item) ? 'a map' : `a ${typeof item}`;
        // The reference validator turns a value into a string only once its YAML is read: a value in brackets or
        // braces (flow style) is refused before that.
        const readers = inFlowStyle(nodeAtPath(yaml, ['metadata', key]).node)
          ? `written in brackets or braces, which the reference validator refuses (its YAML has no flow style); most clients turn it into a string`
          : 'the reference validator and most clients turn it into one';
        portable(
          ['metadata', key],
          `\`metadata.${key}\` is ${what}, not a string; ${readers}, but the Claude API upload rejects it.`,
        );
      }
      metadata[key] = typeof item === 'string' || item === null ? item : JSON.stringify(item);
    }
    view.metadata = metadata;
  }
  return { value: view, diagnostics };
}

/** Whether a value is written in flow style (`[a, b]`, `{a: b}`), itself or anywhere inside it. */
function inFlowStyle(node: unknown): boolean {
  if (!isCollection(node)) return false;
  if (node.flow) return true;
  return isYamlMap(node)
    ? node.items.some((pair) => inFlowStyle(pair.value))
    : node.items.some((item) => inFlowStyle(item));
}

/** `name` made the folder's name: unsafe, as the folder may be what is wrong. */
function renameToFolderFix(item: Diagnostic): Fix[] {
  const expected = item.data?.expected;
  return typeof expected === 'string'
    ? [
        fixOf(item, `Rename the skill to "${expected}" (its folder name)`, 'unsafe', [
          textChange(item.file, item.span.start, item.span.end, expected),
        ]),
      ]
    : [];
}
