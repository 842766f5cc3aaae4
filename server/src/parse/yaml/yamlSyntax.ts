import { isMap, isScalar, isSeq, type Document } from 'yaml';
import type { Span } from '../text/lineIndex';
import { flatText, textRegion, type TextLike } from '../text/textLike';
import type { YamlChunkCache } from './yamlChunkCache';
import { parseChunked } from './yamlChunks';
import { parseYamlDocument } from './blockYaml';
import { readPlainMapping } from './plainMapping';
import { schemaOf, type YamlDialect } from './yamlDialects';

// Parsing a YAML region (frontmatter or fenced block) into its syntax: the document, its plain value and its problems,
// whole or chunk by chunk. Reading the parsed nodes is in yamlNodes.

export type { YamlDialect } from './yamlDialects';

export interface YamlProblem {
  /** `alias-limit`: aliases expand past the safe limit; `syntax`: anything else the reader refuses. */
  kind: 'syntax' | 'alias-limit';
  message: string;
  span: Span;
}

/**
 * A YAML region of a file (frontmatter or fenced block). Node ranges from the
 * `yaml` package are relative to the region; `span()` shifts them into file
 * offsets, in this one place.
 */
export interface YamlSyntax {
  doc: Document.Parsed;
  /** File offset where the region starts. */
  base: number;
  /** The plain JavaScript value, or undefined when it could not be built. */
  value: unknown;
  problems: YamlProblem[];
  /**
   * Set when the region was read as plain `key: value` lines (readPlainMapping):
   * it parses without problems, its keys are unique strings, and `doc` is
   * built by `yaml` only when something asks for a node.
   */
  plain?: true;
}

/** Aliases are expanded only this many times: a "billion laughs" document stops here. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses a YAML region. With a `cache` (the language server keeps one per
 * open document), a large region is parsed chunk by chunk and unchanged
 * chunks are reused; the result is the same as a whole parse. A frontmatter
 * of plain `key: value` lines is read without `yaml` (readPlainMapping), its
 * nodes parsed only if asked for. With a `cache`, a region whose text is the
 * same as last time is not parsed again.
 */
export function parseYamlRegion(
  fileText: TextLike,
  region: Span,
  cache?: YamlChunkCache,
  dialect: YamlDialect = 'strict',
): YamlSyntax {
  const source = textRegion(fileText, region.start, region.end);
  const chunks = cache?.region(dialect);
  const chunked = chunks ? parseChunked(source, chunks) : undefined;
  if (chunked) return { doc: chunked.doc, base: region.start, value: chunked.value, problems: chunked.problems };
  const parsed = chunks
    ? chunks.whole(source, () => parseWhole(flatText(source), dialect))
    : parseWhole(flatText(source), dialect);
  return new PlacedParse(parsed, region.start);
}

/** A whole parse placed where its region now sits; the nodes of a plain reading are built on first use. */
class PlacedParse implements YamlSyntax {
  readonly value: unknown;
  readonly problems: YamlProblem[];
  readonly plain?: true;

  constructor(
    private readonly parsed: WholeParse,
    readonly base: number,
  ) {
    this.value = parsed.value;
    this.problems = parsed.problems.map((problem) => ({
      ...problem,
      span: { start: base + problem.span.start, end: base + problem.span.end },
    }));
    if (parsed.plain) this.plain = true;
  }

  get doc(): Document.Parsed {
    return this.parsed.doc();
  }
}

/**
 * A region parsed whole, its problems' spans relative to the region: the
 * same text parses the same wherever it sits, so the language server reuses
 * it while the region's text is unchanged (an edit elsewhere in the file).
 */
export interface WholeParse {
  doc: () => Document.Parsed;
  value: unknown;
  problems: YamlProblem[];
  plain?: true;
}

function parseWhole(source: string, dialect: YamlDialect): WholeParse {
  const plain = dialect === 'strict' ? undefined : readPlainMapping(source, schemaOf(dialect));
  if (plain) {
    let doc: Document.Parsed | undefined;
    return { doc: () => (doc ??= parseYamlDocument(source, dialect)), value: plain, problems: [], plain: true };
  }
  const doc = parseYamlDocument(source, dialect);
  const problems: YamlProblem[] = [];
  for (const error of doc.errors) {
    const [start, end] = error.pos;
    problems.push({
      kind: 'syntax',
      message: firstLine(error.message),
      span: { start, end: Math.max(end, start) },
    });
  }
  let value: unknown;
  if (doc.errors.length === 0) {
    try {
      value = documentValue(doc);
    } catch (error) {
      problems.push({
        kind: 'alias-limit',
        message: `YAML aliases expand too much (${firstLine(String((error as Error).message))}); this looks like an alias bomb and is not read further.`,
        span: { start: 0, end: firstLineLength(source) },
      });
    }
  }
  return { doc: () => doc, value, problems };
}

const NOT_PLAIN = Symbol('not plain');

/** `doc.toJS()` of a document without errors, read by `plainJS` where it can; throws past the alias limit. */
export function documentValue(doc: Document.Parsed): unknown {
  const plain = plainJS(doc.contents);
  return plain === NOT_PLAIN ? doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) : plain;
}

/**
 * What `toJS` makes of the documents skills hold (maps with string keys,
 * lists, scalars; no anchor, alias, tag, merge key or `__proto__`), without
 * its context, anchor bookkeeping and per-node calls: a third of the cost of
 * getting a procedure's value. NOT_PLAIN for anything else, which `toJS`
 * then reads. A test holds the two to the same value.
 */
function plainJS(node: unknown): unknown {
  if (node === null) return null;
  if (isScalar(node)) {
    const { value } = node;
    return node.anchor === undefined && (value === null || (typeof value !== 'object' && typeof value !== 'bigint'))
      ? value
      : NOT_PLAIN;
  }
  if (isMap(node)) {
    if (node.tag !== undefined || node.anchor !== undefined) return NOT_PLAIN;
    const object: Record<string, unknown> = {};
    for (const { key, value } of node.items) {
      if (
        !isScalar(key) ||
        typeof key.value !== 'string' ||
        key.anchor !== undefined ||
        key.tag !== undefined ||
        key.value === '__proto__' ||
        key.value === '<<'
      )
        return NOT_PLAIN;
      const item = plainJS(value);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      object[key.value] = item;
    }
    return object;
  }
  if (isSeq(node)) {
    if (node.tag !== undefined || node.anchor !== undefined) return NOT_PLAIN;
    const list: unknown[] = [];
    for (const item of node.items) {
      const value = plainJS(item);
      if (value === NOT_PLAIN) return NOT_PLAIN;
      list.push(value);
    }
    return list;
  }
  return NOT_PLAIN;
}

function firstLine(message: string): string {
  return message.split('\n')[0].trim();
}

function firstLineLength(text: string): number {
  const newline = text.indexOf('\n');
  return newline === -1 ? text.length : newline;
}
