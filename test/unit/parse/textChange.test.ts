import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { PieceText } from '../../../server/src/parse/text/pieceText';
import { changedRegion } from '../../../server/src/parse/text/textChange';

/** The same answer, one character at a time. */
function reference(old: string, text: string): { before: number; after: number } {
  const limit = Math.min(old.length, text.length);
  let before = 0;
  while (before < limit && old[before] === text[before]) before++;
  let after = 0;
  while (after < limit - before && old[old.length - after - 1] === text[text.length - after - 1]) after++;
  return { before, after };
}

test('the shared start and end equal a character-by-character comparison', () => {
  let seed = 11;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % below;
  };
  const alphabet = 'ab\n';
  for (let round = 0; round < 400; round++) {
    // Long runs of one repeated block make the doubling and halving reach large sizes and fall back from them.
    const length = [0, 3, 700, 5000, 70000][random(5)];
    const old = Array.from({ length }, (_, index) =>
      random(50) === 0 ? alphabet[random(3)] : alphabet[index % 3],
    ).join('');
    const start = random(old.length + 1);
    const end = Math.min(old.length, start + random(2000));
    const inserted = Array.from({ length: random(4) === 0 ? 0 : random(1500) }, () => alphabet[random(3)]).join('');
    const text = old.slice(0, start) + inserted + old.slice(end);
    assert.deepEqual(
      changedRegion(old, text),
      reference(old, text),
      `round ${round}: ${old.length} → ${text.length}, at ${start}`,
    );
    // The server's texts: the pieces an edit did not touch are skipped whole.
    const pieces = PieceText.of(old, 97);
    assert.deepEqual(
      changedRegion(pieces, pieces.edited(start, end, inserted)),
      reference(old, text),
      `round ${round}, in pieces`,
    );
  }
});

test('texts that are prefixes of each other share no more than the shorter one', () => {
  assert.deepEqual(changedRegion('aaa', 'aaaa'), { before: 3, after: 0 });
  assert.deepEqual(changedRegion('x'.repeat(2000), 'x'.repeat(1000)), { before: 1000, after: 0 });
  assert.deepEqual(changedRegion('', 'abc'), { before: 0, after: 0 });
  assert.deepEqual(changedRegion('same', 'same'), { before: 4, after: 0 });
});
