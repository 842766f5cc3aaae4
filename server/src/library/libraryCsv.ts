import {
  NODE_LABELS,
  RELATIONSHIP_TYPES,
  type LibraryGraph,
  type PropertyType,
  type PropertyValue,
} from './libraryGraph';
import { oneLine, uniquenessConstraints } from './libraryExport';

// The library graph as CSV for a bulk load: one set of files that two engines read as they are, Neo4j's
// `neo4j-admin database import` by its typed headers and Kùzu's `COPY FROM` by position (the header skipped), with the
// schema each needs and the commands that load them. Both read RFC 4180 quoting (a quote doubled, a backslash plain).
//
// Lists are the one place the engines differ. Neo4j splits a list column on `--array-delimiter`; the items are texts
// that hold semicolons (its default), so they are written with a TAB between them. Kùzu's own list form (`[a,b]`) has
// no escape: a comma always ends an item and quotes around one stay part of it (kuzu-wasm 0.11.3), so an item like
// "When the user asks, run it" cannot be written in it. Its COPY reads those columns through `LOAD FROM` as text and
// splits them on the same TAB, in the statement it is given (kuzu-copy.cypher).

export interface CsvFile {
  name: string;
  content: string;
}

export interface LibraryCsv {
  files: CsvFile[];
  /** The commands that load the files, each run from their folder: Neo4j's import, then Kùzu's. */
  commands: string[];
}

/**
 * A CSV field: quoted (quotes doubled) when it holds a delimiter, a quote or leading or trailing space, or is empty (an
 * empty field is no property to Neo4j's importer, `""` an empty text, as the Cypher export sets it).
 */
function csvField(text: string): string {
  const flat = oneLine(text);
  return flat === '' || /[",]|^\s|\s$/.test(flat) ? `"${flat.replace(/"/g, '""')}"` : flat;
}

/** The item separator in a list column: no item holds one (a TAB in an item is written as a space). */
const ITEM_SEPARATOR = '\t';

/** A property's field; a list with no items is an empty field. */
function csvValue(value: PropertyValue): string {
  if (!Array.isArray(value)) return csvField(String(value));
  return value.length === 0 ? '' : csvField(value.map((item) => item.replace(/\t/g, ' ')).join(ITEM_SEPARATOR));
}

const NEO4J_TYPES: Record<PropertyType, string> = {
  string: '',
  boolean: ':boolean',
  integer: ':long',
  'string[]': ':string[]',
};

const KUZU_TYPES: Record<PropertyType, string> = {
  string: 'STRING',
  boolean: 'BOOLEAN',
  integer: 'INT64',
  'string[]': 'STRING[]',
};

/**
 * Kùzu's tables for the library graph: a node table per label, its key the primary key (which stands for Neo4j's
 * uniqueness constraint), and a relationship table per type between the labels it joins.
 */
export function kuzuSchema(): string[] {
  const nodeTables = Object.entries(NODE_LABELS).map(([label, { key, properties }]) => {
    const columns = Object.entries(properties).map(
      ([name, type]) => `${name} ${KUZU_TYPES[type as PropertyType]}${name === key ? ' PRIMARY KEY' : ''}`,
    );
    return `CREATE NODE TABLE ${label}(${columns.join(', ')});`;
  });
  const relationshipTables = Object.entries(RELATIONSHIP_TYPES).map(([type, { from, to, properties }]) => {
    const columns = Object.entries(properties).map(([name, kind]) => `, ${name} ${KUZU_TYPES[kind as PropertyType]}`);
    return `CREATE REL TABLE ${type}(FROM ${from} TO ${to}${columns.join('')});`;
  });
  return [...nodeTables, ...relationshipTables];
}

/** How Kùzu reads the files: a header line, quotes doubled (said, not left to a default that has changed). */
const KUZU_CSV = `(HEADER=true, ESCAPE='"')`;

/**
 * Kùzu's COPY of each file, nodes before the relationships between them, through LOAD FROM: Kùzu reads an empty field
 * as NULL, quoted or not, so a text's is made '' again and a list's no items; a list column is read as text and split
 * on ITEM_SEPARATOR, written in the statement as the character itself (Kùzu's string literals have no `\t`). The
 * columns are named by the graph's properties (a relationship's ends `from` and `to`), each quoted.
 */
export function kuzuCopy(): string[] {
  const copy = (table: string, properties: Record<string, PropertyType>, ends: string[]) => {
    const columns = [...ends.map((end) => `\`${end}\` STRING`)];
    const values = ends.map((end) => `\`${end}\``);
    for (const [name, type] of Object.entries(properties)) {
      const column = `\`${name}\``;
      columns.push(`${column} ${KUZU_TYPES[type === 'string[]' ? 'string' : type]}`);
      values.push(
        type === 'string'
          ? `coalesce(${column}, '')`
          : type === 'string[]'
            ? `CASE WHEN ${column} IS NULL THEN CAST([] AS STRING[]) ELSE string_split(${column}, '${ITEM_SEPARATOR}') END`
            : column,
      );
    }
    return `COPY ${table} FROM (LOAD WITH HEADERS (${columns.join(', ')}) FROM '${table}.csv' ${KUZU_CSV} RETURN ${values.join(', ')});`;
  };
  return [
    ...Object.entries(NODE_LABELS).map(([label, { properties }]) => copy(label, properties, [])),
    ...Object.entries(RELATIONSHIP_TYPES).map(([type, { properties }]) => copy(type, properties, ['from', 'to'])),
  ];
}

/** A file's lines, each ending in a line break. */
const lines = (items: string[]) => items.map((item) => `${item}\n`).join('');

/**
 * One CSV file per label and per relationship type in `neo4j-admin database import` form (`key:ID`, `:START_ID`,
 * `:END_ID`, typed headers; keys are unique across labels, a path, a path and a step, a hash, so one id space serves
 * all), Kùzu's schema and COPY statements, the constraints Neo4j's import leaves to be made, a README, and the
 * commands that load them.
 */
export function libraryCsv(graph: LibraryGraph): LibraryCsv {
  const files: CsvFile[] = [];
  const nodeArguments: string[] = [];
  for (const [label, { key, properties }] of Object.entries(NODE_LABELS)) {
    const names = Object.keys(properties) as (keyof typeof properties)[];
    const header = names.map((name) => (name === key ? `${name}:ID` : `${name}${NEO4J_TYPES[properties[name]]}`));
    const rows = graph.nodes
      .filter((node) => node.label === label)
      .map((node) => names.map((name) => csvValue(node.properties[name])).join(','));
    files.push({ name: `${label}.csv`, content: lines([header.join(','), ...rows]) });
    nodeArguments.push(`--nodes=${label}=${label}.csv`);
  }
  const relationshipArguments: string[] = [];
  for (const [type, { properties }] of Object.entries(RELATIONSHIP_TYPES)) {
    const names = Object.keys(properties) as (keyof typeof properties)[];
    const header = [':START_ID', ':END_ID', ...names.map((name) => `${name}${NEO4J_TYPES[properties[name]]}`)];
    const rows = graph.relationships
      .filter((relationship) => relationship.type === type)
      .map((relationship) =>
        [relationship.from, relationship.to, ...names.map((name) => relationship.properties[name])]
          .map((value) => csvValue(value))
          .join(','),
      );
    files.push({ name: `${type}.csv`, content: lines([header.join(','), ...rows]) });
    relationshipArguments.push(`--relationships=${type}=${type}.csv`);
  }
  const neo4j = `neo4j-admin database import full --array-delimiter=TAB ${[...nodeArguments, ...relationshipArguments].join(' ')} neo4j`;
  const kuzu = 'cat kuzu-schema.cypher kuzu-copy.cypher | kuzu library.kuzu';
  files.push(
    { name: 'kuzu-schema.cypher', content: lines(kuzuSchema()) },
    { name: 'kuzu-copy.cypher', content: lines(kuzuCopy()) },
    { name: 'neo4j-schema.cypher', content: lines(uniquenessConstraints()) },
    { name: 'README.md', content: readme(neo4j, kuzu) },
  );
  return { files, commands: [neo4j, kuzu] };
}

function readme(neo4j: string, kuzu: string): string {
  return `# The library graph as CSV

Written by \`skillgraph library --format csv\`: a file per node label and relationship type, read as they are by
Neo4j's bulk importer and by Kùzu's \`COPY FROM\`. Each command runs from this folder.

## Neo4j

Into a new, empty database (the server stopped), then, with it started, the uniqueness constraint on each label's key
that the Cypher export (\`--format cypher\`) makes too:

    ${neo4j}
    cypher-shell < neo4j-schema.cypher

List columns (\`:string[]\`) have a TAB between items (\`--array-delimiter=TAB\`): the items hold semicolons.

## Kùzu

\`kuzu-schema.cypher\` declares a table per label and relationship type (each label's key its primary key);
\`kuzu-copy.cypher\` copies the files into them, nodes first. Into a new database:

    ${kuzu}

A list column is read as text and split on its TABs in the COPY statement: Kùzu's own list form (\`[a,b]\`) cannot
hold an item with a comma in it.
`;
}
