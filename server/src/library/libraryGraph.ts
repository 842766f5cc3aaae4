import { PLAIN_FORMAT, type FormatId } from '../model/skillModel';
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
 * A skill's own part of the graph: everything made from the skill alone, so a large library's parts are made on the
 * threads that read its skills. `file` is its SKILL.md as written (relative to where the command ran): a skill's key,
 * and with a step's id a step's (`path#step`).
 */
export interface SkillGraphPart {
  /** The skill's node, then its steps'. */
  nodes: GraphNode[];
  /** The scripts it holds, each once, keyed by content: a script copied into two skills is one node of the library. */
  scripts: GraphNode[];
  /** Those within the skill: to its steps and scripts, between its steps, from a step to the script it runs. */
  relationships: GraphRelationship[];
  /** The skills its steps compose, by name: which skill a name is depends on the whole library (COMPOSES). */
  composes: SkillProcedure['composes'];
}

export function skillGraphPart(skill: LibrarySkill, details: SkillDetails | undefined, file: string): SkillGraphPart {
  const { format, procedure, scripts: held = [] } = details ?? {};
  // One node per key, as MERGE keeps one: two steps a procedure names alike (a finding of its own) are one node,
  // with the properties of the last, as each MERGE's SET leaves them.
  const steps = new Map<string, GraphNode>();
  const scripts = new Map<string, GraphNode>();
  const relationships: GraphRelationship[] = [];
  const relate = (type: RelationshipType, from: string, to: string, properties: Record<string, PropertyValue> = {}) =>
    relationships.push({ type, from, to, properties });
  for (const found of held) {
    scripts.set(found.hash, { label: 'Script', key: found.hash, properties: { hash: found.hash, size: found.size } });
    relate('HAS_SCRIPT', file, found.hash, { path: found.path });
  }
  // One key string per step, however many relationships name it: a string's hash is worked out once (dedupe).
  const stepKeys = new Map<string, string>();
  const stepKey = (id: string) => {
    let key = stepKeys.get(id);
    if (key === undefined) stepKeys.set(id, (key = `${file}#${id}`));
    return key;
  };
  for (const step of procedure?.steps ?? []) {
    const key = stepKey(step.id);
    steps.set(key, {
      label: 'Step',
      key,
      properties: {
        id: key,
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
    relate('HAS_STEP', file, key);
  }
  for (const edge of procedure?.next ?? []) relate('NEXT', stepKey(edge.from), stepKey(edge.to), { via: edge.via });
  for (const feed of procedure?.feeds ?? [])
    relate('FEEDS', stepKey(feed.from), stepKey(feed.to), { value: feed.value, type: feed.type });
  const byPath = new Map(held.map((found) => [found.path, found]));
  for (const run of procedure?.runs ?? []) {
    const found = byPath.get(run.path);
    if (found) relate('RUNS', stepKey(run.step), found.hash, { path: run.path });
  }
  return {
    nodes: [
      { label: 'Skill', key: file, properties: skillProperties(skill, file, format, procedure) },
      ...steps.values(),
    ],
    scripts: [...scripts.values()],
    relationships: dedupe(relationships),
    composes: procedure?.composes ?? [],
  };
}

/**
 * The order every form writes the parts' scripts in: with each part, the scripts it holds that no part before it
 * held (MERGE keeps one node per key).
 */
export function firstHeld<S extends { key: string }>(parts: { scripts: S[] }[]): S[][] {
  const seen = new Set<string>();
  return parts.map((part) =>
    part.scripts.filter((script) => {
      if (seen.has(script.key)) return false;
      seen.add(script.key);
      return true;
    }),
  );
}

/**
 * The relationships between skills: the compositions of each part (in the library's order), then each skill invoking
 * or linking another. `show` writes a SKILL.md as the parts were given it.
 */
export function relationshipsBetween(
  library: Library,
  composes: SkillGraphPart['composes'][],
  show: (file: string) => string,
): GraphRelationship[] {
  const relationships: GraphRelationship[] = [];
  library.skills.forEach((skill, index) => {
    for (const composed of composes[index])
      for (const target of library.byName.get(composed.name) ?? [])
        if (target !== skill)
          relationships.push({
            type: 'COMPOSES',
            from: show(skill.file),
            to: show(target.file),
            properties: { step: composed.step },
          });
  });
  for (const edge of library.edges) {
    // A composition is COMPOSES, with its step, from the MetaSkill's procedure.
    if (edge.kind === 'compose') continue;
    const link = edge.kind === 'link';
    relationships.push({
      type: link ? 'LINKS_TO' : 'INVOKES',
      from: show(edge.from),
      to: show(edge.to),
      properties: link ? {} : { how: edge.kind },
    });
  }
  return dedupe(relationships);
}

/**
 * The graph of a library from its skills' parts, one a skill in the library's order (see skillGraphPart): each part's
 * nodes and the scripts it held first, then the parts' relationships and those between skills.
 */
export function joinedGraph(library: Library, parts: SkillGraphPart[], show: (file: string) => string): LibraryGraph {
  const scripts = firstHeld(parts);
  return {
    nodes: parts.flatMap((part, index) => [...part.nodes, ...scripts[index]]),
    relationships: [
      ...parts.flatMap((part) => part.relationships),
      ...relationshipsBetween(
        library,
        parts.map((part) => part.composes),
        show,
      ),
    ],
  };
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
    format: format ?? PLAIN_FORMAT,
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
