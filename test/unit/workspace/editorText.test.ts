import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeText, editorText } from '../../../server/src/workspace/readText';
import { random } from '../../helpers/random';

// The server reads an editor's buffer as a string; it must read it exactly as
// the same text encoded to bytes is read from disk: binary when a NUL falls
// in the first 8,000 bytes, the byte-order mark stripped and reported, lone
// surrogates (which UTF-8 cannot hold) read as U+FFFD.

const viaBytes = (text: string) => decodeText(new TextEncoder().encode(text));

test('an editor buffer reads as its UTF-8 bytes read: NUL probe by bytes, BOM, lone surrogates', () => {
  const cases = [
    'plain text\n',
    '\ufeff---\nname: x\n---\n',
    'a\0b',
    // The NUL is character 5,000 but byte 10,000: past the probe, so text.
    `${'é'.repeat(5000)}\0`,
    `${'é'.repeat(3999)}\0`,
    'lone \ud800 high and \udc00 low surrogates',
    '\ufeff\ud83d\ude00 a pair is kept',
    '',
  ];
  for (const text of cases) assert.deepEqual(editorText(text), viaBytes(text), JSON.stringify(text.slice(0, 40)));
  assert.equal(editorText(`${'é'.repeat(3999)}\0`).kind, 'binary');
  assert.equal(editorText(`${'é'.repeat(5000)}\0`).kind, 'text');

  const alphabet = ['a', '\n', 'é', '€', '\ud83d\ude00', '\ud800', '\udfff', '\0', '\ufeff', ' '];
  const next = random(42);
  for (let round = 0; round < 300; round++) {
    const length = Math.floor(next() * 6000);
    let text = '';
    for (let i = 0; i < length; i++) text += next() < 0.9 ? 'a' : alphabet[Math.floor(next() * alphabet.length)];
    assert.deepEqual(editorText(text), viaBytes(text), `random text ${round}`);
  }
});
