import { isMap, isPair, isSeq, type Node, type Pair } from 'yaml';
import type { Diagnostic } from '../engine/diagnostic';
import type { Span } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan } from '../../parse/yaml/yamlNodes';
import { fixOf, textChange, type Fix } from '../engine/fix';

/** The whitespace a line starts with, for the line holding `offset`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/**
 * `key: a: b` — a plain value YAML cannot read: quoted (the value it was
 * meant to be, safe), or as a folded block scalar (the same value, for
 * authors who prefer it).
 */
export function quoteValueFixes(text: string, item: Diagnostic): Fix[] {
  const { value, valueStart, valueEnd, key } = (item.data ?? {}) as {
    value?: string;
    valueStart?: number;
    valueEnd?: number;
    key?: string;
  };
  if (typeof value !== 'string' || typeof valueStart !== 'number' || typeof valueEnd !== 'number') return [];
  const indent = indentAt(text, valueStart);
  return [
    fixOf(item, `Quote the value of "${key}"`, 'safe', [
      textChange(item.file, valueStart, valueEnd, JSON.stringify(value)),
    ]),
    fixOf(item, `Make "${key}" a folded block scalar`, 'safe', [
      textChange(item.file, valueStart, valueEnd, `>-\n${indent}  ${value}`),
    ]),
  ].map((fix, index) => ({ ...fix, preferred: index === 0 }));
}

/** A value written as text but read as a list or map (`argument-hint: [file]`): the same text, quoted. */
export function quoteWrittenFix(item: Diagnostic): Fix[] {
  const quoted = item.data?.quoted;
  if (typeof quoted !== 'string') return [];
  return [fixOf(item, `Quote it: ${quoted}`, 'safe', [textChange(item.file, item.span.start, item.span.end, quoted)])];
}

/** The node of `yaml` whose span is `span`, and the collections it is in, searched through maps and lists. */
function nodeWithSpan(yaml: YamlSyntax, span: Span): { node: Node; within: Node[] } | undefined {
  const visit = (node: unknown, within: Node[]): { node: Node; within: Node[] } | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const own = nodeSpan(yaml, node as Node);
    if (own && own.start === span.start && own.end === span.end) return { node: node as Node, within };
    const items = (node as { items?: unknown[] }).items ?? [];
    for (const item of items) {
      const child = isPair(item) ? item.value : item;
      const found = visit(child, [...within, node as Node]);
      if (found) return found;
    }
    return undefined;
  };
  return visit(yaml.doc.contents, []);
}

/**
 * `key: [a, b]` → a block list, `key: {a: 1}` → a block map, as strictyaml
 * reads them: each entry keeps the text it was written with (a flow entry's
 * text is valid in a block collection). Only for a non-empty collection
 * that is the value of a key of a block map, whose entries are each on one
 * line, with no comment among them (it would be lost).
 */
export function blockCollectionFix(text: string, yaml: YamlSyntax | undefined, item: Diagnostic): Fix[] {
  const found = yaml ? nodeWithSpan(yaml, item.span) : undefined;
  const node = found?.node;
  if (!yaml || !found || !(isSeq(node) || isMap(node)) || !node.flow || node.items.length === 0) return [];
  // Inside a collection in brackets or braces no block collection can go.
  if (found.within.some((outer) => (outer as { flow?: boolean }).flow)) return [];
  const written = (entry: unknown) => {
    const span = nodeSpan(yaml, entry as Node);
    return span ? text.slice(span.start, span.end) : undefined;
  };
  const entries = isSeq(node)
    ? (node.items as Node[]).map((entry) => {
        const value = written(entry);
        return value === undefined ? undefined : `- ${value}`;
      })
    : (node.items as Pair[]).map((pair) => {
        const key = written(pair.key);
        const value = pair.value === null ? '' : written(pair.value);
        return key === undefined || value === undefined ? undefined : `${key}:${value === '' ? '' : ` ${value}`}`;
      });
  if (entries.some((entry) => entry === undefined || entry.includes('\n'))) return [];
  // What is written between the entries (brackets, commas, blanks) must hold no comment: it would be lost.
  const spans = (
    isSeq(node) ? (node.items as Node[]) : (node.items as Pair[]).flatMap((pair) => [pair.key, pair.value])
  )
    .map((entry) => nodeSpan(yaml, entry as Node))
    .filter((span): span is Span => span !== undefined)
    .sort((a, b) => a.start - b.start);
  let between = '';
  let at = item.span.start;
  for (const span of spans) {
    between += text.slice(at, span.start);
    at = Math.max(at, span.end);
  }
  if ((between + text.slice(at, item.span.end)).includes('#')) return [];
  const lineStart = text.lastIndexOf('\n', item.span.start - 1) + 1;
  const before = text.slice(lineStart, item.span.start);
  // A key of a block map alone on the line before the collection.
  const key = /^([ \t]*)[^\s#{}[\],-][^#{}[\],]*:[ \t]*$/.exec(before);
  if (!key) return [];
  const pad = `${key[1]}  `;
  const keyEnd = lineStart + before.trimEnd().length;
  return [
    fixOf(item, `Write the ${isSeq(node) ? 'list' : 'map'} as a block ${isSeq(node) ? 'list' : 'map'}`, 'safe', [
      textChange(item.file, keyEnd, item.span.end, entries.map((entry) => `\n${pad}${entry}`).join('')),
    ]),
  ];
}

/** Removes one entry of a YAML list: from a flow list with its comma, or a block list item with its line. */
export function removeListEntry(text: string, file: string, span: Span) {
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  const before = text.slice(lineStart, span.start);
  if (/^\s*-\s*$/.test(before)) {
    const lineEnd = text.indexOf('\n', span.end);
    return textChange(file, lineStart, lineEnd === -1 ? text.length : lineEnd + 1, '');
  }
  const after = /^\s*,\s*/.exec(text.slice(span.end));
  if (after) return textChange(file, span.start, span.end + after[0].length, '');
  const comma = /,\s*$/.exec(text.slice(lineStart, span.start));
  return textChange(file, comma ? lineStart + comma.index : span.start, span.end, '');
}
