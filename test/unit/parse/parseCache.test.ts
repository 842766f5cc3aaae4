import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ParseCache } from '../../../server/src/parse/parseCache';
import { parsePython } from '../../../server/src/parse/python/python';
import { random } from '../../support/random';

const FLOW = readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'trip-planner', 'flow.py'), 'utf8');

test('a Python file parsed again after an edit gives the tree a parse from scratch gives', () => {
  const cache = new ParseCache();
  const next = random(7);
  const pieces = ['x', '"', '(', ')', ':', '\n', '    ', 'with flow.loop("l", max_rounds=2):\n', ',', '#', '\\'];
  let text = FLOW;
  let previous = cache.python('/p/flow.py', text);
  for (let edit = 0; edit < 300; edit++) {
    const at = Math.floor(next() * (text.length + 1));
    const before = text;
    text =
      next() < 0.4
        ? text.slice(0, at) + text.slice(Math.min(text.length, at + Math.floor(next() * 12)))
        : text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
    const incremental = cache.python('/p/flow.py', text);
    if (text !== before) assert.notEqual(incremental, previous);
    const fresh = parsePython('/p/flow.py', text);
    assert.equal(incremental.tree.toString(), fresh.tree.toString(), `edit ${edit}`);
    assert.deepEqual(incremental.errors, fresh.errors, `edit ${edit}`);
    previous = incremental;
  }
  // The same text is the same syntax, not a new parse.
  assert.equal(cache.python('/p/flow.py', text), previous);
});

test("a memo is reused while the file's text is the same, and read again when it changes", () => {
  const cache = new ParseCache();
  let reads = 0;
  const read = () => ({ read: ++reads });
  const first = cache.memo('tip', '/p/references/a.md', 'one', read);
  assert.equal(cache.memo('tip', '/p/references/a.md', 'one', read), first);
  assert.notEqual(cache.memo('tip', '/p/references/a.md', 'two', read), first);
  // Another kind of reading of the same file is its own memo.
  cache.memo('rule', '/p/references/a.md', 'two', read);
  assert.equal(reads, 3);
});
