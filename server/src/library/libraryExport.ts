import type { Library } from './libraryModel';
import {
  firstHeld,
  NODE_LABELS,
  relationshipsBetween,
  RELATIONSHIP_TYPES,
  type GraphNode,
  type GraphRelationship,
  type LibraryGraph,
  type NodeLabel,
  type PropertyType,
  type PropertyValue,
  type RelationshipType,
  type SkillGraphPart,
} from './libraryGraph';

// The library graph as files other tools read: JSON; Cypher that loads into a graph database as it is, as many times
// as it is run (MERGE on each node's key, under a uniqueness constraint); GraphML for
// graph editors (yEd, Gephi) and APOC; CSV for bulk loads is libraryCsv.ts. Texts keep to one line in every form: a
// line break is written as a space.

export interface LibraryJson {
  version: 2;
  nodes: { label: NodeLabel; properties: Record<string, PropertyValue> }[];
  relationships: { type: RelationshipType; from: string; to: string; properties: Record<string, PropertyValue> }[];
}

const jsonNode = ({ label, properties }: GraphNode): LibraryJson['nodes'][number] => ({ label, properties });
const jsonRelationship = ({ type, from, to, properties }: GraphRelationship): LibraryJson['relationships'][number] => ({
  type,
  from,
  to,
  properties,
});

/**
 * A skill's part of the JSON export, as text: made where the skill was read (on a thread, for a large library), so the
 * tens of megabytes of a large library's JSON are not all written by one thread after the others are done.
 */
export interface PartJson {
  /** Its nodes as array items, without the brackets; its relationships alike ('' for none). */
  nodes: string;
  relationships: string;
  /** Each script it holds: only the first part that holds one writes it. */
  scripts: { key: string; json: string }[];
  composes: SkillGraphPart['composes'];
}

/** The items of an array as JSON, without its brackets. */
const items = (values: unknown[]) => JSON.stringify(values).slice(1, -1);

export function partJson(part: SkillGraphPart): PartJson {
  return {
    nodes: items(part.nodes.map(jsonNode)),
    relationships: items(part.relationships.map(jsonRelationship)),
    scripts: part.scripts.map((script) => ({ key: script.key, json: JSON.stringify(jsonNode(script)) })),
    composes: part.composes,
  };
}

/**
 * The JSON export from its parts (in the library's order), with `more` members after the graph's, a piece at a time:
 * the graph joined from the same parts (see joinedGraph), each node's label and properties, each relationship whole.
 */
export function* libraryJsonText(
  library: Library,
  parts: PartJson[],
  show: (file: string) => string,
  more: Record<string, unknown>,
): Generator<string> {
  const scripts = firstHeld(parts);
  yield '{"version":2,"nodes":[';
  let first = true;
  const item = (text: string) => {
    const piece = first ? text : `,${text}`;
    first = false;
    return piece;
  };
  for (const [index, part] of parts.entries()) {
    yield item(part.nodes);
    for (const script of scripts[index]) yield item(script.json);
  }
  yield '],"relationships":[';
  first = true;
  for (const part of parts) if (part.relationships !== '') yield item(part.relationships);
  const between = relationshipsBetween(
    library,
    parts.map((part) => part.composes),
    show,
  );
  if (between.length > 0) yield item(items(between.map(jsonRelationship)));
  yield ']';
  for (const [key, value] of Object.entries(more)) yield `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  yield '}';
}

/** A text as every export writes it: on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/** A Cypher string literal: single-quoted, backslashes and quotes escaped. */
function literal(text: string): string {
  return `'${oneLine(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function cypherValue(value: PropertyValue): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  return typeof value === 'string' ? literal(value) : String(value);
}

const keyOf = (label: NodeLabel) => NODE_LABELS[label].key;

/** Neo4j's uniqueness constraint on each label's key, one statement a line (run again, each is kept as it is). */
export function uniquenessConstraints(): string[] {
  return Object.keys(NODE_LABELS).map((label) => {
    const key = keyOf(label as NodeLabel);
    return `CREATE CONSTRAINT ${label.toLowerCase()}_${key} IF NOT EXISTS FOR (n:${label}) REQUIRE n.${key} IS UNIQUE;`;
  });
}

/**
 * Statements for Neo4j's `cypher-shell`, one per line: a uniqueness constraint per label, then per label UNWINDs of
 * rows, each MERGEd on its key with its properties set (each run), then per relationship type the same, each row naming
 * its ends (`a`, `b`: no relationship has a property of either name) and the properties that are part of what the
 * relationship is.
 */
export function libraryCypher(graph: LibraryGraph): string {
  const lines = uniquenessConstraints();
  for (const [label, { key, properties }] of Object.entries(NODE_LABELS)) {
    const rows = graph.nodes.filter((node) => node.label === label).map((node) => node.properties);
    lines.push(
      ...unwinds(rows, (value) => {
        const set = Object.keys(properties)
          .filter((name) => name !== key)
          .map((name) => `n.${name} = ${value(name)}`);
        return `MERGE (n:${label} {${key}: ${value(key)}})${set.length > 0 ? ` SET ${set.join(', ')}` : ''};`;
      }),
    );
  }
  for (const [type, { from, to, properties }] of Object.entries(RELATIONSHIP_TYPES)) {
    const rows = graph.relationships
      .filter((relationship) => relationship.type === type)
      .map((relationship) => ({ a: relationship.from, b: relationship.to, ...relationship.properties }));
    lines.push(
      ...unwinds(rows, (value) => {
        const fields = Object.keys(properties).map((name) => `${name}: ${value(name)}`);
        return (
          `MATCH (a:${from} {${keyOf(from)}: ${value('a')}}), (b:${to} {${keyOf(to)}: ${value('b')}}) ` +
          `MERGE (a)-[:${type}${fields.length > 0 ? ` {${fields.join(', ')}}` : ''}]->(b);`
        );
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Rows a statement carries. A bulk load's time goes to statements more than rows (Kùzu ran 3,000 nodes in 2.2 s as
 * UNWINDs of 500 and in 7.7 s as a statement each; cypher-shell sends each statement on its own), while very long
 * statements cost Kùzu more a row (5,000 a statement was slower than 500).
 */
const ROWS_PER_STATEMENT = 500;

/**
 * `UNWIND [rows] AS row` and the clause for them, `value(name)` being how it reads a property. An empty list is written
 * in the clause, not in the rows: a list in a map literal takes its type from its items, so an engine that types the
 * rows as one (Kùzu) cannot give `[]` beside `['a']` one, and fails. Rows are grouped by which lists are empty, in the
 * order each group first occurs, and each group is cut into statements of ROWS_PER_STATEMENT rows.
 */
function unwinds(rows: Record<string, PropertyValue>[], clause: (value: (name: string) => string) => string): string[] {
  const groups = new Map<string, { empty: Set<string>; maps: string[] }>();
  for (const row of rows) {
    const empty = Object.keys(row).filter((name) => Array.isArray(row[name]) && row[name].length === 0);
    const key = empty.join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { empty: new Set(empty), maps: [] }));
    const fields = Object.entries(row)
      .filter(([name]) => !group.empty.has(name))
      .map(([name, value]) => `${name}: ${cypherValue(value)}`);
    group.maps.push(`{${fields.join(', ')}}`);
  }
  const statements: string[] = [];
  for (const { empty, maps } of groups.values()) {
    const text = clause((name) => (empty.has(name) ? '[]' : `row.${name}`));
    for (let start = 0; start < maps.length; start += ROWS_PER_STATEMENT)
      statements.push(`UNWIND [${maps.slice(start, start + ROWS_PER_STATEMENT).join(', ')}] AS row ${text}`);
  }
  return statements;
}

/** XML text: the five escapes, and the control characters XML 1.0 cannot hold dropped. */
function xml(text: string): string {
  return oneLine(text)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const GRAPHML_TYPES: Record<PropertyType, string> = {
  string: 'string',
  boolean: 'boolean',
  integer: 'long',
  'string[]': 'string',
};

/**
 * GraphML: a key per property (lists as JSON text, which GraphML has no type for), each node's label in `labels`
 * (`:Skill`) and each relationship's type in `label`, as APOC's GraphML import reads them.
 */
export function libraryGraphml(graph: LibraryGraph): string {
  const nodeTypes = new Map<string, PropertyType>();
  for (const { properties } of Object.values(NODE_LABELS))
    for (const [name, type] of Object.entries(properties)) nodeTypes.set(name, type);
  const edgeTypes = new Map<string, PropertyType>();
  for (const { properties } of Object.values(RELATIONSHIP_TYPES))
    for (const [name, type] of Object.entries(properties) as [string, PropertyType][]) edgeTypes.set(name, type);
  const data = (prefix: string, properties: Record<string, PropertyValue>) =>
    Object.entries(properties).map(
      ([name, value]) =>
        `<data key="${prefix}_${name}">${xml(Array.isArray(value) ? JSON.stringify(value) : String(value))}</data>`,
    );
  const keys = [
    '<key id="labels" for="node" attr.name="labels" attr.type="string"/>',
    ...[...nodeTypes].map(
      ([name, type]) => `<key id="n_${name}" for="node" attr.name="${name}" attr.type="${GRAPHML_TYPES[type]}"/>`,
    ),
    '<key id="label" for="edge" attr.name="label" attr.type="string"/>',
    ...[...edgeTypes].map(
      ([name, type]) => `<key id="e_${name}" for="edge" attr.name="${name}" attr.type="${GRAPHML_TYPES[type]}"/>`,
    ),
  ];
  const node = (item: GraphNode) =>
    `    <node id="${xml(item.key)}"><data key="labels">:${item.label}</data>${data('n', item.properties).join('')}</node>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    ...keys.map((key) => `  ${key}`),
    '  <graph id="library" edgedefault="directed">',
    ...graph.nodes.map(node),
    ...graph.relationships.map(
      (relationship) =>
        `    <edge source="${xml(relationship.from)}" target="${xml(relationship.to)}"><data key="label">${relationship.type}</data>${data('e', relationship.properties).join('')}</edge>`,
    ),
    '  </graph>',
    '</graphml>',
    '',
  ].join('\n');
}
