import { isAlias, isCollection, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan } from '../../parse/yaml/yamlNodes';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { Profile } from '../../platforms/profiles';
import { defineRule } from '../engine/rule';
import { blockCollectionFix } from '../edits/yamlFixes';

// `strict`: the verdict of the Agent Skills reference validator (the Python `skills-ref`), for authors who publish
// to every client. It reads the frontmatter with strictyaml (no flow collections, anchors, aliases or tags), accepts
// only the specification's keys, a description with text, and a file that starts with `---` (no byte-order mark).

export const restrictedYaml = defineRule({
  code: 'restricted_yaml',
  category: 'strict',
  severity: 'error',
  summary: 'YAML the reference validator does not read: a flow collection, an anchor or alias, or a tag.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: (item, { text, frontmatter }) => blockCollectionFix(text, frontmatter, item),
});

/** The keys the reference validator accepts. */
const SPEC_KEYS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

/** The profile as the reference validator reads: the specification's keys only, `name` required, 1,024 characters. */
export function strictProfile(profile: Profile): Profile {
  return {
    ...profile,
    knownKeys: SPEC_KEYS,
    // It rejects every other key, a client's or not.
    clientKeys: 'unknown',
    consumer: 'the reference validator',
    missingName: 'error',
    longDescription: 'rejected',
  };
}

/**
 * The YAML of the frontmatter that strictyaml refuses: a flow collection
 * (`[a, b]`, `{a: b}`), an anchor, an alias or an explicit tag (a list in
 * brackets has a fix: the same list as a block list, fixes/yamlFixes.ts).
 */
export function checkRestrictedYaml(file: string, yaml: YamlSyntax): Diagnostic[] {
  // A frontmatter of plain `key: value` lines has none of these.
  if (yaml.plain) return [];
  const diagnostics: Diagnostic[] = [];
  const report = (node: Node, what: string) => {
    const span = nodeSpan(yaml, node);
    if (span)
      diagnostics.push(
        diagnostic(
          restrictedYaml,
          file,
          span,
          `${what}: the reference validator reads the frontmatter as restricted YAML and rejects it.`,
        ),
      );
  };
  const walk = (node: unknown): void => {
    if (isAlias(node)) return report(node, `An alias (\`*${node.source}\`)`);
    if (!isScalar(node) && !isCollection(node)) return;
    if (node.anchor) report(node, `An anchor (\`&${node.anchor}\`)`);
    if (node.tag && node.tag !== 'tag:yaml.org,2002:map' && node.tag !== 'tag:yaml.org,2002:seq')
      report(node, `A tag (\`${node.tag.replace(/^tag:yaml\.org,2002:/, '!!')}\`)`);
    if (isSeq(node) && node.flow) report(node, 'A list in brackets');
    else if (isMap(node) && node.flow) report(node, 'A map in braces');
    if (isMap(node)) for (const pair of node.items) walk(pair.value);
    else if (isSeq(node)) for (const item of node.items) walk(item);
  };
  walk(yaml.doc.contents);
  return diagnostics;
}
