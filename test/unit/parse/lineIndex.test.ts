import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineIndex } from '../../../server/src/parse/text/lineIndex';

test('positions count UTF-16 units and treat CRLF as one break', () => {
  const text = 'ab\r\nc😀d\ne';
  const index = new LineIndex(text);
  assert.deepEqual(index.positionAt(0), { line: 0, character: 0 });
  assert.deepEqual(index.positionAt(4), { line: 1, character: 0 });
  assert.deepEqual(index.positionAt(text.indexOf('d')), { line: 1, character: 3 });
  assert.deepEqual(index.positionAt(text.length), { line: 2, character: 1 });
  assert.equal(index.offsetAt({ line: 1, character: 3 }), text.indexOf('d'));
});

test('offsets outside the text are clamped', () => {
  const index = new LineIndex('x\ny');
  assert.deepEqual(index.positionAt(-5), { line: 0, character: 0 });
  assert.deepEqual(index.positionAt(99), { line: 1, character: 1 });
  assert.equal(index.offsetAt({ line: 9, character: 0 }), 3);
});

test('an index made from an earlier version equals one made from scratch', () => {
  // A seeded generator: the same edits on every run.
  let seed = 7;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % below;
  };
  const pieces = ['\n', '\r\n', 'a', 'bc', '😀', '\n\n', ' x\ny\n'];
  let text = 'first\nsecond\r\nthird\n';
  let index = new LineIndex(text);
  for (let round = 0; round < 600; round++) {
    const start = random(text.length + 1);
    const end = Math.min(text.length, start + random(6));
    const inserted = Array.from({ length: random(3) }, () => pieces[random(pieces.length)]).join('');
    text = text.slice(0, start) + inserted + text.slice(end);
    index = LineIndex.after(index, text);
    const fresh = new LineIndex(text);
    for (let offset = 0; offset <= text.length; offset++)
      assert.deepEqual(index.positionAt(offset), fresh.positionAt(offset), `round ${round}, offset ${offset}`);
    const lines = fresh.positionAt(text.length).line;
    for (let line = 0; line <= lines + 1; line++)
      assert.equal(index.offsetAt({ line, character: 1 }), fresh.offsetAt({ line, character: 1 }));
  }
});

test('an index of the same text is the earlier one', () => {
  const earlier = new LineIndex('a\nb');
  assert.equal(LineIndex.after(earlier, 'a\nb'), earlier);
  assert.deepEqual(LineIndex.after(undefined, 'a\nb').positionAt(2), { line: 1, character: 0 });
});

test('positions asked in any order equal the lines counted in the text (the index starts from the last one asked)', () => {
  // Lines of every length, so the next offset is on the same line, a few lines on, many lines on, or before.
  const text = Array.from({ length: 300 }, (_, line) => 'x'.repeat(line % 13)).join('\n');
  const counted = (offset: number) => {
    const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length - 1, character: before.length - lineStart };
  };
  let seed = 11;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % below;
  };
  const index = new LineIndex(text);
  let offset = 0;
  for (let round = 0; round < 3000; round++) {
    // Up to a step ahead or back, or outside the text (clamped).
    const step = [1, 5, 40, 400, -3, -400][random(7)];
    if (step === undefined) offset = random(2) === 0 ? -5 : text.length + 5;
    else offset = Math.max(0, Math.min(text.length, offset + Math.sign(step) * random(Math.abs(step) + 1)));
    assert.deepEqual(index.positionAt(offset), counted(offset), `round ${round}, offset ${offset}`);
  }
});
