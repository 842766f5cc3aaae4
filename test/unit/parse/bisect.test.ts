import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstNotBefore } from '../../../server/src/parse/text/bisect';
import { random } from '../../support/random';

test('firstNotBefore finds what a scan from the start finds, at every boundary', () => {
  const next = random(11);
  for (let round = 0; round < 500; round++) {
    const list = Array.from({ length: Math.floor(next() * 20) }, () => Math.floor(next() * 10)).sort((a, b) => a - b);
    const sought = Math.floor(next() * 12) - 1;
    const scanned = list.findIndex((item) => item >= sought);
    assert.equal(
      firstNotBefore(list.length, (index) => list[index] < sought),
      scanned === -1 ? list.length : scanned,
      `${sought} in [${list}]`,
    );
  }
});
