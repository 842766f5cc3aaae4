import { isMap, type Node } from 'yaml';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Span } from '../../../parse/text/lineIndex';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf, scalarString, valueOf } from '../../../parse/yaml/yamlNodes';
import { defineRule } from '../../../checks/engine/rule';

export const invalidAipMetadata = defineRule({
  code: 'invalid_aip_metadata',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip` is not a map.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const missingAipSpec = defineRule({
  code: 'missing_aip_spec',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip.spec` is missing.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const invalidAipSpec = defineRule({
  code: 'invalid_aip_spec',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip.spec` is not a URL.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const aipSpecMismatch = defineRule({
  code: 'aip_spec_mismatch',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip.spec` and `schemaId` name different AIP versions.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const missingAipSchemaId = defineRule({
  code: 'missing_aip_schema_id',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip.schemaId` is missing.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export const invalidAipSchemaId = defineRule({
  code: 'invalid_aip_schema_id',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip.schemaId` is not a URL.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

export interface AipMetadata {
  spec?: string;
  schemaId?: string;
  /** Where package-level errors about `schemaId` go. */
  schemaIdSpan: Span;
}

/**
 * The AIP 0.3 release Skillgraph writes (`compile --aip-version 0.3`, the quick fix of an AIP-like skill): its spec
 * and the `$id` of its procedure schema, as `metadata.aip` names them.
 */
export const AIP_03_SPEC = 'https://github.com/zach-blumenfeld/aip/tree/v0.3a3';
export const AIP_03_SCHEMA_ID =
  'https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json';

/** The AIP version a spec URL or schema id names (`v0.3a3`), if any. */
export function versionIn(url: string): string | undefined {
  return /(?:^|\/)v(\d+\.\d+(?:[a-z]+\d+)?)(?=\/|$)/.exec(url)?.[1];
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\S+$/i;

/** Checks `metadata.aip` of an AIP 0.3 frontmatter (the upstream validator's metadata kinds). */
export function checkAipMetadata(file: string, yaml: YamlSyntax, anchor: Span, out: Diagnostic[]): AipMetadata {
  const sound = soundPlainMetadata(yaml);
  if (sound) {
    // Nothing to report: the nodes (a parse of the frontmatter by `yaml`) are made only if a package rule needs the
    // span.
    let span: Span | undefined;
    return {
      ...sound,
      get schemaIdSpan() {
        return (span ??= aipNodes(yaml, anchor).schemaIdSpan);
      },
    };
  }
  const { aip, aipKeySpan, schemaIdSpan } = aipNodes(yaml, anchor);
  if (!isMap(aip)) {
    out.push(
      diagnostic(
        invalidAipMetadata,
        file,
        nodeSpan(yaml, aip) ?? aipKeySpan,
        '`metadata.aip` must be a map with `spec` and `schemaId`.',
      ),
    );
    return { schemaIdSpan: aipKeySpan };
  }
  const spec = readUrl(file, yaml, aip, 'spec', aipKeySpan, missingAipSpec, invalidAipSpec, out);
  const schemaId = readUrl(file, yaml, aip, 'schemaId', aipKeySpan, missingAipSchemaId, invalidAipSchemaId, out);
  if (spec && schemaId && !sameVersion(spec, schemaId)) {
    out.push(
      diagnostic(
        aipSpecMismatch,
        file,
        schemaIdSpan,
        `\`spec\` names AIP ${versionIn(spec)} but \`schemaId\` names ${versionIn(schemaId)}; both must name the same version.`,
      ),
    );
  }
  return { spec, schemaId, schemaIdSpan };
}

/** Where `metadata.aip` and its `schemaId` are in the frontmatter. */
function aipNodes(
  yaml: YamlSyntax,
  anchor: Span,
): { aip: Node | null | undefined; aipKeySpan: Span; schemaIdSpan: Span } {
  const metadataPair = pairOf(yaml.doc.contents, 'metadata');
  const aipPair = pairOf(metadataPair?.value, 'aip');
  const aip = aipPair?.value as Node | null | undefined;
  const aipKeySpan = nodeSpan(yaml, aipPair?.key) ?? anchor;
  return { aip, aipKeySpan, schemaIdSpan: (isMap(aip) && nodeSpan(yaml, valueOf(aip, 'schemaId'))) || aipKeySpan };
}

/**
 * `spec` and `schemaId` of a frontmatter read as plain lines (its value is
 * then exactly what its nodes hold), when checking its nodes would find
 * nothing wrong; undefined when it would, or the reading was not plain.
 */
function soundPlainMetadata(yaml: YamlSyntax): { spec: string; schemaId: string } | undefined {
  if (!yaml.plain) return undefined;
  const aip = fieldOf(fieldOf(yaml.value, 'metadata'), 'aip');
  const spec = fieldOf(aip, 'spec');
  const schemaId = fieldOf(aip, 'schemaId');
  if (
    typeof spec !== 'string' ||
    typeof schemaId !== 'string' ||
    !URL_LIKE.test(spec) ||
    !URL_LIKE.test(schemaId) ||
    !sameVersion(spec, schemaId)
  )
    return undefined;
  return { spec, schemaId };
}

function fieldOf(map: unknown, key: string): unknown {
  return map !== null && typeof map === 'object' && Object.hasOwn(map, key)
    ? (map as Record<string, unknown>)[key]
    : undefined;
}

/** False only when both name a version and the versions differ. */
function sameVersion(spec: string, schemaId: string): boolean {
  const specVersion = versionIn(spec);
  const schemaVersion = versionIn(schemaId);
  return !specVersion || !schemaVersion || specVersion === schemaVersion;
}

function readUrl(
  file: string,
  yaml: YamlSyntax,
  aip: Node,
  key: string,
  aipKeySpan: Span,
  missingRule: typeof missingAipSpec | typeof missingAipSchemaId,
  invalidRule: typeof invalidAipSpec | typeof invalidAipSchemaId,
  out: Diagnostic[],
): string | undefined {
  const node = valueOf(aip, key);
  const value = scalarString(node);
  if (node === undefined || value?.trim() === '') {
    out.push(
      diagnostic(
        missingRule,
        file,
        nodeSpan(yaml, node) ?? aipKeySpan,
        `\`metadata.aip.${key}\` is missing: name the AIP ${key === 'spec' ? 'specification URL' : 'procedure schema URL'}.`,
      ),
    );
    return undefined;
  }
  if (value === undefined || !URL_LIKE.test(value)) {
    out.push(
      diagnostic(
        invalidRule,
        file,
        nodeSpan(yaml, node)!,
        `\`metadata.aip.${key}\` must be a URL${value === undefined ? '' : ` (it holds "${value}")`}.`,
      ),
    );
    return undefined;
  }
  return value;
}
