import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineIndex } from '../../../server/src/parse/lineIndex';

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
