import type { CollectionTag, ScalarTag, Schema } from 'yaml';

/**
 * What the two readers that spare `yaml`'s parser (readPlainMapping,
 * readBlockYaml) read alike: how a scalar's first character, a one-line
 * quote and the schema's tags decide what a value is.
 */

/**
 * Characters that cannot start a plain scalar: a plain value starting with one is something else in YAML (a sequence,
 * flow collection, comment, alias, tag, block scalar, quote, …).
 */
export const PLAIN_START_INDICATORS = String.raw`\-?:,[\]{}#&*!|>'"%@` + '`';

/**
 * The text of a value quoted on one line with no escape and no inner quote of its kind; undefined for anything else.
 */
export function simpleQuoted(text: string): string | undefined {
  const quote = text[0];
  if (quote !== '"' && quote !== "'") return undefined;
  const inner = text.slice(1, -1);
  if (
    text.length < 2 ||
    text[text.length - 1] !== quote ||
    inner.includes(quote) ||
    (quote === '"' && inner.includes('\\'))
  )
    return undefined;
  return inner;
}

/**
 * The tag that types the plain scalar `text` in `schema`, as `yaml` picks it (a key also by the tags that type keys, as
 * YAML 1.1's merge key); undefined for a string.
 */
export function plainScalarTag(schema: Schema, text: string, atKey = false): ScalarTag | undefined {
  return schema.tags.find(
    (candidate): candidate is ScalarTag =>
      isScalarTag(candidate) &&
      (candidate.default === true || (atKey && candidate.default === 'key')) &&
      candidate.test?.test(text) === true,
  );
}

function isScalarTag(tag: ScalarTag | CollectionTag): tag is ScalarTag {
  return !('collection' in tag) || tag.collection === undefined;
}
