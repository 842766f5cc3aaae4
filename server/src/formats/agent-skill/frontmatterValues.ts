import type { Span } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf } from '../../parse/yaml/yamlNodes';

// Reading a frontmatter key where the rules about it point: its value as text, its key's and its value's places.

export function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function keySpan(yaml: YamlSyntax, key: string, fallback: Span): Span {
  return nodeSpan(yaml, pairOf(yaml.doc.contents, key)?.key) ?? fallback;
}

export function valueSpan(yaml: YamlSyntax, key: string): Span | undefined {
  return nodeSpan(yaml, pairOf(yaml.doc.contents, key)?.value);
}
