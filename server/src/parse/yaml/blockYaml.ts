import { Document, parseDocument } from 'yaml';
import { BlockReader, GIVE_UP } from './blockReader';
import { DIALECTS, schemaOf, type YamlDialect, type YamlOptions } from './yamlDialects';

/**
 * The block YAML an AIP procedure is written in, read into the same
 * `yaml` document `parseDocument` gives (the same nodes, values, ranges,
 * types and blank-line marks), without `yaml`'s lexer, parser and composer:
 * those build a token stream and a syntax tree first, and are most of what
 * checking a workspace of procedures costs. Lines are read once, with their
 * indentation deciding the structure.
 *
 * It reads block maps and sequences, plain values (over several lines
 * too), quoted values on one line, folded and literal block scalars, and
 * flow sequences of plain items. It gives up (undefined) on anything else,
 * for `yaml` to read as before: comments (a `#` in a block scalar is text),
 * tabs, CR, control characters, anchors, tags, aliases, flow maps,
 * directives and document markers, complex keys, keys that are not plain
 * strings, a repeated key, a key without a value, a line indented unlike
 * its siblings, escapes and inner quotes in quoted values, block scalars
 * with an indentation indicator or keep chomping, leading blank lines.
 * A test holds the document to `parseDocument`'s on every corpus region,
 * generated procedures and random edits of them, in every dialect.
 */
export function readBlockYaml(source: string, dialect: YamlDialect): Document.Parsed | undefined {
  const schema = schemaOf(dialect);
  if (schema.compat || DOUBTFUL_CHARACTER.test(source)) return undefined;
  const reader = new BlockReader(source, schema);
  try {
    // The root may be indented: the language server parses a procedure's steps one list item at a time, each at the
    // list's column.
    if (reader.nextContent(0) !== 0) return undefined;
    const indent = reader.indentOf(0);
    const contents = reader.block(0, indent, indent);
    // Only blank lines may follow the root collection.
    if (reader.nextContent(reader.line) !== -1) return undefined;
    const doc = new Document(undefined, documentOptions(dialect)) as unknown as Document.Parsed;
    doc.contents = contents as unknown as Document.Parsed['contents'];
    doc.range = [0, contents.range![2], source.length];
    return doc;
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

const optionsByDialect = new Map<YamlDialect, YamlOptions>();

/**
 * The options of a document read in `dialect`, its schema the dialect's own: a document makes a schema of its options
 * otherwise, and the language server reads a long procedure as a thousand documents, one per step.
 */
function documentOptions(dialect: YamlDialect): YamlOptions {
  let options = optionsByDialect.get(dialect);
  if (!options) optionsByDialect.set(dialect, (options = { ...DIALECTS[dialect], schema: schemaOf(dialect) }));
  return options;
}

/**
 * The document `parseDocument` gives for `source` in `dialect`: read by readBlockYaml where it can, parsed by `yaml`
 * otherwise.
 */
export function parseYamlDocument(source: string, dialect: YamlDialect): Document.Parsed {
  return readBlockYaml(source, dialect) ?? parseDocument(source, DIALECTS[dialect]);
}

/** Tabs, CR, controls, the BOM, lone surrogates and document markers: read by `yaml`. */
const DOUBTFUL_CHARACTER = /[\0-\x09\x0b-\x1f\x7f-\x9f\ufeff\ud800-\udfff]|^(?:---|\.\.\.)/m;
