import * as path from 'node:path';
import { isMap, isSeq, type Node } from 'yaml';
import configSchema from '../../../schemas/skillgraph-config.schema.json';
import { diagnostic, type Diagnostic } from '../checks/engine/diagnostic';
import { closestName } from '../checks/match/nameDistance';
import { isProfileId, type ProfileId } from '../platforms/profiles';
import { SECURITY_FAMILY } from '../checks/security';
import { validateAgainstSchema } from '../checks/schema/schemaValidation';
import { isSeverityChoice, type SeverityMap } from '../checks/engine/severities';
import { parseYamlRegion, type YamlSyntax } from '../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan } from '../parse/yaml/yamlNodes';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { defineRule } from '../checks/engine/rule';

export const invalidConfig = defineRule({
  code: 'invalid_config',
  category: 'config',
  severity: 'error',
  summary: 'A mistake in a Skillgraph configuration file; the part it is in is ignored.',
  stability: 'stable',
  formats: 'all',
});

/** Every rule's code: the schema lists them (scripts/ruleCatalog.ts writes the list from the rules' declarations). */
const RULE_CODES: ReadonlySet<string> = new Set(configSchema.$defs.rules.propertyNames.enum);

/** The names a configuration file may have, in the order they are looked for in a folder. */
export const CONFIG_FILE_NAMES = ['.skillgraph.yaml', '.skillgraph.yml', '.skillgraph.json'] as const;

/** `extends: skillgraph:<name>` names a preset of Skillgraph's own, not a file. */
const PRESET_PREFIX = 'skillgraph:';

/**
 * The presets: `security`, for auditing skills before installing them, makes every security rule an error but those
 * that only say what a skill may do unasked, or what the audit did not read, which become warnings.
 */
const PRESETS: Record<string, SeverityMap> = {
  security: Object.fromEntries(SECURITY_FAMILY.map((rule) => [rule.code, rule.security?.review ? 'warning' : 'error'])),
};

/** How deep `extends` may chain: a longer chain is a mistake, not a design. */
const MAX_EXTENDS = 8;

/** Settings for the skills some globs match, each glob relative to `base` (its configuration file's folder). */
export interface ConfigOverride {
  base: string;
  files: string[];
  profile?: ProfileId;
  strict?: boolean;
  preview?: boolean;
  rules: SeverityMap;
}

/** An OpenAI-compatible endpoint and model, for `check --model`: its API key is in the environment, never here. */
export interface ModelEndpoint {
  /** The base URL, without a trailing `/`: requests go to `{url}/chat/completions`. */
  url: string;
  name: string;
  /** The environment variable that holds the API key; none is sent without it. */
  apiKeyEnv?: string;
  timeoutSeconds?: number;
}

/** The `model` setting, when it is whole (the schema reports what is wrong with it, and it is then left out). */
function modelEndpoint(value: unknown): ModelEndpoint | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { url, name, apiKeyEnv, timeoutSeconds } = value as Record<string, unknown>;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof name !== 'string' || name === '') return undefined;
  if (apiKeyEnv !== undefined && (typeof apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)))
    return undefined;
  const timeout = typeof timeoutSeconds === 'number' && timeoutSeconds > 0 && timeoutSeconds <= 600;
  if (timeoutSeconds !== undefined && !timeout) return undefined;
  return {
    url: url.replace(/\/+$/, ''),
    name,
    ...(apiKeyEnv !== undefined ? { apiKeyEnv: apiKeyEnv as string } : {}),
    ...(timeout ? { timeoutSeconds: timeoutSeconds as number } : {}),
  };
}

/** A configuration file as it applies: its own settings over those of the files it extends. */
export interface SkillgraphConfig {
  file: string;
  profile?: ProfileId;
  strict?: boolean;
  /** Run the preview rules (checks/engine/rule.ts). */
  preview?: boolean;
  rules: SeverityMap;
  /** Globs of what is not checked, each relative to the folder of the file that wrote it. */
  ignore: { base: string; glob: string }[];
  overrides: ConfigOverride[];
  /** Absolute folders of skill folders MetaSkills may compose. */
  catalogs: string[];
  /** The absolute path of the baseline file. */
  baseline?: string;
  /** The language model `check --model` asks. */
  model?: ModelEndpoint;
  /** This file and every file it extends: a change to any of them changes the configuration. */
  files: string[];
  /** Mistakes in those files, each in the file it is in; the parts they are in are left out. */
  diagnostics: Diagnostic[];
}

/** The configuration file in `dir` itself, if it has one. */
export function configFileIn(fs: FileSystem, dir: string): string | undefined {
  // Looked up in the folder's listing, not with a call per name: a run lists every skill folder while finding the
  // skills (ListingCache), so a library's thousands of folders cost nothing more here.
  const files = fs.readDirectory(dir).filter((entry) => entry.kind === 'file');
  const name = CONFIG_FILE_NAMES.find((candidate) => files.some((entry) => entry.name === candidate));
  return name === undefined ? undefined : path.join(dir, name);
}

/** The configuration file nearest to `dir`: in it, or in the closest folder above it that has one. */
export function findConfigFile(fs: FileSystem, dir: string): string | undefined {
  for (let folder = path.resolve(dir); ; folder = path.dirname(folder)) {
    const found = configFileIn(fs, folder);
    if (found) return found;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/**
 * Reads a configuration file and the files it extends. Never throws: a
 * file that cannot be read, a YAML error, a value of the wrong type or an
 * unknown rule code is a diagnostic at its place, and what it is in is left
 * out, so the rest of the configuration still applies.
 */
export function readConfig(fs: FileSystem, file: string, chain: string[] = []): SkillgraphConfig {
  const config: SkillgraphConfig = {
    file,
    rules: {},
    ignore: [],
    overrides: [],
    catalogs: [],
    files: [file],
    diagnostics: [],
  };
  const start = { start: 0, end: 0 };
  const read = readText(fs, file);
  if (read.kind !== 'text') {
    config.diagnostics.push(
      diagnostic(invalidConfig, file, start, `${path.basename(file)} could not be read as text.`),
    );
    return config;
  }
  const yaml = parseYamlRegion(read.text, { start: 0, end: read.text.length });
  for (const problem of yaml.problems)
    config.diagnostics.push(
      diagnostic(invalidConfig, file, problem.span, `The configuration does not parse: ${problem.message}`),
    );
  if (yaml.problems.length > 0 || yaml.value === null || yaml.value === undefined) return config;
  if (typeof yaml.value !== 'object' || Array.isArray(yaml.value)) {
    config.diagnostics.push(diagnostic(invalidConfig, file, start, 'The configuration must be a map of settings.'));
    return config;
  }
  const value = withoutUnknownCodes(file, yaml, yaml.value as Record<string, unknown>, config.diagnostics);
  // The schema says what is wrong, where; what is of the wrong type is then left out below, entry by entry.
  config.diagnostics.push(
    ...validateAgainstSchema(configSchema, value, {
      file,
      yaml,
      rootSpan: start,
      defaultRule: invalidConfig,
      rootName: 'the configuration',
    }),
  );
  const dir = path.dirname(file);
  const own = readOwnSettings(value, dir);
  const bases = strings(value.extends);
  const merged = bases.reduce<SkillgraphConfig>((base, relative) => {
    const span = nodeSpan(yaml, stringNode(yaml, 'extends', relative)) ?? start;
    if (relative.startsWith(PRESET_PREFIX)) {
      const preset = PRESETS[relative.slice(PRESET_PREFIX.length)];
      if (preset) return mergeConfigs(base, { ...config, rules: preset, diagnostics: [], files: [] });
      config.diagnostics.push(
        diagnostic(
          invalidConfig,
          file,
          span,
          `\`extends\`: there is no preset \`${relative}\`; the presets are ${Object.keys(PRESETS)
            .map((name) => `\`${PRESET_PREFIX}${name}\``)
            .join(', ')}.`,
        ),
      );
      return base;
    }
    const extended = path.resolve(dir, relative);
    if (chain.includes(extended) || extended === file || chain.length >= MAX_EXTENDS) {
      config.diagnostics.push(
        diagnostic(
          invalidConfig,
          file,
          span,
          `\`extends\` of \`${relative}\` makes a loop, or a chain of more than ${MAX_EXTENDS}.`,
        ),
      );
      return base;
    }
    if (fs.stat(extended)?.kind !== 'file') {
      config.diagnostics.push(diagnostic(invalidConfig, file, span, `\`extends\`: \`${relative}\` does not exist.`));
      return base;
    }
    return mergeConfigs(base, readConfig(fs, extended, [...chain, file]));
  }, config);
  return mergeConfigs(merged, { ...config, ...own, diagnostics: [], files: [] });
}

/** A string, or a list of them: the strings (anything else is reported by the schema, and left out). */
function strings(value: unknown): string[] {
  return [value].flat().filter((item): item is string => typeof item === 'string');
}

/** Rule severities, the valid entries only. */
function severities(raw: unknown): SeverityMap {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw).filter(([code, severity]) => RULE_CODES.has(code) && isSeverityChoice(severity)),
  );
}

/** The settings a file writes itself, each entry of the right type, paths made absolute. */
function readOwnSettings(value: Record<string, unknown>, dir: string) {
  const overrides = (Array.isArray(value.overrides) ? value.overrides : [])
    .filter(
      (item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item),
    )
    .map((item) => ({
      base: dir,
      files: strings(item.files),
      ...(typeof item.profile === 'string' && isProfileId(item.profile) ? { profile: item.profile } : {}),
      ...(typeof item.strict === 'boolean' ? { strict: item.strict } : {}),
      ...(typeof item.preview === 'boolean' ? { preview: item.preview } : {}),
      rules: severities(item.rules),
    }))
    .filter((item) => item.files.length > 0);
  const model = modelEndpoint(value.model);
  return {
    ...(typeof value.profile === 'string' && isProfileId(value.profile) ? { profile: value.profile } : {}),
    ...(typeof value.strict === 'boolean' ? { strict: value.strict } : {}),
    ...(typeof value.preview === 'boolean' ? { preview: value.preview } : {}),
    rules: severities(value.rules),
    ignore: (Array.isArray(value.ignore) ? strings(value.ignore) : []).map((glob) => ({ base: dir, glob })),
    overrides,
    catalogs: (Array.isArray(value.catalogs) ? strings(value.catalogs) : []).map((folder) => path.resolve(dir, folder)),
    ...(typeof value.baseline === 'string' ? { baseline: path.resolve(dir, value.baseline) } : {}),
    ...(model ? { model } : {}),
  };
}

/** `own` over `base`: scalars replace, rules merge by code, lists add on. */
function mergeConfigs(base: SkillgraphConfig, own: SkillgraphConfig): SkillgraphConfig {
  return {
    file: base.file,
    ...((own.profile ?? base.profile) ? { profile: own.profile ?? base.profile } : {}),
    ...((own.strict ?? base.strict) !== undefined ? { strict: own.strict ?? base.strict } : {}),
    ...((own.preview ?? base.preview) !== undefined ? { preview: own.preview ?? base.preview } : {}),
    rules: { ...base.rules, ...own.rules },
    ignore: [...base.ignore, ...own.ignore],
    overrides: [...base.overrides, ...own.overrides],
    catalogs: [...base.catalogs, ...own.catalogs],
    ...((own.baseline ?? base.baseline) ? { baseline: own.baseline ?? base.baseline } : {}),
    ...((own.model ?? base.model) ? { model: own.model ?? base.model } : {}),
    files: [...base.files, ...own.files.filter((item) => !base.files.includes(item))],
    diagnostics: [...base.diagnostics, ...own.diagnostics],
  };
}

/**
 * The configuration without the rule codes no rule has, each reported with
 * the code it most likely means: the schema's message would list all of them.
 */
function withoutUnknownCodes(
  file: string,
  yaml: YamlSyntax,
  value: Record<string, unknown>,
  out: Diagnostic[],
): Record<string, unknown> {
  const cleaned = (rules: unknown, node: Node | null | undefined): unknown => {
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return rules;
    const kept: Record<string, unknown> = {};
    for (const [code, severity] of Object.entries(rules)) {
      if (RULE_CODES.has(code)) {
        kept[code] = severity;
        continue;
      }
      const keyNode = mapEntries(node).find((entry) => entry.key === code)?.keyNode;
      const suggestion = closestName(code, RULE_CODES);
      out.push(
        diagnostic(
          invalidConfig,
          file,
          nodeSpan(yaml, keyNode) ?? { start: 0, end: 0 },
          `No rule has the code \`${code}\`${suggestion ? `; did you mean \`${suggestion}\`?` : '.'} The codes are listed in docs/rules.`,
          suggestion ? { suggestion } : undefined,
        ),
      );
    }
    return kept;
  };
  const entries = mapEntries(yaml.doc.contents);
  const rulesNode = entries.find((entry) => entry.key === 'rules')?.value;
  const result: Record<string, unknown> = {
    ...value,
    ...('rules' in value ? { rules: cleaned(value.rules, rulesNode) } : {}),
  };
  const overridesNode = entries.find((entry) => entry.key === 'overrides')?.value;
  if (Array.isArray(value.overrides) && isSeq(overridesNode))
    result.overrides = value.overrides.map((item, index) => {
      if (typeof item !== 'object' || item === null || !('rules' in item)) return item;
      const itemNode = overridesNode.items[index] as Node | undefined;
      const rules = isMap(itemNode) ? mapEntries(itemNode).find((entry) => entry.key === 'rules')?.value : undefined;
      return { ...item, rules: cleaned((item as { rules: unknown }).rules, rules) };
    });
  return result;
}

/** The node of `text` among a top-level key's string values (a list or one string). */
function stringNode(yaml: YamlSyntax, key: string, text: string): Node | undefined {
  const valueNode = mapEntries(yaml.doc.contents).find((entry) => entry.key === key)?.value;
  if (isSeq(valueNode)) return (valueNode.items as Node[]).find((item) => (item as { value?: unknown }).value === text);
  return valueNode ?? undefined;
}
