import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { GOVERNANCE_QUERIES } from '../../server/src/library/governanceQueries';
import { NODE_LABELS, RELATIONSHIP_TYPES } from '../../server/src/library/libraryGraph';
import type { LibraryJson } from '../../server/src/library/libraryExport';
import { CORPUS } from '../support/corpus';
import { writeGovernanceLibrary } from '../support/governanceLibrary';
import { emptyEngine, libraryEngine, loadCsvExport, loadableStatements, type Run } from '../support/kuzu';

// The exports in a real graph engine: Kùzu's WebAssembly build from the npm registry (no Neo4j server can be installed
// here). The Cypher export is written for Neo4j; Kùzu needs its tables declared first (the schema the CSV export
// writes), and its primary keys stand for Neo4j's uniqueness constraints, the only statements not run. Every other
// statement runs as written, twice. The CSV export is loaded as its files say, into an empty database: the statements
// of its kuzu-schema.cypher, then of its kuzu-copy.cypher, reading its CSV files. Each way, the graph in the engine is
// the one the JSON export describes, and every governance query's Cypher, as the docs print it, answers there what
// `skillgraph query` answers.

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const governance = writeGovernanceLibrary();
after(() => rmSync(governance, { recursive: true, force: true }));
const paths = [CORPUS, join(__dirname, '..', '..', 'examples'), governance];

function skillgraph(...args: string[]): string {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.ok(result.status === 0 || (args[0] === 'query' && result.status === 1), result.stderr);
  return result.stdout;
}

const cypherEngine = (async () => {
  const run = await libraryEngine();
  const statements = loadableStatements(skillgraph('library', ...paths, '--format', 'cypher'));
  for (let round = 0; round < 2; round++) for (const statement of statements) run(statement);
  return run;
})();

const csvEngine = (async () => {
  await cypherEngine; // one engine module: one statement at a time
  const out = mkdtempSync(join(tmpdir(), 'sg-engine-csv-'));
  try {
    skillgraph('library', ...paths, '--format', 'csv', '--out', out);
    const run = await emptyEngine();
    loadCsvExport(run, out, ['kuzu-schema.cypher', 'kuzu-copy.cypher']);
    return run;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
})();

const engines: [string, Promise<Run>][] = [
  ['Cypher', cypherEngine],
  ['CSV', csvEngine],
];

test('the library exported as Cypher loads into Kùzu twice without duplicates, as the JSON export describes it', async () => {
  assertAsJson(await cypherEngine);
});

test("the library exported as CSV loads into Kùzu with the export's own schema and COPY statements, as the JSON export describes it", async () => {
  assertAsJson(await csvEngine);
});

/** The graph in the engine is the JSON export's: node for node, relationship for relationship, every skill property. */
function assertAsJson(run: Run): void {
  const json = JSON.parse(skillgraph('library', ...paths, '--format', 'json')) as LibraryJson;
  for (const [label, { key }] of Object.entries(NODE_LABELS)) {
    const expected = json.nodes
      .filter((node) => node.label === label)
      .map((node) => node.properties[key] as string)
      .sort();
    const loaded = run(`MATCH (n:${label}) RETURN n.${key} AS key ORDER BY key`).map((row) => row.key);
    assert.deepEqual(loaded, expected, label);
    assert.ok(expected.length >= 70, `${expected.length} ${label} nodes`);
  }
  for (const type of Object.keys(RELATIONSHIP_TYPES)) {
    const expected = json.relationships.filter((relationship) => relationship.type === type).length;
    const [{ count }] = run(`MATCH ()-[r:${type}]->() RETURN count(r) AS count`);
    assert.equal(count, expected, type);
    assert.ok(expected > 0, `no ${type} relationship to compare`);
  }
  // Every property of every skill, lists and line breaks included, as the JSON has it.
  const properties = Object.keys(NODE_LABELS.Skill.properties);
  const skills = run(
    `MATCH (n:Skill) RETURN ${properties.map((name) => `n.${name} AS ${name}`).join(', ')} ORDER BY file`,
  );
  const oneLine = (value: unknown): unknown =>
    typeof value === 'string'
      ? value.replace(/\s*[\r\n]+\s*/g, ' ')
      : Array.isArray(value)
        ? value.map(oneLine)
        : value;
  assert.deepEqual(
    skills,
    json.nodes
      .filter((node) => node.label === 'Skill')
      .map((node) => Object.fromEntries(properties.map((name) => [name, oneLine(node.properties[name])])))
      .sort((a, b) => ((a.file as string) < (b.file as string) ? -1 : 1)),
  );
}

for (const query of GOVERNANCE_QUERIES)
  test(`query ${query.name}: the engine running its Cypher answers what skillgraph query answers, loaded either way`, async () => {
    const expected = (JSON.parse(skillgraph('query', query.name, ...paths, '--format', 'json')) as { rows: unknown[] })
      .rows;
    assert.ok(expected.length > 0, 'the library gives this question no answer to compare');
    for (const [form, engine] of engines) assert.deepEqual((await engine)(query.cypher), expected, form);
  });
