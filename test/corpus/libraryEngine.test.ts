import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { GOVERNANCE_QUERIES } from '../../server/src/library/governanceQueries';
import { NODE_LABELS, RELATIONSHIP_TYPES } from '../../server/src/library/libraryGraph';
import type { LibraryJson } from '../../server/src/library/libraryExport';
import { CORPUS } from '../support/corpus';
import { writeGovernanceLibrary } from '../support/governanceLibrary';
import { libraryEngine, loadableStatements } from '../support/kuzu';

// The Cypher export in a real graph engine: Kùzu's WebAssembly build from the npm registry (no Neo4j server can be
// installed here). The export is written for Neo4j; Kùzu needs its tables declared first (from the graph's schema),
// and its primary keys stand for Neo4j's uniqueness constraints, the only statements not run. Every other statement
// runs as written, twice, and the graph in the engine is the one the JSON export describes. Then every governance
// query's Cypher, as the docs print it, runs in the engine and answers what `skillgraph query` answers.

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const governance = writeGovernanceLibrary();
after(() => rmSync(governance, { recursive: true, force: true }));
const paths = [CORPUS, join(__dirname, '..', '..', 'examples'), governance];

function skillgraph(...args: string[]): string {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.ok(result.status === 0 || (args[0] === 'query' && result.status === 1), result.stderr);
  return result.stdout;
}

const engine = (async () => {
  const run = await libraryEngine();
  const statements = loadableStatements(skillgraph('library', ...paths, '--format', 'cypher'));
  for (let round = 0; round < 2; round++) for (const statement of statements) run(statement);
  return run;
})();

test('the library exported as Cypher loads into Kùzu twice without duplicates, as the JSON export describes it', async () => {
  const run = await engine;
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
});

for (const query of GOVERNANCE_QUERIES)
  test(`query ${query.name}: the engine running its Cypher answers what skillgraph query answers`, async () => {
    const run = await engine;
    const expected = (JSON.parse(skillgraph('query', query.name, ...paths, '--format', 'json')) as { rows: unknown[] })
      .rows;
    assert.ok(expected.length > 0, 'the library gives this question no answer to compare');
    assert.deepEqual(run(query.cypher), expected);
  });
