import { isMap, isScalar, type Pair, type YAMLMap } from 'yaml';
import type { Diagnostic } from '../../checks/engine/diagnostic';
import { lineEndAt } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';
import { fixOf, textChange, type Fix } from '../../checks/engine/fix';

/**
 * A top-level key the specification does not have (`author: Ada`), moved
 * into `metadata`, the map the specification keeps for a client's own
 * keys, as a string. Unsafe: a client that reads the key at the top level
 * (Claude Code's `model`, say) no longer finds it. Only a one-line scalar
 * moves, into a `metadata` written as a block map (or a new one).
 */
export function moveToMetadataFix(
  text: string,
  yaml: YamlSyntax | undefined,
  item: Diagnostic,
  preferred: boolean,
): Fix[] {
  const key = item.data?.key;
  const root = yaml?.doc.contents;
  if (!yaml || typeof key !== 'string' || !isMap(root) || root.flow) return [];
  const pair = (root.items as Pair[]).find((candidate) => isScalar(candidate.key) && candidate.key.value === key);
  const keySpan = nodeSpan(yaml, pair?.key as never);
  const valueSpan = nodeSpan(yaml, pair?.value as never);
  if (!pair || !keySpan || !valueSpan || !isScalar(pair.value)) return [];
  const lineStart = text.lastIndexOf('\n', keySpan.start - 1) + 1;
  const lineEnd = lineEndAt(text, keySpan.start);
  // The key and its value on one line of their own, at the left margin.
  if (lineStart !== keySpan.start || valueSpan.end > lineEnd) return [];
  const written = text.slice(valueSpan.start, valueSpan.end);
  const value = typeof pair.value.value === 'string' ? written : JSON.stringify(String(pair.value.value));
  const nextLine = text.indexOf('\n', lineEnd);
  const removal = textChange(item.file, lineStart, nextLine === -1 ? text.length : nextLine + 1, '');
  const metadata = pairOf(root, 'metadata');
  let insertion;
  if (!metadata) {
    // A new `metadata` map after the last key (before the closing `---`).
    const end = frontmatterEnd(text, yaml);
    insertion = textChange(item.file, end, end, `metadata:\n  ${key}: ${value}\n`);
  } else {
    const map = metadata.value;
    if (!isMap(map) || (map as YAMLMap).flow || pairOf(map, key) || map.items.length === 0) return [];
    const last = map.items[map.items.length - 1] as Pair;
    const firstKey = nodeSpan(yaml, (map.items[0] as Pair).key as never);
    const lastEnd = nodeSpan(yaml, (last.value ?? last.key) as never);
    if (!firstKey || !lastEnd) return [];
    const column = firstKey.start - (text.lastIndexOf('\n', firstKey.start - 1) + 1);
    const at = lineEndAt(text, contentEndBefore(text, lastEnd.end));
    insertion = textChange(item.file, at, at, `\n${' '.repeat(column)}${key}: ${value}`);
  }
  return [fixOf(item, `Move "${key}" under metadata`, 'unsafe', [removal, insertion], { preferred })];
}

/** The offset just after the last non-blank character before `end` (a node's range runs on over blank lines). */
function contentEndBefore(text: string, end: number): number {
  let at = end;
  while (at > 0 && /\s/.test(text[at - 1])) at--;
  return Math.max(0, at - 1);
}

/** Where a new top-level key goes: the start of the line after the frontmatter's last content. */
function frontmatterEnd(text: string, yaml: YamlSyntax): number {
  const end = nodeSpan(yaml, yaml.doc.contents as never)?.end ?? yaml.base;
  const last = contentEndBefore(text, end);
  const newline = text.indexOf('\n', last);
  return newline === -1 ? text.length : newline + 1;
}
