import { isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Span } from '../text/lineIndex';
import { flatText, textRegion, type TextLike } from '../text/textLike';
import type { YamlChunkCache } from './yamlChunkCache';
import { parseChunked } from './yamlChunks';
import { nodeRange, nodeStart, nodeValueSpan } from './nodeRange';
import { parseYamlDocument } from './blockYaml';
import { readPlainMapping } from './plainMapping';
import { schemaOf, type YamlDialect } from './yamlDialects';

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

/** The file span of a node's value (without trailing comments). */
export function nodeSpan(yaml: YamlSyntax, node: Node | null | undefined): Span | undefined {
  return nodeValueSpan(node, yaml.base);
}

/** Where a node's value starts in the file (`nodeSpan(yaml, node).start`). */
export function nodeStartIn(yaml: YamlSyntax, node: Node | null | undefined): number | undefined {
  const start = nodeStart(node);
  return start === undefined ? undefined : yaml.base + start;
}

/** The map pair whose key is `key`, if any. */
export function pairOf(map: unknown, key: string): Pair<Node, Node | null> | undefined {
  if (!isMap(map)) return undefined;
  let found: Pair<Node, Node | null> | undefined;
  // The last of repeated keys: the one whose value a reader that allows duplicates keeps.
  for (const item of (map as YAMLMap<unknown, unknown>).items) {
    if (isPair(item) && isScalar(item.key) && String(item.key.value) === key) found = item as Pair<Node, Node | null>;
  }
  return found;
}

type Repeated = { key: string; node: Node; first: Node };

/**
 * The repeated keys found under each list item, by its node. The server's
 * chunk cache hands back the same nodes for every step an edit did not
 * touch (see yamlChunks), so a keystroke in a MetaSkill of a hundred steps
 * walks the step it changed, not the whole frontmatter. A node's keys never
 * change once parsed: only its ranges move.
 */
const repeatedInItem = new WeakMap<Node, Repeated[]>();

/**
 * Keys repeated in one mapping, anywhere in the document, each with the
 * earlier key it repeats (the last one wins where duplicates are allowed).
 */
export function repeatedKeys(yaml: YamlSyntax): Repeated[] {
  if (yaml.plain) return [];
  const visit = (node: unknown, into: Repeated[]) => {
    if (isMap(node)) {
      const seen = new Map<string, Node>();
      for (const item of (node as YAMLMap<unknown, unknown>).items) {
        if (isScalar(item.key)) {
          const key = String(item.key.value);
          const first = seen.get(key);
          if (first) into.push({ key, node: item.key as Node, first });
          else seen.set(key, item.key as Node);
        }
        visit(item.value, into);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (!isMap(item)) {
          visit(item, into);
          continue;
        }
        let found = repeatedInItem.get(item);
        if (!found) {
          found = [];
          visit(item, found);
          repeatedInItem.set(item, found);
        }
        for (const repeated of found) into.push(repeated);
      }
    }
  };
  const repeated: Repeated[] = [];
  visit(yaml.doc.contents, repeated);
  return repeated;
}

/** The value node under `key` of a map node. */
export function valueOf(map: unknown, key: string): Node | undefined {
  const value = pairOf(map, key)?.value;
  return value ?? undefined;
}

/** A scalar's value as a string, or undefined for anything that is not a scalar. */
export function scalarString(node: unknown): string | undefined {
  if (!isScalar(node) || node.value === null || node.value === undefined) return undefined;
  return typeof node.value === 'object' ? undefined : String(node.value);
}

/** The items of a sequence node (empty for anything else). */
export function seqItems(node: unknown): Node[] {
  return isSeq(node) ? (node.items as Node[]) : [];
}

/** The key/value pairs of a map node with scalar keys. */
export function mapEntries(node: unknown): { key: string; keyNode: Node; value: Node | null }[] {
  if (!isMap(node)) return [];
  const entries: { key: string; keyNode: Node; value: Node | null }[] = [];
  for (const item of (node as YAMLMap<unknown, unknown>).items) {
    if (isPair(item) && isScalar(item.key)) {
      entries.push({
        key: String(item.key.value),
        keyNode: item.key as Node,
        value: (item.value as Node | null) ?? null,
      });
    }
  }
  return entries;
}

/**
 * The scalar keys of the document's top-level map. A plain reading holds
 * each key once, as its value's keys, so it answers without building the
 * document's nodes.
 */
export function topKeys(yaml: YamlSyntax): string[] {
  if (yaml.plain) return Object.keys(yaml.value as object);
  return mapEntries(yaml.doc.contents).map((entry) => entry.key);
}

/**
 * Walks a JSON-pointer-like path of keys and indexes from the root and
 * returns the deepest node reached, the pair that holds it (for key ranges)
 * and how many segments matched.
 */
export function nodeAtPath(
  yaml: YamlSyntax,
  path: (string | number)[],
): { node: Node | undefined; pair?: Pair<Node, Node | null>; depth: number } {
  let node: Node | undefined = (yaml.doc.contents as Node | null) ?? undefined;
  let pair: Pair<Node, Node | null> | undefined;
  let depth = 0;
  for (const segment of path) {
    if (isMap(node)) {
      const found = pairOf(node, String(segment));
      if (!found) break;
      pair = found;
      node = found.value ?? found.key;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item) break;
      pair = undefined;
      node = item;
    } else {
      break;
    }
    depth++;
  }
  return { node, pair, depth };
}

/** Where an offset falls in a YAML region: the path of keys and indexes, and whether it is on a key. */
export interface YamlLocation {
  path: (string | number)[];
  /** The innermost node containing the offset (a key scalar when `onKey`). */
  node?: Node;
  onKey: boolean;
  /** Every node containing the offset, outermost first (for selection ranges). */
  chain: Node[];
}

/** Finds the path to an offset, descending through maps and sequences. */
export function yamlLocationAt(yaml: YamlSyntax, offset: number): YamlLocation {
  const local = offset - yaml.base;
  const inside = (node: Node | null | undefined): node is Node => {
    const range = nodeRange(node);
    return !!range && range[0] <= local && local <= range[1];
  };
  const location: YamlLocation = { path: [], onKey: false, chain: [] };
  let node = (yaml.doc.contents as Node | null) ?? undefined;
  while (inside(node)) {
    location.chain.push(node);
    location.node = node;
    let next: Node | undefined;
    if (isMap(node)) {
      for (const item of (node as YAMLMap<unknown, unknown>).items) {
        const key = item.key as Node | null;
        const value = item.value as Node | null;
        if (isScalar(key) && inside(key)) {
          location.path.push(String(key.value));
          location.chain.push(key);
          location.node = key;
          location.onKey = true;
          return location;
        }
        if (inside(value) && isScalar(key)) {
          location.path.push(String(key.value));
          next = value!;
          break;
        }
      }
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => inside(item as Node));
      if (index !== -1) {
        location.path.push(index);
        next = node.items[index] as Node;
      }
    }
    if (!next) break;
    node = next;
  }
  return location;
}
