import type { FormatId } from '../model/skillModel';
import { qualifiedName, type Library, type LibrarySkill } from './libraryModel';
import type { SkillProcedure } from './skillProcedure';
import type { SkillScript } from './skillScripts';

// The library as a property graph: the one shape every export writes (JSON, Cypher, CSV for a bulk import, GraphML)
// and the governance queries read, so an answer from a graph database and one from `skillgraph query` come from the
// same nodes and relationships.

export type PropertyType = 'string' | 'boolean' | 'integer' | 'string[]';
export type PropertyValue = string | boolean | number | string[];

/** Each label, its key property (unique: Neo4j's constraint, Kùzu's primary key) and its properties' types. */
export const NODE_LABELS = {
  Skill: {
    key: 'file',
    properties: {
      file: 'string',
      name: 'string',
      scope: 'string',
      description: 'string',
      format: 'string',
      purpose: 'string',
      trigger_when: 'string[]',
      do_not_use_when: 'string[]',
      anti_patterns: 'string[]',
      scope_and_approval: 'string',
    },
  },
  Step: {
    key: 'id',
    properties: {
      id: 'string',
      skill: 'string',
      name: 'string',
      kind: 'string',
      description: 'string',
      irreversible: 'boolean',
      gate: 'boolean',
      inputs: 'string[]',
      outputs: 'string[]',
    },
  },
  Script: { key: 'hash', properties: { hash: 'string', size: 'integer' } },
} as const satisfies Record<string, { key: string; properties: Record<string, PropertyType> }>;

/** Each relationship type, the labels it joins and its properties' types. */
export const RELATIONSHIP_TYPES = {
  INVOKES: { from: 'Skill', to: 'Skill', properties: { how: 'string' } },
  LINKS_TO: { from: 'Skill', to: 'Skill', properties: {} },
  COMPOSES: { from: 'Skill', to: 'Skill', properties: { step: 'string' } },
  HAS_STEP: { from: 'Skill', to: 'Step', properties: {} },
  NEXT: { from: 'Step', to: 'Step', properties: { via: 'string' } },
  FEEDS: { from: 'Step', to: 'Step', properties: { value: 'string', type: 'string' } },
  RUNS: { from: 'Step', to: 'Script', properties: { path: 'string' } },
  HAS_SCRIPT: { from: 'Skill', to: 'Script', properties: { path: 'string' } },
} as const satisfies Record<string, { from: NodeLabel; to: NodeLabel; properties: Record<string, PropertyType> }>;

export type NodeLabel = keyof typeof NODE_LABELS;
export type RelationshipType = keyof typeof RELATIONSHIP_TYPES;

export interface GraphNode {
  label: NodeLabel;
  /** The value of its label's key property. */
  key: string;
  properties: Record<string, PropertyValue>;
}

export interface GraphRelationship {
  type: RelationshipType;
  /** The keys of the nodes it joins. */
  from: string;
  to: string;
  properties: Record<string, PropertyValue>;
}

export interface LibraryGraph {
  nodes: GraphNode[];
  relationships: GraphRelationship[];
}

/** What is known of each skill beyond its SKILL.md's head: its procedure, and the scripts it holds. */
export interface SkillDetails {
  /** Its format, when it was analysed. */
  format?: FormatId;
  procedure?: SkillProcedure;
  scripts: SkillScript[];
}

/**
 * The graph of a library. `shown` turns an absolute path into the one written (relative to where the command ran):
 * a skill's key is its SKILL.md as shown, a step's is that and its id (`path#step`), a script's is its content's hash,
 * so one script copied into two skills is one node.
 */
export function libraryGraph(
  library: Library,
  details: ReadonlyMap<string, SkillDetails>,
  shown: (file: string) => string,
): LibraryGraph {
  // One node per key, as MERGE keeps one: two steps a procedure names alike (a finding of its own) are one node,
  // with the properties of the last, as each MERGE's SET leaves them.
  const byKey = new Map<string, GraphNode>();
  const addNode = (node: GraphNode) => byKey.set(node.key, node);
  const relationships: GraphRelationship[] = [];
  const relate = (type: RelationshipType, from: string, to: string, properties: Record<string, PropertyValue> = {}) =>
    relationships.push({ type, from, to, properties });
  // Each file as written once: the same string for every relationship it ends (see dedupe), and path.relative once.
  const written = new Map<string, string>();
  const show = (file: string) => {
    let as = written.get(file);
    if (as === undefined) written.set(file, (as = shown(file)));
    return as;
  };
  const scripts = new Set<string>();
  const script = (found: SkillScript) => {
    if (scripts.has(found.hash)) return;
    scripts.add(found.hash);
    addNode({ label: 'Script', key: found.hash, properties: { hash: found.hash, size: found.size } });
  };
  for (const skill of library.skills) {
    const file = show(skill.file);
    const { format, procedure, scripts: held = [] } = details.get(skill.file) ?? {};
    addNode({ label: 'Skill', key: file, properties: skillProperties(skill, file, format, procedure) });
    for (const found of held) {
      script(found);
      relate('HAS_SCRIPT', file, found.hash, { path: found.path });
    }
    if (!procedure) continue;
    // One key string per step, however many relationships name it: a string's hash is worked out once (dedupe).
    const stepKeys = new Map<string, string>();
    const stepKey = (id: string) => {
      let key = stepKeys.get(id);
      if (key === undefined) stepKeys.set(id, (key = `${file}#${id}`));
      return key;
    };
    for (const step of procedure.steps) {
      addNode({
        label: 'Step',
        key: stepKey(step.id),
        properties: {
          id: stepKey(step.id),
          skill: file,
          name: step.id,
          kind: step.kind,
          description: step.description,
          irreversible: step.irreversible,
          gate: step.gate,
          inputs: step.inputs,
          outputs: step.outputs,
        },
      });
      relate('HAS_STEP', file, stepKey(step.id));
    }
    for (const edge of procedure.next) relate('NEXT', stepKey(edge.from), stepKey(edge.to), { via: edge.via });
    for (const feed of procedure.feeds)
      relate('FEEDS', stepKey(feed.from), stepKey(feed.to), { value: feed.value, type: feed.type });
    const byPath = new Map(held.map((found) => [found.path, found]));
    for (const run of procedure.runs) {
      const found = byPath.get(run.path);
      if (found) relate('RUNS', stepKey(run.step), found.hash, { path: run.path });
    }
    for (const composed of procedure.composes)
      for (const target of library.byName.get(composed.name) ?? [])
        if (target !== skill) relate('COMPOSES', file, show(target.file), { step: composed.step });
  }
  for (const edge of library.edges)
    if (edge.kind === 'link') relate('LINKS_TO', show(edge.from), show(edge.to));
    // A composition is COMPOSES, with its step, from the MetaSkill's procedure.
    else if (edge.kind !== 'compose') relate('INVOKES', show(edge.from), show(edge.to), { how: edge.kind });
  return { nodes: [...byKey.values()], relationships: dedupe(relationships) };
}

function skillProperties(
  skill: LibrarySkill,
  file: string,
  format: FormatId | undefined,
  procedure: SkillProcedure | undefined,
): Record<string, PropertyValue> {
  return {
    file,
    name: qualifiedName(skill),
    scope: skill.scope.kind === 'plugin' ? `plugin:${skill.scope.plugin}` : skill.scope.kind,
    description: skill.description,
    format: format ?? 'agent-skill',
    purpose: procedure?.purpose ?? '',
    trigger_when: procedure?.triggerWhen ?? [],
    do_not_use_when: procedure?.doNotUseWhen ?? [],
    anti_patterns: procedure?.antiPatterns ?? [],
    scope_and_approval: procedure?.scopeAndApproval ?? '',
  };
}

/**
 * One relationship per type, ends and properties: what MERGE keeps in a database, so the graph a query reads here is
 * the one loaded there (a skill naming another twice is one INVOKES).
 */
function dedupe(relationships: GraphRelationship[]): GraphRelationship[] {
  // Looked up by the ends themselves, not by a key joined from them: the ends are long paths, each one string shared by
  // every relationship it is an end of, so each is hashed once, where a joined key would be made and hashed for each.
  const seen = new Map<string, Map<string, Set<string>>>();
  return relationships.filter(({ type, from, to, properties }) => {
    let byEnd = seen.get(from);
    if (!byEnd) seen.set(from, (byEnd = new Map()));
    // Properties are few and written in one order per type; a NUL never occurs in a name or a value.
    const rest = `${type}\0${Object.values(properties).join('\0')}`;
    const known = byEnd.get(to);
    if (!known) {
      byEnd.set(to, new Set([rest]));
      return true;
    }
    if (known.has(rest)) return false;
    known.add(rest);
    return true;
  });
}
