import { isMap, isScalar, type Pair, type YAMLMap } from 'yaml';
import { listed } from '../../checks/engine/wording';
import type { Diagnostic } from '../../checks/engine/diagnostic';
import { lineEndAt } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';
import { fixOf, textChange, type Fix, type TextChange } from '../../checks/engine/fix';

/**
 * Top-level keys the specification does not have (`author: Ada`), moved
 * into `metadata`, the map the specification keeps for a client's own
 * keys, as strings, in one fix. Unsafe: a client that reads a key at the
 * top level (Claude Code's `model`, say) no longer finds it. Only a key
 * written with a one-line scalar on a line of its own moves, into a
 * `metadata` written as a block map (or a new one); the others stay.
 */
export function moveToMetadataFix(
  text: string,
  yaml: YamlSyntax | undefined,
  item: Diagnostic,
  keys: readonly string[],
  preferred: boolean,
): Fix[] {
  const root = yaml?.doc.contents;
  if (!yaml || !isMap(root) || root.flow) return [];
  const metadata = pairOf(root, 'metadata');
  const map = metadata?.value;
  // An existing `metadata` takes keys only as a block map with entries to follow.
  if (metadata && (!isMap(map) || (map as YAMLMap).flow || map.items.length === 0)) return [];
  const moved: { key: string; line: string }[] = [];
  const removals: TextChange[] = [];
  for (const key of keys) {
    if (metadata && pairOf(map, key)) continue;
    const pair = (root.items as Pair[]).find((candidate) => isScalar(candidate.key) && candidate.key.value === key);
    const keySpan = nodeSpan(yaml, pair?.key as never);
    const valueSpan = nodeSpan(yaml, pair?.value as never);
    if (!pair || !keySpan || !valueSpan || !isScalar(pair.value)) continue;
    const lineStart = text.lastIndexOf('\n', keySpan.start - 1) + 1;
    const lineEnd = lineEndAt(text, keySpan.start);
    // The key and its value on one line of their own, at the left margin.
    if (lineStart !== keySpan.start || valueSpan.end > lineEnd) continue;
    const written = text.slice(valueSpan.start, valueSpan.end);
    const value = typeof pair.value.value === 'string' ? written : JSON.stringify(String(pair.value.value));
    const nextLine = text.indexOf('\n', lineEnd);
    removals.push(textChange(item.file, lineStart, nextLine === -1 ? text.length : nextLine + 1, ''));
    moved.push({ key, line: `${key}: ${value}` });
  }
  if (moved.length === 0) return [];
  let insertion;
  if (!metadata) {
    // A new `metadata` map after the last key (before the closing `---`).
    const end = frontmatterEnd(text, yaml);
    insertion = textChange(item.file, end, end, `metadata:\n${moved.map(({ line }) => `  ${line}\n`).join('')}`);
  } else {
    const entries = (map as YAMLMap).items as Pair[];
    const firstKey = nodeSpan(yaml, entries[0].key as never);
    const last = entries[entries.length - 1];
    const lastEnd = nodeSpan(yaml, (last.value ?? last.key) as never);
    if (!firstKey || !lastEnd) return [];
    const column = firstKey.start - (text.lastIndexOf('\n', firstKey.start - 1) + 1);
    const at = lineEndAt(text, contentEndBefore(text, lastEnd.end));
    insertion = textChange(item.file, at, at, moved.map(({ line }) => `\n${' '.repeat(column)}${line}`).join(''));
  }
  return [
    fixOf(item, `Move ${quotedList(moved.map(({ key }) => key))} under metadata`, 'unsafe', [...removals, insertion], {
      preferred,
    }),
  ];
}

/** `"a"`, `"a" and "b"`, `"a", "b" and 3 more`: the keys a fix moves, named in its title. */
function quotedList(keys: string[]): string {
  const quoted = keys.map((key) => `"${key}"`);
  return listed(quoted.length <= 3 ? quoted : [...quoted.slice(0, 2), `${quoted.length - 2} more`]);
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
