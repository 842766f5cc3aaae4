import {
  parseDocument,
  type DocumentOptions,
  type ParseOptions,
  type ScalarTag,
  type Schema,
  type SchemaOptions,
} from 'yaml';

/**
 * How a region is read. `strict`: YAML 1.2, and a repeated key is a syntax
 * error (what most skill readers do). `frontmatter`: YAML 1.2, repeated keys
 * kept (the last wins) so the caller can say which consumer minds.
 * `pyyaml`: YAML 1.1 as PyYAML reads it (`yes`/`no`/`on`/`off` are booleans,
 * `y`/`n` are not), repeated keys kept.
 */
export type YamlDialect = 'strict' | 'frontmatter' | 'pyyaml';

/** The `yaml` package's options for a parse. */
export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/** PyYAML's booleans: YAML 1.1's without the single letters `y` and `n`, which PyYAML reads as strings. */
const PYYAML_BOOL = {
  true: /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
  false: /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
};

export const DIALECTS: Record<YamlDialect, YamlOptions> = {
  strict: { prettyErrors: false, uniqueKeys: true, strict: true },
  frontmatter: { prettyErrors: false, uniqueKeys: false, strict: true },
  pyyaml: {
    prettyErrors: false,
    uniqueKeys: false,
    strict: true,
    version: '1.1',
    customTags: (tags) =>
      tags.map((tag) => {
        if (
          typeof tag !== 'object' ||
          tag.tag !== 'tag:yaml.org,2002:bool' ||
          !(tag.test instanceof RegExp) ||
          'collection' in tag
        )
          return tag;
        return { ...(tag as ScalarTag), test: tag.test.test('true') ? PYYAML_BOOL.true : PYYAML_BOOL.false };
      }),
  },
};

const schemas = new Map<YamlDialect, Schema>();

/** The schema `yaml` reads a dialect with (its tags type plain scalars), made once. */
export function schemaOf(dialect: YamlDialect): Schema {
  let schema = schemas.get(dialect);
  if (!schema) schemas.set(dialect, (schema = parseDocument('', DIALECTS[dialect]).schema));
  return schema;
}
