import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { discoverSkills } from '../../../server/src/workspace/discover';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';

// Which SKILL.md files are skills: a folder whose SKILL.md has frontmatter is one, with everything below it as its
// files; a SKILL.md without frontmatter is an index when skills are below it, and a skill (to be told it lacks
// frontmatter) when none are.

const ROOT = '/work';
const headed = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name}. Use when testing discovery.\n---\n# ${name}\n`;
const UNHEADED = '# Notes\n\nNo frontmatter here.\n';

function tree(files: Record<string, string>): MemoryFileSystem {
  return new MemoryFileSystem(
    Object.fromEntries(Object.entries(files).map(([relative, text]) => [path.join(ROOT, relative), text])),
  );
}

/** The SKILL.md files found, relative to the root. */
function found(fs: MemoryFileSystem, args: string[] = [ROOT]): string[] {
  return discoverSkills(fs, args, ROOT).skills.map((skill) => path.relative(ROOT, skill.file));
}

test('a SKILL.md inside a skill with frontmatter (its template, its example) is one of its files, not a skill', () => {
  const fs = tree({
    'writer/SKILL.md': headed('writer'),
    'writer/templates/SKILL.md': '---\nname: {{name}}\ndescription: {{description}}\n---\n',
    'writer/examples/demo/SKILL.md': headed('demo'),
    'writer/examples/demo/deeper/SKILL.md': UNHEADED,
    'reader/SKILL.md': headed('reader'),
  });
  assert.deepEqual(found(fs), ['reader/SKILL.md', 'writer/SKILL.md']);
});

test('a SKILL.md without frontmatter with skills below it is their index: the skills are listed, it is not', () => {
  const fs = tree({
    'SKILL.md': UNHEADED,
    'pdf/SKILL.md': headed('pdf'),
    'office/SKILL.md': UNHEADED,
    'office/docx/SKILL.md': headed('docx'),
    'office/xlsx/SKILL.md': UNHEADED,
  });
  // `office/xlsx` has nothing below it: a skill whose frontmatter is missing, not an index.
  assert.deepEqual(found(fs), ['office/docx/SKILL.md', 'office/xlsx/SKILL.md', 'pdf/SKILL.md']);
});

test('a SKILL.md without frontmatter and nothing below it is still a skill, so its missing frontmatter is reported', () => {
  const fs = tree({ 'draft/SKILL.md': UNHEADED, 'draft/scripts/run.py': 'print("x")\n' });
  assert.deepEqual(found(fs), ['draft/SKILL.md']);
});

test('a SKILL.md that cannot be read as text counts as a skill: its files are its own, and its finding says why', () => {
  const fs = tree({ 'binary/SKILL.md': '', 'binary/parts/SKILL.md': headed('parts') });
  fs.write(path.join(ROOT, 'binary', 'SKILL.md'), new Uint8Array([0x2d, 0x00, 0x01]));
  assert.deepEqual(found(fs), ['binary/SKILL.md']);
});

test('test fixtures and folders named `_…` are left out of the walk', () => {
  const fs = tree({
    'lint/SKILL.md': UNHEADED,
    'lint/fixtures/bad/SKILL.md': headed('bad'),
    'tools/__fixtures__/a/SKILL.md': headed('a'),
    'tools/testdata/b/SKILL.md': headed('b'),
    'tools/test-fixtures/c/SKILL.md': headed('c'),
    'tools/test_fixtures/d/SKILL.md': headed('d'),
    '_template/SKILL.md': headed('template'),
    'skills/_archive/old/SKILL.md': headed('old'),
    'skills/kept/SKILL.md': headed('kept'),
  });
  // With its fixture skipped, `lint` has no skill below it: a skill of its own, not an index.
  assert.deepEqual(found(fs), ['lint/SKILL.md', 'skills/kept/SKILL.md']);
});

test('a SKILL.md given as an argument is checked wherever it is: inside a skill, a fixture or a `_` folder', () => {
  const fs = tree({
    'writer/SKILL.md': headed('writer'),
    'writer/examples/demo/SKILL.md': headed('demo'),
    'writer/fixtures/bad/SKILL.md': headed('bad'),
    '_template/SKILL.md': headed('template'),
  });
  assert.deepEqual(found(fs, ['writer/examples/demo/SKILL.md', 'writer/fixtures/bad/SKILL.md', '_template/SKILL.md']), [
    '_template/SKILL.md',
    'writer/examples/demo/SKILL.md',
    'writer/fixtures/bad/SKILL.md',
  ]);
  // Beside the folder of the skill that holds it, once each.
  assert.deepEqual(found(fs, ['writer', 'writer/examples/demo/SKILL.md']), [
    'writer/examples/demo/SKILL.md',
    'writer/SKILL.md',
  ]);
});

test('a file argument belongs to the outermost skill with frontmatter above it, not to a SKILL.md nested in it', () => {
  const fs = tree({
    'writer/SKILL.md': headed('writer'),
    'writer/examples/demo/SKILL.md': headed('demo'),
    'writer/examples/demo/scripts/x.py': 'print("x")\n',
    'index/SKILL.md': UNHEADED,
    'index/README.md': '# Index\n',
    'index/pdf/SKILL.md': UNHEADED,
    'index/pdf/scripts/y.py': 'print("y")\n',
  });
  const discovery = discoverSkills(
    fs,
    ['writer/examples/demo/scripts/x.py', 'index/pdf/scripts/y.py', 'index/README.md'],
    ROOT,
  );
  // `index/pdf` has no frontmatter above it: the nearest SKILL.md, a skill with nothing below it; `index`'s own
  // README belongs to an index, which is no skill.
  assert.deepEqual(
    discovery.skills.map((skill) => skill.display),
    ['index/pdf/SKILL.md', 'writer/SKILL.md'],
  );
  assert.deepEqual(discovery.outside, ['index/README.md']);
});

test('a folder reached both plainly and through a link inside another skill is met at its own place', () => {
  const fs = tree({ 'b/SKILL.md': headed('b'), 'z/SKILL.md': headed('z') });
  // `z` is walked first (a stack, last listed first): its link must not make `b` one of z's files.
  fs.symlink(path.join(ROOT, 'z', 'shared'), '../b');
  fs.symlink(path.join(ROOT, 'z', 'loop'), '..');
  assert.deepEqual(found(fs), ['b/SKILL.md', 'z/SKILL.md']);
});

test('the SKILL.md files whose frontmatter decided which files below them are skills are named', () => {
  const fs = tree({
    'index/SKILL.md': UNHEADED,
    'index/pdf/SKILL.md': headed('pdf'),
    'index/pdf/examples/demo/SKILL.md': headed('demo'),
    'leaf/SKILL.md': headed('leaf'),
  });
  assert.deepEqual(
    discoverSkills(fs, [ROOT], ROOT)
      .enclosing.map((file) => path.relative(ROOT, file))
      .sort(),
    ['index/SKILL.md', 'index/pdf/SKILL.md'],
  );
});
