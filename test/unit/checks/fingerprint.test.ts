import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprintOf, ownText, shownText } from '../../../server/src/rules/fingerprint';
import { BaselineMatch, readBaseline, updatedBaseline } from '../../../server/src/config/baseline';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';

test('own text: the span with blanks made one space; a point or a character or two stands for its line', () => {
  const text = 'intro\nRead   `references/a.md`\nname: x: y\n';
  const start = text.indexOf('references');
  assert.equal(ownText(text, { start, end: start + 'references/a.md'.length }), 'references/a.md');
  assert.equal(ownText(text, { start: text.indexOf('Read'), end: text.indexOf('.md`') }), 'Read `references/a');
  const colon = text.indexOf(': y');
  assert.equal(ownText(text, { start: colon, end: colon + 1 }), 'name: x: y');
  assert.equal(ownText(text, { start: 0, end: 0 }), 'intro');
  // Long text: its start and a hash of the whole, so two long texts that share a start differ.
  const long = (end: string) => `${'word '.repeat(40)}${end}`;
  assert.notEqual(shownText(long('a')), shownText(long('b')));
  assert.ok(shownText(long('a')).length <= 80);
  assert.equal(fingerprintOf({ code: 'missing_file' }, 'references/a.md'), 'missing_file:references/a.md');
});

test('a baseline: entries counted per file; malformed entries left out; updating keeps what was not checked', () => {
  const fs = new MemoryFileSystem({
    '/repo/b.json': JSON.stringify({
      version: 1,
      findings: [
        { file: 'x/SKILL.md', code: 'missing_file', text: 'references/a.md', count: 2 },
        { file: 'y/SKILL.md', code: 'missing_file', text: 'references/b.md', count: 0 },
        { file: 'y/SKILL.md', code: 'missing_file' },
      ],
    }),
  });
  const read = readBaseline(fs, '/repo/b.json');
  assert.ok(!('error' in read));
  assert.equal(read.entries.length, 1);
  const match = new BaselineMatch(read);
  const key = 'missing_file:references/a.md';
  assert.deepEqual(
    [1, 2, 3].map(() => match.accepts('/repo/x/SKILL.md', key)),
    [true, true, false],
  );
  assert.equal(match.accepts('/repo/y/SKILL.md', key), false);
  assert.deepEqual([match.matched, match.stale()], [2, 0]);
  assert.deepEqual(readBaseline(fs, '/repo/none.json'), { file: '/repo/none.json', entries: [] });
  fs.write('/repo/bad.json', '{ nope');
  assert.match((readBaseline(fs, '/repo/bad.json') as { error: string }).error, /is not JSON/);
  const updated = updatedBaseline(read, (file) => file.startsWith('/repo/z/'), [
    { file: '/repo/z/SKILL.md', fingerprint: 'unquoted_colon:description: a: b' },
  ]);
  assert.deepEqual(
    updated.entries.map((entry) => [entry.file, entry.code, entry.text, entry.count]),
    [
      ['x/SKILL.md', 'missing_file', 'references/a.md', 2],
      ['z/SKILL.md', 'unquoted_colon', 'description: a: b', 1],
    ],
  );
});
