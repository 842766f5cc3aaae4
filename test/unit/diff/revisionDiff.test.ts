import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { toGraphJson } from '../../../server/src/forms/graphJson';
import { diffGraphs } from '../../../server/src/diff/graphDiff';
import { diffRevisions, type Revision } from '../../../server/src/diff/revisionDiff';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { filesUnder } from '../../support/corpus';

// diffRevisions analyses the second revision as an edit of the first, reusing what the language server keeps between
// keystrokes. Whatever it reuses, its answer must be the one two separate analyses give: for every example (every
// format), edited in ways that keep some of the text and change the rest, with the two revisions in two folders (a
// diff of two copies) and at one path (a diff of two commits).

const EXAMPLES = path.join(__dirname, '..', '..', '..', 'examples');

/** Every file under the examples, by its path relative to them. */
const FILES = filesUnder(EXAMPLES);
const SKILLS = Object.keys(FILES).filter((file) => path.basename(file) === 'SKILL.md');

/** A secret on a line both revisions hold unchanged: its finding is one the second analysis keeps from the first. */
// A token in GitHub's format (ghp_ and 36 characters), built here so no file holds one whole.
const SECRET = `\nexport GITHUB_TOKEN=${'gh'}p_R4nd0mT0k3nV4lu3Th4tL00ksR34l9xQ2w7K\n`;

/** Edits of a SKILL.md: each keeps most of the text and changes some of it. */
const EDITS: Record<string, (text: string) => string> = {
  unchanged: (text) => text,
  'a line added near the top': (text) => text.replace(/\n---\n/, '\n---\n\nA line added by the change.\n'),
  'the first step renamed': (text) => text.replace(/(\n\s*- (?:name|id): )/, '$1renamed-'),
  'a type changed': (text) => text.replace(/type: (string|object|integer)/, 'type: boolean'),
  'a stretch cut out': (text) =>
    text.slice(0, Math.floor(text.length * 0.4)) + text.slice(Math.floor(text.length * 0.6)),
};

function write(fs: MemoryFileSystem, root: string, skill: string, skillText: string): void {
  for (const [file, text] of Object.entries(FILES)) fs.write(path.join(root, file), file === skill ? skillText : text);
}

function revision(fs: MemoryFileSystem, root: string, skill: string): Revision {
  return { fs, file: path.join(root, skill), options: {}, shown: (file) => path.relative(root, file) };
}

/** What two analyses, each on its own, make of the two revisions. */
function separately(before: Revision, after: Revision) {
  const graph = (side: Revision) => toGraphJson(analyzeSkill(side.fs, side.file, side.options), side.shown);
  const [old, now] = [graph(before), graph(after)];
  return { before: old, after: now, diff: diffGraphs(old, now) };
}

for (const skill of SKILLS) {
  test(`the diff of revisions of ${path.dirname(skill)} is that of two separate analyses`, () => {
    const text = FILES[skill] + SECRET;
    for (const [name, edit] of Object.entries(EDITS)) {
      // Two folders on one disk, then one path on two disks.
      const copies = new MemoryFileSystem({});
      write(copies, '/before', skill, text);
      write(copies, '/after', skill, edit(text));
      const [oldDisk, newDisk] = [new MemoryFileSystem({}), new MemoryFileSystem({})];
      write(oldDisk, '/repo', skill, text);
      write(newDisk, '/repo', skill, edit(text));
      for (const [before, after] of [
        [revision(copies, '/before', skill), revision(copies, '/after', skill)],
        [revision(oldDisk, '/repo', skill), revision(newDisk, '/repo', skill)],
      ]) {
        const expected = separately(before, after);
        assert.ok(
          expected.after.problems.some((problem) => problem.code === 'committed_secret'),
          'the secret is found',
        );
        assert.deepEqual(diffRevisions(before, after), expected, `${name}, ${before.file} → ${after.file}`);
      }
    }
  });
}

test('a skill on one side only is added or removed whole', () => {
  const fs = new MemoryFileSystem({});
  write(fs, '/after', 'csv-report/SKILL.md', FILES['csv-report/SKILL.md']);
  const added = diffRevisions(undefined, revision(fs, '/after', 'csv-report/SKILL.md'));
  assert.equal(added.before, undefined);
  assert.ok(added.after && added.after.nodes.length > 0);
  assert.deepEqual(
    added.diff.nodes.map((node) => node.change),
    added.after.nodes.filter((node) => node.kind !== 'missing').map(() => 'added'),
  );
  const removed = diffRevisions(revision(fs, '/after', 'csv-report/SKILL.md'), undefined);
  assert.ok(removed.diff.nodes.length > 0 && removed.diff.nodes.every((node) => node.change === 'removed'));
});
