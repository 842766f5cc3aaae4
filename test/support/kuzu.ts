/** Kùzu's WebAssembly build (`kuzu-wasm`, synchronous Node.js variant): the graph engine the Cypher is tested in. */
interface Kuzu {
  init(): Promise<void>;
  Database: new (path: string) => unknown;
  Connection: new (database: unknown) => {
    query(statement: string): { getAllObjects(): Record<string, unknown>[]; close(): void };
  };
}

/**
 * An in-memory Kùzu database with the tables the library's Cypher writes into (a skill's path is its primary key, which
 * stands for the Neo4j uniqueness constraint the export starts with), and a function that runs one statement.
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
    return rows;
  };
  run('CREATE NODE TABLE Skill(file STRING PRIMARY KEY, name STRING, scope STRING, description STRING)');
  run('CREATE REL TABLE INVOKES(FROM Skill TO Skill, how STRING)');
  run('CREATE REL TABLE LINKS_TO(FROM Skill TO Skill)');
  return run;
}
