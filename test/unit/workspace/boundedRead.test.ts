import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { AnalysisFileSystem, ListingCache } from '../../../server/src/workspace/diskSnapshot';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { OverlayFileSystem } from '../../../server/src/workspace/overlayFileSystem';
import { readText } from '../../../server/src/workspace/readText';

const dir = mkdtempSync(path.join(tmpdir(), 'sg-bounded-'));
const at = (name: string) => path.join(dir, name);
writeFileSync(at('ten.txt'), '0123456789');
writeFileSync(at('empty.txt'), '');
symlinkSync(at('ten.txt'), at('link.txt'));
mkdirSync(at('folder.md'));
execFileSync('mkfifo', [at('pipe.md')]);

test('a bounded read on disk: the bytes up to the limit, the size past it, missing for anything but a regular file', () => {
  const disk = new NodeFileSystem();
  const text = (read: ReturnType<NodeFileSystem['readWithin']>) =>
    read.kind === 'bytes' ? Buffer.from(read.bytes).toString('utf8') : read;
  assert.equal(text(disk.readWithin(at('ten.txt'), 10)), '0123456789');
  assert.deepEqual(disk.readWithin(at('ten.txt'), 9), { kind: 'too_large', size: 10 });
  assert.equal(text(disk.readWithin(at('empty.txt'), 10)), '');
  // A link is measured by its target, not by the link itself (lstat's size is the target's path length).
  assert.equal(text(disk.readWithin(at('link.txt'), 10)), '0123456789');
  assert.deepEqual(disk.readWithin(at('link.txt'), 9), { kind: 'too_large', size: 10 });
  assert.deepEqual(disk.readWithin(at('folder.md'), 10), { kind: 'missing' });
  assert.deepEqual(disk.readWithin(at('gone.md'), 10), { kind: 'missing' });
  // A pipe with no writer: reading it would wait forever; it is not a file to read.
  assert.deepEqual(disk.readWithin(at('pipe.md'), 10), { kind: 'missing' });
  assert.deepEqual(readText(disk, at('pipe.md')), { kind: 'missing' });
  // Reading whole bytes is the same read without a bound.
  assert.equal(Buffer.from(disk.readFile(at('link.txt'))!).toString('utf8'), '0123456789');
  assert.equal(disk.readFile(at('empty.txt'))?.byteLength, 0);
  for (const other of ['pipe.md', 'folder.md', 'gone.md']) assert.equal(disk.readFile(at(other)), undefined, other);
});

test('every file system answers a bounded read as the disk does, and a snapshot reads a file once for both readers', () => {
  const files = { '/s/ten.txt': '0123456789', '/s/empty.txt': '' };
  const memory = new MemoryFileSystem(files);
  const overlay = new OverlayFileSystem(
    new MemoryFileSystem({ '/s/ten.txt': 'stale' }),
    new Map([['/s/ten.txt', '0123456789']]),
  );
  for (const [label, fs] of [
    ['memory', memory],
    ['overlay', overlay],
    ['listing cache', new ListingCache(memory)],
    ['snapshot', new AnalysisFileSystem(memory)],
  ] as const) {
    assert.equal(
      Buffer.from((fs.readWithin('/s/ten.txt', 10) as { bytes: Uint8Array }).bytes).toString('utf8'),
      '0123456789',
      label,
    );
    assert.deepEqual(fs.readWithin('/s/ten.txt', 9), { kind: 'too_large', size: 10 }, label);
    assert.deepEqual(fs.readWithin('/s/gone.txt', 9), { kind: 'missing' }, label);
  }
  let reads = 0;
  const counting = new MemoryFileSystem(files);
  const readWithin = counting.readWithin.bind(counting);
  counting.readWithin = (file, max) => (reads++, readWithin(file, max));
  const snapshot = new AnalysisFileSystem(counting);
  snapshot.readWithin('/s/ten.txt', 100);
  assert.equal(Buffer.from(snapshot.readFile('/s/ten.txt')!).toString('utf8'), '0123456789');
  assert.deepEqual(snapshot.readWithin('/s/ten.txt', 9), { kind: 'too_large', size: 10 });
  assert.equal(reads, 1);
});
