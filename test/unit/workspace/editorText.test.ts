import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnalysisFileSystem } from '../../../server/src/workspace/diskSnapshot';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { OverlayFileSystem } from '../../../server/src/workspace/overlayFileSystem';
import { decodeText, editorText, MAX_TEXT_BYTES, readText } from '../../../server/src/workspace/readText';
import { random } from '../../support/random';

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

test('a file open in the editor (another file of the skill, its text unsaved) reads as its bytes on disk would, links followed as on disk', () => {
  const texts = [
    'plain text\n',
    '\ufeffstate = 1\n',
    'a\0b',
    'lone \ud800 surrogate',
    '',
    'x'.repeat(MAX_TEXT_BYTES + 1),
    `${'é'.repeat(MAX_TEXT_BYTES / 2 - 1)}ab`,
  ];
  for (const text of texts) {
    const label = JSON.stringify(text.slice(0, 30));
    const saved = new MemoryFileSystem({ '/skill/state.py': new TextEncoder().encode(text) });
    const unsaved = new OverlayFileSystem(
      new MemoryFileSystem({ '/skill/state.py': 'what the disk holds\n' }),
      new Map([['/skill/state.py', text]]),
    );
    // As the analysis reads it: through its snapshot of the overlay.
    assert.deepEqual(
      readText(new AnalysisFileSystem(unsaved), '/skill/state.py'),
      readText(saved, '/skill/state.py'),
      label,
    );
    assert.deepEqual(unsaved.stat('/skill/state.py')?.size, saved.stat('/skill/state.py')?.size, label);
    assert.deepEqual(
      unsaved.readFile('/skill/state.py'),
      saved.readFile('/skill/state.py'),
      `${label}: bytes for readers of bytes`,
    );
  }
  // The largest text holds two-byte characters: 4 MB + 2 bytes, over the limit by its bytes though not by its length.
  const big = new OverlayFileSystem(
    new MemoryFileSystem({}),
    new Map([['/skill/big.py', `${'é'.repeat(MAX_TEXT_BYTES / 2 - 1)}abc`]]),
  );
  assert.deepEqual(readText(big, '/skill/big.py'), { kind: 'too_large', size: MAX_TEXT_BYTES + 1 });
  // A link is followed as on disk, to the open text of its target; a file not open reads from the disk.
  const disk = new MemoryFileSystem({ '/skill/flow.py': 'on disk\n', '/skill/other.py': 'other\n' });
  disk.symlink('/skill/alias.py', '/skill/flow.py');
  const open = new OverlayFileSystem(disk, new Map([['/skill/flow.py', 'unsaved\n']]));
  assert.deepEqual(readText(open, '/skill/alias.py'), { kind: 'text', text: 'unsaved\n', bom: false });
  assert.deepEqual(readText(open, '/skill/other.py'), { kind: 'text', text: 'other\n', bom: false });
});
