import { isMap, isPair, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Span } from '../text/lineIndex';
import { nodeRange, nodeStart, nodeValueSpan } from './nodeRange';
import type { YamlSyntax } from './yamlSyntax';

// Reading the nodes of a parsed YAML region: values under keys, their file spans, repeated keys, the node at a path
// and the path at an offset.

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
