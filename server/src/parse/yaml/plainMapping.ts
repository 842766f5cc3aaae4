import { isScalar, type Schema } from 'yaml';
import { PLAIN_START_INDICATORS, plainScalarTag, simpleQuoted } from './plainScalars';

/**
 * The frontmatter nearly every skill has, read without the `yaml` parser:
 * lines of `key: value`, where a key with no value holds the lines below it
 * indented further and alike (`metadata:`, an AIP skill's `metadata.aip:`),
 * to any depth. A `check` of a few hundred skills spends most of its time
 * building `yaml` documents for five-line frontmatters while the parser's
 * code is still cold; this reads them in a fraction of that.
 *
 * It answers only where YAML leaves no doubt and gives up (undefined) on
 * anything else: comments, anchors, tags, flow collections, block scalars,
 * a value that runs onto the next line, a line indented unlike its
 * siblings, a key that repeats, an escape or a quote inside a quoted value,
 * a plain value that could end a key early (`: `, ` #`, a trailing `:`) or
 * starts with an indicator, tabs, CR, trailing spaces, control characters,
 * numbers and dates. Then the caller parses with `yaml` as before. Plain
 * scalars are typed by the schema the caller's `yaml` dialect uses (`true`,
 * `null`, PyYAML's `yes`), and only booleans and nulls are taken; keys must
 * read as strings. A test checks the value against `yaml`'s on every corpus
 * frontmatter and on mutations of them.
 */
export function readPlainMapping(source: string, schema: Schema): Record<string, unknown> | undefined {
  if (DOUBTFUL_CHARACTER.test(source)) return undefined;
  const root: Record<string, unknown> = {};
  // The maps open at this line, innermost last, each with the indentation of its keys.
  const open: { indent: number; map: Record<string, unknown> }[] = [{ indent: 0, map: root }];
  // A key just read with no value: the lines below it, if indented further, are its map; otherwise it holds null.
  let parent: { key: string; map: Record<string, unknown>; indent: number } | undefined;
  let lineStart = 0;
  while (lineStart < source.length) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = source.length;
    const line = source.slice(lineStart, lineEnd);
    lineStart = lineEnd + 1;
    if (line.length === 0) continue;
    const indent = line.length - line.trimStart().length;
    if (parent && indent > parent.indent) {
      const map: Record<string, unknown> = {};
      parent.map[parent.key] = map;
      open.push({ indent, map });
    } else {
      // Back out to the map whose keys sit at this indentation; none there (or deeper than the open map's keys) is not
      // a plain line.
      while (indent < open[open.length - 1].indent) open.pop();
      if (indent !== open[open.length - 1].indent) return undefined;
    }
    parent = undefined;
    const { map } = open[open.length - 1];
    const entry = readEntry(line.slice(indent), schema);
    if (!entry || Object.hasOwn(map, entry.key)) return undefined;
    if (entry.value === PARENT) {
      map[entry.key] = null;
      parent = { key: entry.key, map, indent };
    } else map[entry.key] = entry.value;
  }
  // No line at all is an empty document, which YAML reads as null.
  return Object.keys(root).length > 0 ? root : undefined;
}

/**
 * Characters whose reading depends on rules this reader leaves to `yaml`: tabs, CR, controls, BOM, lone surrogates,
 * comments.
 */
const DOUBTFUL_CHARACTER = /[\0-\x09\x0b-\x1f\x7f-\x9f\ufeff\ud800-\udfff#]/;
const ENTRY = /^([A-Za-z_][A-Za-z0-9_-]{0,127}):(?: +(.*))?$/;
const INDICATOR = new RegExp(`^[${PLAIN_START_INDICATORS}]`);
/** The marker of a key whose value is the indented lines below it, or null when there are none. */
const PARENT = Symbol('parent');

function readEntry(line: string, schema: Schema): { key: string; value: unknown } | undefined {
  const match = ENTRY.exec(line);
  if (!match || plainType(match[1], schema) !== 'string') return undefined;
  const text = match[2];
  if (text === undefined) return { key: match[1], value: PARENT };
  if (text.length === 0 || text !== text.trim()) return undefined;
  if (text[0] === '"' || text[0] === "'") {
    const inner = simpleQuoted(text);
    return inner === undefined ? undefined : { key: match[1], value: inner };
  }
  if (INDICATOR.test(text) || text.includes(': ') || text.endsWith(':')) return undefined;
  const type = plainType(text, schema);
  if (type === undefined) return undefined;
  return { key: match[1], value: type === 'string' ? text : type.value };
}

/**
 * How the schema types a plain scalar: a string, a boolean or null (with its value), or undefined for anything else
 * (numbers, dates, …).
 */
function plainType(text: string, schema: Schema): 'string' | { value: boolean | null } | undefined {
  const tag = plainScalarTag(schema, text);
  if (!tag) return 'string';
  // `yaml`'s boolean and null tags resolve to a Scalar node; what is wanted is the value it holds.
  const resolved = tag.resolve(text, () => undefined, {});
  const value = isScalar(resolved) ? resolved.value : resolved;
  return typeof value === 'boolean' || value === null ? { value } : undefined;
}
