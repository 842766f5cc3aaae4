import type { Node } from 'yaml';
import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { defineRule } from '../../checks/engine/rule';
import { suggestionFix } from '../../checks/engine/suggestionFix';
import type { Fix, FixSource } from '../../checks/engine/fix';
import { closestName } from '../../checks/match/nameDistance';
import { CLIENT_KEYS, type KeyReader, type Profile } from '../../platforms/profiles';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, topKeys } from '../../parse/yaml/yamlNodes';
import { moveToMetadataFix } from './metadataFix';
import { listed } from '../../checks/engine/wording';

// The top-level keys of a frontmatter its consumer does not read. One finding per fact: the keys no client reads, all
// in one finding; a key one letter off a known one, a typo, in its own (its fix is the known key); the keys only some
// clients read, in one note where the consumer is every client.

export const unknownFrontmatterKey = defineRule({
  code: 'unknown_frontmatter_key',
  category: 'frontmatter',
  severity: 'warning',
  summary: 'Frontmatter keys the targeted client does not know.',
  stability: 'stable',
  formats: 'all',
  fixable: 'unsafe',
  fix: unknownKeyFixes,
  profiles: { 'claude-code': 'information', 'claude-api': 'error' },
  strict: 'error',
});

export const clientFrontmatterKey = defineRule({
  code: 'client_frontmatter_key',
  category: 'frontmatter',
  severity: 'information',
  summary: "Frontmatter keys only some clients read (Claude Code's `model`); the others ignore them.",
  stability: 'stable',
  formats: 'all',
});

export interface FrontmatterKeysContext {
  file: string;
  yaml: YamlSyntax;
  profile: Profile;
}

interface Entry {
  key: string;
  keyNode: Node;
}

export function checkFrontmatterKeys({ file, yaml, profile }: FrontmatterKeysContext): Diagnostic[] {
  // When every key is known there is nothing to point at, and a plain reading's nodes are not built.
  if (topKeys(yaml).every((key) => profile.knownKeys.has(key))) return [];
  const diagnostics: Diagnostic[] = [];
  const unknown: Entry[] = [];
  const clients: { entry: Entry; readers: readonly KeyReader[] }[] = [];
  const seen = new Set<string>();
  for (const entry of mapEntries(yaml.doc.contents)) {
    // A key set twice is one key (duplicate_key reports the second).
    if (profile.knownKeys.has(entry.key) || seen.has(entry.key)) continue;
    seen.add(entry.key);
    const readers = profile.clientKeys === 'noted' ? CLIENT_KEYS.get(entry.key) : undefined;
    if (readers) {
      clients.push({ entry, readers });
      continue;
    }
    const suggestion = closestName(entry.key, profile.knownKeys);
    if (!suggestion) {
      unknown.push(entry);
      continue;
    }
    diagnostics.push(
      diagnostic(
        unknownFrontmatterKey,
        file,
        nodeSpan(yaml, entry.keyNode)!,
        `Unknown frontmatter key \`${entry.key}\` for ${profile.consumer}. Did you mean \`${suggestion}\`? Known keys: ${[...profile.knownKeys].join(', ')}.`,
        { key: entry.key, suggestion },
      ),
    );
  }
  // At the first of them, where the first of the findings it replaces (one per key) was: a baseline still accepts it.
  if (unknown.length > 0) {
    const keys = unknown.map((entry) => entry.key);
    diagnostics.push(
      diagnostic(
        unknownFrontmatterKey,
        file,
        nodeSpan(yaml, unknown[0].keyNode)!,
        `Unknown frontmatter ${keys.length === 1 ? 'key' : 'keys'} ${listed(keys.map((key) => `\`${key}\``))} for ${profile.consumer}. Known keys: ${[...profile.knownKeys].join(', ')}.`,
        { key: keys[0], keys },
      ),
    );
  }
  if (clients.length > 0)
    diagnostics.push(
      diagnostic(clientFrontmatterKey, file, nodeSpan(yaml, clients[0].entry.keyNode)!, clientKeysMessage(clients), {
        keys: clients.map(({ entry }) => entry.key),
      }),
    );
  return diagnostics;
}

/** Keys grouped by the clients that read them: `model` (Claude Code); `argument-hint` (Claude Code, VS Code). */
function clientKeysMessage(clients: { entry: Entry; readers: readonly KeyReader[] }[]): string {
  const groups = new Map<string, { readers: readonly KeyReader[]; keys: string[] }>();
  for (const { entry, readers } of clients) {
    const names = readers.map((reader) => reader.client).join(', ');
    const group = groups.get(names) ?? groups.set(names, { readers, keys: [] }).get(names)!;
    group.keys.push(`\`${entry.key}\``);
  }
  const [keys, them] = clients.length === 1 ? ['A key', 'it'] : ['Keys', 'them'];
  const [only] = groups.values();
  if (groups.size === 1 && only.readers.length === 1) {
    const [{ client, profile }] = only.readers;
    const check = profile ? `; to check the skill as ${client} reads it, use the \`${profile}\` profile` : '';
    return `${keys} only ${client} reads: ${only.keys.join(', ')}. Other clients ignore ${them}${check}.`;
  }
  const parts = [...groups].map(([names, group]) => `${group.keys.join(', ')} (${names})`);
  return `${keys} only some clients read: ${parts.join('; ')}. Other clients ignore ${them}; to check the skill as one of these clients reads it, use its profile.`;
}

/** A key a letter off a known one, renamed; the keys no client reads, moved under `metadata` (where any key may go). */
function unknownKeyFixes(item: Diagnostic, { text, frontmatter }: FixSource): Fix[] {
  const renamed = suggestionFix(item, { text });
  const keys = item.data?.keys ?? [item.data?.key];
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) return renamed;
  return [...renamed, ...moveToMetadataFix(text, frontmatter, item, keys, renamed.length === 0)];
}
