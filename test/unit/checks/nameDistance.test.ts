import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { closestName, editDistance } from '../../../server/src/checks/match/nameDistance';

/** Optimal string alignment over the whole table, as the textbook writes it: what editDistance must agree with. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

test('edit distance: a swap of neighbours is one edit, and past the limit the answer is limit + 1', () => {
  assert.equal(editDistance('reveiw', 'review', 2), 1);
  assert.equal(editDistance('kitten', 'sitting', 3), 3);
  assert.equal(editDistance('kitten', 'sitting', 2), 3, 'stopped at the limit');
  assert.equal(editDistance('', 'ab', 2), 2);
  assert.equal(editDistance('step-0050', 'step-0050-renamed', 2), 3, 'lengths too far apart');
});

test('edit distance agrees with the whole table on names of every length, in any order of calls', () => {
  // The rows are kept between calls and grow for a long name: short and long names, one after another, catch a row
  // left over from the call before.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const name = () => Array.from({ length: Math.floor(random() * 70) }, () => 'abc-'[Math.floor(random() * 4)]).join('');
  // One or two edits of a name keep most of its start and end, which the distance skips: a swap or a change beside
  // what is skipped must still be counted.
  const edited = (a: string) => {
    let b = a;
    for (let edits = 1 + Math.floor(random() * 2); edits > 0; edits--) {
      const at = Math.floor(random() * (b.length + 1));
      const letter = 'abc-'[Math.floor(random() * 4)];
      const kind = Math.floor(random() * 4);
      if (kind === 0) b = b.slice(0, at) + letter + b.slice(at);
      else if (kind === 1) b = b.slice(0, at) + b.slice(at + 1);
      else if (kind === 2) b = b.slice(0, at) + letter + b.slice(at + 1);
      else b = b.slice(0, at) + b.slice(at + 1, at + 2) + b.slice(at, at + 1) + b.slice(at + 2);
    }
    return b;
  };
  for (let round = 0; round < 2000; round++) {
    const a = name();
    const b = random() < 0.5 ? name() : edited(a);
    const limit = Math.floor(random() * 5);
    const expected = reference(a, b);
    assert.equal(editDistance(a, b, limit), expected > limit ? limit + 1 : expected, `${a} / ${b} within ${limit}`);
  }
});

test('the closest name: same once separators and case are folded, else the nearest within the limit', () => {
  assert.equal(closestName('lc_path', ['LcPath', 'lc-pat']), 'LcPath');
  assert.equal(closestName('step-0050', ['step-0050-renamed', 'step-0051', 'step-1234']), 'step-0051');
  assert.equal(closestName('deploy', ['publish', 'review']), undefined);
  // Folded whole: white space and dots are separators too, letters beyond ASCII are lowered, and the folded candidate
  // must be the name, not begin or end it.
  assert.equal(closestName('my step', ['My.Step\t']), 'My.Step\t');
  assert.equal(closestName('ärger-x', ['Ärger_X']), 'Ärger_X');
  assert.equal(closestName('a-b-c-d-e-f-g-h', ['ABCDEFGHZ', 'ABCDEFG', 'Xabcdefgh']), undefined);
});
