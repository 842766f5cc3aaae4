import type { Span } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan } from '../../parse/yaml/yamlNodes';
import { closestName } from './nameDistance';

/**
 * The keys of a YAML map that are not among `known` but one or two letters off one of them: typos a client ignores
 * silently. A key far from every known one is left alone (a newer client may read it).
 */
export function misspeltKeys(
  yaml: YamlSyntax,
  map: unknown,
  known: readonly string[],
): { key: string; meant: string; span: Span }[] {
  return mapEntries(map).flatMap((entry) => {
    const meant = known.includes(entry.key) ? undefined : closestName(entry.key, known);
    const span = nodeSpan(yaml, entry.keyNode);
    return meant && span ? [{ key: entry.key, meant, span }] : [];
  });
}
