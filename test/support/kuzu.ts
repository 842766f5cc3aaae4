import { NODE_LABELS, RELATIONSHIP_TYPES, type PropertyType } from '../../server/src/library/libraryGraph';

/** Kùzu's WebAssembly build (`kuzu-wasm`, synchronous Node.js variant): the graph engine the Cypher is tested in. */
interface Kuzu {
  init(): Promise<void>;
  Database: new (path: string) => unknown;
  Connection: new (database: unknown) => {
    query(statement: string): { getAllObjects(): Record<string, unknown>[]; close(): void };
  };
}

const KUZU_TYPES: Record<PropertyType, string> = {
  string: 'STRING',
  boolean: 'BOOLEAN',
  integer: 'INT64',
  'string[]': 'STRING[]',
};

/**
 * An in-memory Kùzu database with a table per label and relationship type of the library graph, declared from the
 * graph's own schema (each label's key is the table's primary key, which stands for the Neo4j uniqueness constraint
 * the export starts with), and a function that runs one statement and gives its rows with plain values.
 */
export async function libraryEngine(): Promise<(statement: string) => Record<string, unknown>[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS build with no type declarations
  const kuzu = require('kuzu-wasm/nodejs/sync') as Kuzu;
  await kuzu.init();
  const connection = new kuzu.Connection(new kuzu.Database(':memory:'));
  const run = (statement: string) => {
    const result = connection.query(statement);
    const rows = result.getAllObjects();
    result.close();
    // Integers come back boxed; a row compares with the CLI's JSON as plain values.
    return rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, value instanceof Number ? Number(value) : value]),
      ),
    );
  };
  for (const [label, { key, properties }] of Object.entries(NODE_LABELS)) {
    const columns = Object.entries(properties).map(
      ([name, type]) => `${name} ${KUZU_TYPES[type as PropertyType]}${name === key ? ' PRIMARY KEY' : ''}`,
    );
    run(`CREATE NODE TABLE ${label}(${columns.join(', ')})`);
  }
  for (const [type, { from, to, properties }] of Object.entries(RELATIONSHIP_TYPES)) {
    const columns = Object.entries(properties).map(([name, kind]) => `, ${name} ${KUZU_TYPES[kind as PropertyType]}`);
    run(`CREATE REL TABLE ${type}(FROM ${from} TO ${to}${columns.join('')})`);
  }
  return run;
}

/** The statements of a Cypher export the engine runs: all but the constraints, which its primary keys stand for. */
export function loadableStatements(cypher: string): string[] {
  return cypher
    .trim()
    .split('\n')
    .filter((statement) => !statement.startsWith('CREATE CONSTRAINT '));
}
