import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LibraryJson } from '../../server/src/library/libraryExport';
import { CLI, runCli } from '../support/cliRun';
import { writeGovernanceLibrary } from '../support/governanceLibrary';

// `skillgraph library` and `skillgraph query` as a user runs them: the library's text, its graph in every export form,
// and the governance questions answered.

test('library: the skills under a folder as one library; text, JSON with its findings, and Cypher', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-cli-library-'));
  const write = (name: string, description: string, body: string) => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  };
  write('release-notes', 'Writes release notes. Use when a release is cut.', 'Write the notes.');
  write(
    'release-digest',
    'Sums up the week. Use on Fridays.',
    'Then run /relase-notes, and see [notes](../release-notes/SKILL.md).',
  );
  const text = runCli(dir, 'library', '.');
  assert.equal(text.status, 0);
  assert.equal(
    text.stdout,
    '2 skills, 0 invocations and 1 link between them; Codex lists 0 of them in 0 characters (up to 8,000)\n' +
      'release-digest/SKILL.md:6:11: warning: No skill of the library is named `relase-notes`: did you mean `release-notes`? An agent told to use `/relase-notes` finds nothing to run. [unknown_skill_mention]\n',
  );
  const json = JSON.parse(runCli(dir, 'library', '.', '--format', 'json').stdout) as LibraryJson & {
    findings: { code: string; range: { start: { line: number } } }[];
  };
  assert.deepEqual(
    json.nodes.map((node) => [node.label, node.properties.name, node.properties.file, node.properties.format]),
    [
      ['Skill', 'release-digest', 'release-digest/SKILL.md', 'agent-skill'],
      ['Skill', 'release-notes', 'release-notes/SKILL.md', 'agent-skill'],
    ],
  );
  assert.deepEqual(json.relationships, [
    { type: 'LINKS_TO', from: 'release-digest/SKILL.md', to: 'release-notes/SKILL.md', properties: {} },
  ]);
  assert.deepEqual(
    json.findings.map((item) => [item.code, item.range.start.line]),
    [['unknown_skill_mention', 5]],
  );
  const cypher = runCli(dir, 'library', '.', '--format', 'cypher').stdout.trim().split('\n');
  assert.equal(cypher.length, 5, 'a constraint per label, one statement for both skills, one for the edge');
  assert.match(cypher[3], /^UNWIND \[\{file: 'release-digest\/SKILL\.md', .*\}, \{file: 'release-notes\/SKILL\.md', /);
  assert.equal(
    cypher[4],
    "UNWIND [{a: 'release-digest/SKILL.md', b: 'release-notes/SKILL.md'}] AS row MATCH (a:Skill {file: row.a}), (b:Skill {file: row.b}) MERGE (a)-[:LINKS_TO]->(b);",
  );
  assert.equal(runCli(dir, 'library', '.', '--format', 'csv').status, 2, 'csv needs a folder to write into');
});

test('library --format csv writes the files neo4j-admin and Kùzu load as they are, never over a file without --force', () => {
  const library = writeGovernanceLibrary();
  const out = mkdtempSync(join(tmpdir(), 'sg-cli-csv-'));
  const written = runCli(library, 'library', '.', '--format', 'csv', '--out', out);
  assert.equal(written.status, 0, written.stderr);
  assert.match(written.stderr, /wrote 15 files to .+; load them into an empty Neo4j or Kùzu database with:\n/);
  const [neo4j, kuzu, ...rest] = written.stdout.split('\n');
  assert.match(
    neo4j,
    /^cd .+ && neo4j-admin database import full --array-delimiter=TAB --nodes=Skill=Skill\.csv .*--relationships=HAS_SCRIPT=HAS_SCRIPT\.csv neo4j$/,
  );
  assert.match(kuzu, /^cd .+ && cat kuzu-schema\.cypher kuzu-copy\.cypher \| kuzu library\.kuzu$/);
  assert.deepEqual(rest, ['']);
  assert.deepEqual(readdirSync(out).sort(), [
    'COMPOSES.csv',
    'FEEDS.csv',
    'HAS_SCRIPT.csv',
    'HAS_STEP.csv',
    'INVOKES.csv',
    'LINKS_TO.csv',
    'NEXT.csv',
    'README.md',
    'RUNS.csv',
    'Script.csv',
    'Skill.csv',
    'Step.csv',
    'kuzu-copy.cypher',
    'kuzu-schema.cypher',
    'neo4j-schema.cypher',
  ]);
  // Kùzu's schema: a table per label (its key the primary key) and per relationship type; a COPY per file, nodes first.
  const schema = readFileSync(join(out, 'kuzu-schema.cypher'), 'utf8').trim().split('\n');
  assert.equal(schema.length, 11);
  assert.equal(
    schema[0],
    'CREATE NODE TABLE Skill(file STRING PRIMARY KEY, name STRING, scope STRING, description STRING, format STRING, purpose STRING, trigger_when STRING[], do_not_use_when STRING[], anti_patterns STRING[], scope_and_approval STRING);',
  );
  assert.ok(schema.includes('CREATE REL TABLE INVOKES(FROM Skill TO Skill, how STRING);'), schema.join('\n'));
  const copies = readFileSync(join(out, 'kuzu-copy.cypher'), 'utf8').trim().split('\n');
  assert.deepEqual(
    copies.map((statement) => /^COPY (\w+) FROM \(LOAD WITH HEADERS .* FROM '(\w+)\.csv' /.exec(statement)?.slice(1)),
    [
      'Skill',
      'Step',
      'Script',
      'INVOKES',
      'LINKS_TO',
      'COMPOSES',
      'HAS_STEP',
      'NEXT',
      'FEEDS',
      'RUNS',
      'HAS_SCRIPT',
    ].map((table) => [table, table]),
  );
  assert.match(
    copies[0],
    /CASE WHEN `trigger_when` IS NULL THEN CAST\(\[\] AS STRING\[\]\) ELSE string_split\(`trigger_when`, '\t'\) END/,
  );
  assert.equal(
    readFileSync(join(out, 'neo4j-schema.cypher'), 'utf8').split('\n')[0],
    'CREATE CONSTRAINT skill_file IF NOT EXISTS FOR (n:Skill) REQUIRE n.file IS UNIQUE;',
  );
  const readme = readFileSync(join(out, 'README.md'), 'utf8');
  for (const command of [neo4j, kuzu]) assert.ok(readme.includes(command.replace(/^cd .+? && /, '')), command);
  const skills = readFileSync(join(out, 'Skill.csv'), 'utf8').trim().split('\n');
  assert.equal(
    skills[0],
    'file:ID,name,scope,description,format,purpose,trigger_when:string[],do_not_use_when:string[],anti_patterns:string[],scope_and_approval',
  );
  assert.ok(
    skills.includes(
      'release-site/SKILL.md,release-site,other,"Reviews the changes, then publishes the release. Use when a release is due.",aip-0.3,Release the site after a review.,A release is due.,Only a draft preview is wanted.,Publishing without the review.,""',
    ),
    skills.join('\n'),
  );
  assert.equal(
    readFileSync(join(out, 'INVOKES.csv'), 'utf8'),
    ':START_ID,:END_ID,how\nship-blog/SKILL.md,deploy-site/SKILL.md,slash\nship-docs/SKILL.md,deploy-site/SKILL.md,slash\n',
  );
  writeFileSync(join(out, 'Step.csv'), 'mine');
  const refused = runCli(library, 'library', '.', '--format', 'csv', '--out', out);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /already exist; nothing was written \(--force replaces them\)/);
  assert.equal(readFileSync(join(out, 'Step.csv'), 'utf8'), 'mine', 'nothing was overwritten');
  assert.equal(runCli(library, 'library', '.', '--format', 'csv', '--out', out, '--force').status, 0);
  assert.match(
    readFileSync(join(out, 'Step.csv'), 'utf8'),
    /^id:ID,skill,name,kind,description,irreversible:boolean,gate:boolean,inputs:string\[\],outputs:string\[\]\n/,
  );
});

test('library --format graphml: well-formed, a key per property, labels and types as APOC reads them', () => {
  const library = writeGovernanceLibrary();
  const graphml = runCli(library, 'library', '.', '--format', 'graphml');
  assert.equal(graphml.status, 0, graphml.stderr);
  assert.match(
    graphml.stdout,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<graphml xmlns="http:\/\/graphml\.graphdrawing\.org\/xmlns">/,
  );
  assert.match(graphml.stdout, /<key id="n_irreversible" for="node" attr.name="irreversible" attr.type="boolean"\/>/);
  assert.match(
    graphml.stdout,
    /<node id="deploy-site\/SKILL\.md#deploy-site"><data key="labels">:Step<\/data>.*<data key="n_irreversible">true<\/data>/,
  );
  assert.match(
    graphml.stdout,
    /<edge source="ship-blog\/SKILL\.md" target="ship-docs\/SKILL\.md"><data key="label">LINKS_TO<\/data><\/edge>/,
  );
  // Every element closes: as many closing tags as opening ones, and nothing after the root.
  for (const tag of ['node', 'edge', 'graph'])
    assert.equal(graphml.stdout.split(`<${tag} `).length, graphml.stdout.split(`</${tag}>`).length, tag);
  assert.match(graphml.stdout, /<\/graphml>\n$/);
});

test('query: the governance questions, each answered as rows; exit 1 when there are rows, 2 for an unknown name', () => {
  const library = writeGovernanceLibrary();
  const list = runCli(library, 'query');
  assert.equal(list.status, 0);
  assert.match(list.stdout, /^unguarded-irreversible\n  Which steps act irreversibly/);
  const text = runCli(library, 'query', 'unguarded-irreversible', '.');
  assert.equal(text.status, 1);
  assert.equal(
    text.stdout,
    'Which steps act irreversibly with no approval or validation step before them?\n' +
      'skill        file                  step\n' +
      'deploy-site  deploy-site/SKILL.md  deploy-site\n',
  );
  const json = JSON.parse(runCli(library, 'query', 'shared-scripts', '--format', 'json').stdout) as {
    rows: { skill: string; path: string }[];
  };
  assert.deepEqual(
    json.rows.map((row) => [row.skill, row.path]),
    [
      ['deploy-site', 'scripts/deploy.sh'],
      ['release-site', 'scripts/push.sh'],
    ],
  );
  const none = runCli(library, 'query', 'routers-without-end', 'ship-docs');
  assert.deepEqual([none.status, none.stdout], [0, 'Which routers never reach an end step?\nNo rows.\n']);
  const unknown = runCli(library, 'query', 'shared-script');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /no query is named "shared-script"; the queries are unguarded-irreversible, /);
});

test('library --user-folders: the personal Claude Code skills join the library, and the one they shadow is reported', () => {
  const home = mkdtempSync(join(tmpdir(), 'sg-home-'));
  const project = mkdtempSync(join(tmpdir(), 'sg-project-'));
  const skill = (name: string) =>
    `---\nname: ${name}\ndescription: Deploys the app. Use when shipping.\n---\n\nShip it.\n`;
  mkdirSync(join(home, '.claude', 'skills', 'deploy'), { recursive: true });
  writeFileSync(join(home, '.claude', 'skills', 'deploy', 'SKILL.md'), skill('deploy'));
  mkdirSync(join(project, '.claude', 'skills', 'deploy'), { recursive: true });
  writeFileSync(join(project, '.claude', 'skills', 'deploy', 'SKILL.md'), skill('deploy'));
  const library = (...flags: string[]) => {
    const result = spawnSync(process.execPath, [CLI, 'library', '.', ...flags], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
    });
    return result.stdout;
  };
  assert.match(library(), /^1 skill, /);
  const withHome = library('--user-folders');
  assert.match(withHome, /^2 skills, /);
  assert.match(
    withHome,
    /^\.claude\/skills\/deploy\/SKILL\.md:2:7: warning: .*\[shadowed_skill\]$/m,
    'the project skill is the one Claude Code never lists',
  );
  assert.match(
    withHome,
    /^.+\.claude\/skills\/deploy\/SKILL\.md:2:7: warning: Claude Code loads this personal skill instead of the project's skill `deploy` .*\[shadowed_skill\]$/m,
    'the personal skill is told which skill it hides',
  );
  assert.equal(withHome.match(/\[shadowed_skill\]/g)?.length, 2);
});
