import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS } from '../support/corpus';
import { libraryEngine } from '../support/kuzu';

// The Cypher export in a real graph engine: Kùzu's WebAssembly build from the npm registry (no Neo4j server can be
// installed here). The export is written for Neo4j; Kùzu needs its tables declared first, and its primary key on
// `file` stands for Neo4j's uniqueness constraint, the one statement not run. Every other statement runs as written,
// twice, and the graph in the engine is the library the JSON export describes.

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');

function library(format: 'json' | 'cypher'): string {
  const result = spawnSync(process.execPath, [cli, 'library', CORPUS, '--format', format], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

test('the corpus library exported as Cypher loads into Kùzu, twice without duplicates, as the JSON export describes it', async () => {
  const run = await libraryEngine();
  const statements = library('cypher').trim().split('\n');
  assert.match(statements[0], /^CREATE CONSTRAINT skill_file IF NOT EXISTS/);
  for (let round = 0; round < 2; round++) for (const statement of statements.slice(1)) run(statement);
  const json = JSON.parse(library('json')) as {
    skills: { name: string; file: string; description: string }[];
    edges: { from: string; to: string; kind: string }[];
  };
  assert.ok(
    json.skills.length >= 70 && json.edges.length >= 10,
    `${json.skills.length} skills, ${json.edges.length} edges`,
  );
  const skills = run(
    'MATCH (s:Skill) RETURN s.file AS file, s.name AS name, s.description AS description ORDER BY file',
  );
  assert.deepEqual(
    skills,
    [...json.skills]
      .sort((a, b) => (a.file < b.file ? -1 : 1))
      .map((skill) => ({
        file: skill.file,
        name: skill.name,
        description: skill.description.replace(/\s*[\r\n]+\s*/g, ' '),
      })),
  );
  const invokes = run(
    'MATCH (a:Skill)-[r:INVOKES]->(b:Skill) RETURN a.file AS from, b.file AS to, r.how AS kind ORDER BY from, to, kind',
  );
  const expected = json.edges
    .filter((edge) => edge.kind !== 'link')
    .map((edge) => ({ from: edge.from, to: edge.to, kind: edge.kind }));
  // MERGE keeps one relationship per pair and kind: the export's repeated mentions are one edge in the engine.
  const unique = [...new Map(expected.map((edge) => [JSON.stringify(edge), edge])).values()].sort((a, b) =>
    a.from !== b.from ? (a.from < b.from ? -1 : 1) : a.to !== b.to ? (a.to < b.to ? -1 : 1) : a.kind < b.kind ? -1 : 1,
  );
  assert.deepEqual(invokes, unique);
  // A governance question asked of the engine: which skills does writing-plans hand work to?
  assert.deepEqual(
    run(
      "MATCH (a:Skill {name: 'writing-plans'})-[:INVOKES]->(b:Skill) RETURN DISTINCT b.name AS name ORDER BY name",
    ).map((row) => row.name),
    ['executing-plans', 'subagent-driven-development', 'using-git-worktrees'],
  );
});
