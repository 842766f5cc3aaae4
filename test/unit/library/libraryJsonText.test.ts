import * as assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { shownPath } from '../../../server/src/cli/output';
import { readSkillPart } from '../../../server/src/cli/libraryThreads';
import { libraryJsonText, partJson } from '../../../server/src/library/libraryExport';
import { joinedGraph, type SkillGraphPart } from '../../../server/src/library/libraryGraph';
import { linkLibrary } from '../../../server/src/library/libraryModel';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { writeGovernanceLibrary } from '../../support/governanceLibrary';

const fs = new NodeFileSystem();
const governance = writeGovernanceLibrary();
after(() => rmSync(governance, { recursive: true, force: true }));

/** Every SKILL.md under `root`, in name order. */
function skillFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => path.basename(name) === 'SKILL.md')
    .sort()
    .map((name) => path.join(root, name));
}

test("the JSON export put together from the skills' texts is the graph joined from their parts, item for item", () => {
  const files = [...skillFiles(governance), ...skillFiles(path.join(__dirname, '../../../examples'))];
  const read = files.map((file) => readSkillPart(fs, file, { home: governance, form: 'objects' })!);
  const library = linkLibrary(read.map((found) => found.skill));
  const parts = read.map((found) => found.part as SkillGraphPart);
  const graph = joinedGraph(library, parts, shownPath);
  const findings = [{ code: 'example' }];
  const text = [...libraryJsonText(library, parts.map(partJson), shownPath, { findings })].join('');
  // The document each form describes: nodes by label and properties, relationships whole, then what was added.
  const expected = {
    version: 2,
    nodes: graph.nodes.map(({ label, properties }) => ({ label, properties })),
    relationships: graph.relationships.map(({ type, from, to, properties }) => ({ type, from, to, properties })),
    findings,
  };
  assert.equal(text, JSON.stringify(expected));
  const count = (type: string) => graph.relationships.filter((relationship) => relationship.type === type).length;
  // What makes this library a test of the joining: a script two skills hold (written once), relationships within
  // skills and between them.
  const scripts = graph.nodes.filter((node) => node.label === 'Script').map((node) => node.key);
  assert.equal(new Set(scripts).size, scripts.length, 'each script once');
  const held = parts.flatMap((part) => part.scripts.map((script) => script.key));
  assert.ok(held.length > scripts.length, 'a script held by two skills');
  for (const type of ['HAS_STEP', 'FEEDS', 'RUNS', 'COMPOSES', 'INVOKES', 'LINKS_TO']) assert.ok(count(type) > 0, type);
});
