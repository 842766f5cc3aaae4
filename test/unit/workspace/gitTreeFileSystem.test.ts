import * as assert from 'node:assert/strict';
import { rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { GitTreeFileSystem } from '../../../server/src/workspace/gitTreeFileSystem';
import { commitAll, repository, writeIn } from '../../support/cliRun';

// A revision's files read from git: in batches (one `git cat-file --batch` for a folder's files, or for every file
// under the folders `diff` names), each file's bytes exactly as committed, whatever they hold.

/** Every byte value, line breaks and NULs among them: a batch's parser must not split or stop on them. */
const BINARY = Uint8Array.from({ length: 600 }, (_, index) => (index * 7) % 256);
/** Over the size read ahead with other files (4 MiB): read when asked for, on its own. */
const LARGE = 'x'.repeat(4 * 1024 * 1024 + 10);

const COMMITTED: Record<string, string | Uint8Array> = {
  'skill/SKILL.md': '---\nname: skill\ndescription: A skill.\n---\n\nBody.\n',
  'skill/scripts/run.py': 'print("run")\n',
  'skill/scripts/blob.bin': BINARY,
  'skill/empty.txt': '',
  'skill/references/guide.md': '# Guide\n\nLine\n\n\nbreaks.\n',
  'other/large.txt': LARGE,
  'top.txt': 'top\n',
};

function committedRepository(): string {
  const root = repository(COMMITTED, 'sg-git-tree-');
  symlinkSync('../top.txt', path.join(root, 'skill', 'link.txt'));
  commitAll(root, 'files');
  // The working tree moves on: what is read must be the revision's.
  for (const relative of Object.keys(COMMITTED)) writeIn(root, relative, 'changed since\n');
  return root;
}

const bytesOf = (content: string | Uint8Array) =>
  typeof content === 'string' ? new TextEncoder().encode(content) : content;

function assertReadsCommitted(tree: GitTreeFileSystem, root: string, when: string): void {
  for (const [relative, content] of Object.entries(COMMITTED)) {
    const read = tree.readWithin(path.join(root, relative), Infinity);
    assert.equal(read.kind, 'bytes', `${relative} ${when}`);
    assert.deepEqual(read.kind === 'bytes' ? [...read.bytes] : [], [...bytesOf(content)], `${relative} ${when}`);
  }
}

test('each file reads as committed, read lazily (a folder at a time) or ahead (every file under a folder)', () => {
  const root = committedRepository();
  try {
    assertReadsCommitted(GitTreeFileSystem.at(root, 'HEAD')!, root, 'read lazily');
    const ahead = GitTreeFileSystem.at(root, 'HEAD')!;
    ahead.readAheadUnder([path.join(root, 'skill'), path.join(root, 'other')]);
    assertReadsCommitted(ahead, root, 'after reading ahead');
    // The same tree read again (a skill's hash after its analysis) gives the same bytes.
    assertReadsCommitted(ahead, root, 'read a second time');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('limits, links and absent files hold as on disk: too large, never followed, missing', () => {
  const root = committedRepository();
  try {
    const tree = GitTreeFileSystem.at(root, 'HEAD')!;
    tree.readAheadUnder([root]);
    assert.deepEqual(tree.readWithin(path.join(root, 'skill', 'scripts', 'run.py'), 4), {
      kind: 'too_large',
      size: 13,
    });
    assert.equal(tree.stat(path.join(root, 'skill', 'link.txt'))?.kind, 'symlink');
    assert.deepEqual(tree.readWithin(path.join(root, 'skill', 'link.txt'), Infinity), { kind: 'missing' });
    assert.deepEqual(tree.readWithin(path.join(root, 'skill', 'absent.md'), Infinity), { kind: 'missing' });
    assert.deepEqual(
      tree
        .readDirectory(path.join(root, 'skill'))
        .map((entry) => entry.name)
        .sort(),
      ['SKILL.md', 'empty.txt', 'link.txt', 'references', 'scripts'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
