import { readFileSync } from 'node:fs';
import { kuzuSchema } from '../../server/src/library/libraryCsv';

/** Kùzu's WebAssembly build (`kuzu-wasm`, synchronous Node.js variant): the graph engine the exports are tested in. */
interface Kuzu {
  init(): Promise<void>;
  Database: new (path: string) => unknown;
  Connection: new (database: unknown) => {
    query(statement: string): { getAllObjects(): Record<string, unknown>[]; close(): void };
  };
}

export type Run = (statement: string) => Record<string, unknown>[];

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS build with no type declarations
const kuzu = () => require('kuzu-wasm/nodejs/sync') as Kuzu;

/** An empty in-memory Kùzu database and a function that runs one statement and gives its rows with plain values. */
export async function emptyEngine(): Promise<Run> {
  await kuzu().init();
  const connection = new (kuzu().Connection)(new (kuzu().Database)(':memory:'));
  return (statement: string) => {
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
}

/**
 * An in-memory Kùzu database with the library graph's tables (the schema `library --format csv` writes: each label's
 * key is the table's primary key, which stands for the Neo4j uniqueness constraint the Cypher export starts with).
 */
export async function libraryEngine(): Promise<Run> {
  const run = await emptyEngine();
  for (const statement of kuzuSchema()) run(statement);
  return run;
}

/** The statements of a Cypher export the engine runs: all but the constraints, which its primary keys stand for. */
export function loadableStatements(cypher: string): string[] {
  return cypher
    .trim()
    .split('\n')
    .filter((statement) => !statement.startsWith('CREATE CONSTRAINT '));
}

/**
 * Runs the statements of the `.cypher` files `library --format csv` wrote into `folder`, in their order, from that
 * folder as its README says (their COPY statements name the CSV files beside them). Kùzu's Node.js build reads the
 * disk itself, from the process's working folder, which is set back after.
 */
export function loadCsvExport(run: Run, folder: string, files: string[]): void {
  const before = process.cwd();
  process.chdir(folder);
  try {
    for (const file of files) for (const statement of statementsOf(readFileSync(file, 'utf8'))) run(statement);
  } finally {
    process.chdir(before);
  }
}

/** The statements of a `.cypher` file `library --format csv` writes, one a line. */
function statementsOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
