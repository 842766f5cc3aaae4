/** The AIP type vocabulary's scalar names. */
const SCALARS = new Set(['string', 'integer', 'float', 'boolean', 'object']);

/** Spellings from other languages, mapped to the vocabulary word a quick fix offers. */
const SYNONYMS: Record<string, string> = {
  str: 'string',
  text: 'string',
  int: 'integer',
  number: 'float',
  double: 'float',
  bool: 'boolean',
  dict: 'object',
  map: 'object',
  json: 'object',
  list: 'list[*]',
  array: 'list[*]',
};

function normalize(type: string): string {
  return type.trim().toLowerCase().replace(/\s+/g, '');
}

/** True for `string`, `integer`, `float`, `boolean`, `object`, `list[*]`, `list[<type>]`. */
export function isVocabularyType(type: string): boolean {
  const normalized = normalize(type);
  if (SCALARS.has(normalized) || normalized === 'list[*]') return true;
  const inner = /^list\[(.+)\]$/.exec(normalized);
  return inner !== null && isVocabularyType(inner[1]);
}

/** The vocabulary word a non-vocabulary type most likely means. */
export function suggestType(type: string): string | undefined {
  const normalized = normalize(type);
  const inner = /^(?:list|array)\[(.+)\]$/.exec(normalized) ?? /^list<(.+)>$/.exec(normalized);
  if (inner) {
    const element = isVocabularyType(inner[1]) ? inner[1] : SYNONYMS[inner[1]];
    return element ? `list[${element}]` : undefined;
  }
  return SYNONYMS[normalized];
}

/**
 * Whether a producer's type can flow into a consumer's: equal types,
 * `list[*]` against any list, and an integer where a float is wanted.
 */
export function typesCompatible(producer: string, consumer: string): boolean {
  const from = normalize(producer);
  const to = normalize(consumer);
  if (from === to) return true;
  if (from === 'integer' && to === 'float') return true;
  const isList = (type: string) => type.startsWith('list[');
  if (isList(from) && isList(to) && (from === 'list[*]' || to === 'list[*]')) return true;
  return false;
}

/**
 * A type as AIP 0.5 writes it: a vocabulary word (or the one a synonym means), any list as `list[*]`; undefined when
 * it means nothing in the vocabulary.
 */
export function aip05Type(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  const word = isVocabularyType(type) ? normalize(type) : suggestType(type);
  return word?.startsWith('list[') ? 'list[*]' : word;
}
