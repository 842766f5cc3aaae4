import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { checkLibrary } from '../../server/src/library/libraryChecks';
import { buildLibrary } from '../../server/src/library/libraryModel';
import { LineIndex } from '../../server/src/parse/text/lineIndex';
import { discoverSkills } from '../../server/src/workspace/discover';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { CORPUS } from '../support/corpus';
import { expectationRows } from '../support/expectationTable';

// The library checks on real libraries: the whole corpus as one, and each repository of it as its own. Their findings
// are the rows of expected-library.md, and what the skills say of each other resolves.

const fs = new NodeFileSystem();

function libraryOf(root: string) {
  return buildLibrary(
    fs,
    discoverSkills(fs, [root], root).skills.map((skill) => skill.file),
    '/nonexistent-home',
  );
}

function found(root: string): string[] {
  return checkLibrary(libraryOf(root)).map((item) => {
    const line = new LineIndex(readFileSync(item.file, 'utf8')).positionAt(item.span.start).line + 1;
    return `${relative(CORPUS, item.file)} ${item.code} ${line}`;
  });
}

test('library precision: the corpus as one library and each repository as its own report exactly the rows of expected-library.md', () => {
  const repositories = readdirSync(CORPUS)
    .filter((family) => statSync(join(CORPUS, family)).isDirectory())
    .flatMap((family) =>
      readdirSync(join(CORPUS, family))
        .map((repository) => join(CORPUS, family, repository))
        .filter((dir) => statSync(dir).isDirectory()),
    );
  assert.ok(repositories.length >= 10, `${repositories.length} repositories`);
  const all = new Set([...found(CORPUS), ...repositories.flatMap(found)]);
  assert.deepEqual([...all].sort(), expectationRows(join(__dirname, 'expected-library.md')));
});

test('what the corpus skills say of each other resolves: the superpowers skills invoke each other by plugin name', () => {
  const library = libraryOf(CORPUS);
  assert.ok(library.skills.length >= 70, `${library.skills.length} skills`);
  const invocations = library.edges.filter((edge) => edge.kind === 'plugin');
  const names = (file: string) => library.skills.find((skill) => skill.file === file)!.name;
  assert.ok(
    invocations.some(
      (edge) => names(edge.from) === 'writing-plans' && names(edge.to) === 'subagent-driven-development',
    ),
    'writing-plans names superpowers:subagent-driven-development',
  );
  assert.ok(invocations.length >= 10, `${invocations.length} invocations`);
  // Each plugin-named mention of a superpowers skill the corpus holds resolves to it.
  assert.deepEqual(
    library.unresolved
      .filter(({ mention }) => mention.plugin === 'superpowers')
      .map(({ mention }) => mention.name)
      .filter((name) => library.byName.has(name)),
    [],
  );
});
