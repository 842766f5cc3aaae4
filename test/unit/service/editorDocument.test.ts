import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { EditorDocument } from '../../../server/src/service/editorDocument';
import { random } from '../../support/random';

// The server applies each didChange to its own documents (text in pieces);
// vscode-languageserver-textdocument, the document library LSP servers use
// (and this server used before), is the reference: after every change both
// must hold the same text and read positions the same way, for every kind
// of line break and for positions past the end of a line or of the text.

const ALPHABET = ['a', 'b', ' ', '\n', '\r', '\r\n', '😀', 'é'];

function randomText(next: () => number, length: number): string {
  let text = '';
  while (text.length < length) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
}

function somePosition(next: () => number, document: TextDocument): { line: number; character: number } {
  const line = next() < 0.9 ? Math.floor(next() * document.lineCount) : document.lineCount + Math.floor(next() * 3) - 1;
  return { line, character: Math.floor(next() * (next() < 0.8 ? 12 : 200)) };
}

/**
 * A random change to `document`: a range (now and then past the end of a line or of the text) replaced, or the whole
 * text.
 */
function someChange(next: () => number, document: TextDocument) {
  if (next() < 0.03) return { text: randomText(next, Math.floor(next() * 2000)) };
  const start = somePosition(next, document);
  const end = next() < 0.5 ? start : somePosition(next, document);
  // Now and then a range given end first.
  const [from, to] = document.offsetAt(start) <= document.offsetAt(end) === next() < 0.9 ? [start, end] : [end, start];
  return { range: { start: from, end: to }, text: randomText(next, Math.floor(next() * (next() < 0.1 ? 100 : 4))) };
}

test('after random changes, the server document holds what the reference library makes of them and reads positions as it does', () => {
  let changes = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const next = random(100 + seed);
    // Every fourth text spans several pieces.
    let text = randomText(next, seed % 4 === 0 ? 40_000 + Math.floor(next() * 40_000) : Math.floor(next() * 3000));
    let ours = EditorDocument.create('file:///SKILL.md', 'markdown', 1, text);
    for (let round = 0; round < 40; round++) {
      // Several changes in one message, each made against the text the one before it left, and applied by the reference
      // to that text read afresh: its own line table goes wrong once a change names a line past the end.
      const batch = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
        const current = TextDocument.create('file:///SKILL.md', 'markdown', 1, text);
        const change = someChange(next, current);
        text = TextDocument.update(current, [change], 2).getText();
        return change;
      });
      const version = round + 2;
      ours = EditorDocument.update(ours, batch, version);
      changes += batch.length;
      const label = `seed ${seed}, round ${round}`;
      assert.equal(ours.getText(), text, label);
      if (text.length > 40_000) assert.ok(ours.text.pieces.length > 1, `${label}: ${ours.text.pieces.length} pieces`);
      assert.equal(ours.version, version);
      const lines = TextDocument.create('file:///SKILL.md', 'markdown', version, text);
      assert.equal(ours.lineCount, lines.lineCount, `${label}: line count`);
      for (let probe = 0; probe < 10; probe++) {
        const position = somePosition(next, lines);
        assert.equal(
          ours.offsetAt(position),
          lines.offsetAt(position),
          `${label}: offsetAt(${JSON.stringify(position)})`,
        );
      }
    }
  }
  assert.ok(changes > 3000, `${changes} changes`);
});

test('a keystroke in a long document leaves all but the pieces it touched as they were', () => {
  const text = '  - name: step\n    description: Run the script and pass the result on.\n'.repeat(6000);
  const document = EditorDocument.create('file:///SKILL.md', 'markdown', 1, text);
  const edited = EditorDocument.update(
    document,
    [{ range: { start: { line: 6001, character: 20 }, end: { line: 6001, character: 20 } }, text: 'x' }],
    2,
  );
  const before = document.text.pieces;
  const after = edited.text.pieces;
  assert.ok(before.length > 10, `${before.length} pieces`);
  assert.ok(
    after.filter((piece) => before.includes(piece)).length >= after.length - 3,
    'untouched pieces are the same strings',
  );
  // Line 6,001 is the 3,001st description line.
  const at = 3000 * (text.length / 6000) + '  - name: step\n'.length + 20;
  assert.equal(edited.getText(), `${text.slice(0, at)}x${text.slice(at)}`);
});

test("line breaks are read alike wherever they fall: a CRLF across the server's reading boundaries is one break", () => {
  // The document reads a long text for line breaks 16 K units at a time; a CR and an LF on either side of a boundary
  // must make one break.
  for (let length = 16 * 1024 - 3; length <= 16 * 1024 + 1; length++) {
    for (const breaks of ['\r\n', '\r', '\n', '\r\r\n', '\n\r']) {
      const text = `${'a'.repeat(length)}${breaks}b\r\nc`.repeat(3);
      const ours = EditorDocument.create('file:///SKILL.md', 'markdown', 1, text);
      const reference = TextDocument.create('file:///SKILL.md', 'markdown', 1, text);
      assert.equal(ours.lineCount, reference.lineCount, `${length} + ${JSON.stringify(breaks)}`);
      for (let line = 0; line < reference.lineCount; line++)
        assert.equal(
          ours.offsetAt({ line, character: 0 }),
          reference.offsetAt({ line, character: 0 }),
          `${length} + ${JSON.stringify(breaks)}, line ${line}`,
        );
    }
  }
});

test('a change whose positions are not whole numbers is read at the whole numbers below them, never as a broken text', () => {
  const text = 'first line\nsecond line\r\nthird\n';
  const odd = EditorDocument.update(
    EditorDocument.create('file:///SKILL.md', 'markdown', 1, text),
    [{ range: { start: { line: 1.7, character: Number.NaN }, end: { line: 1, character: 6.9 } }, text: 'x' }],
    2,
  );
  const whole = EditorDocument.update(
    EditorDocument.create('file:///SKILL.md', 'markdown', 1, text),
    [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 6 } }, text: 'x' }],
    2,
  );
  assert.equal(odd.getText(), 'first line\nx line\r\nthird\n');
  assert.equal(odd.getText(), whole.getText());
  assert.equal(odd.lineCount, 4);
  // Infinite positions are past every line.
  const appended = EditorDocument.update(
    odd,
    [{ range: { start: { line: Infinity, character: 0 }, end: { line: Infinity, character: 0 } }, text: 'end' }],
    3,
  );
  assert.equal(appended.getText(), 'first line\nx line\r\nthird\nend');
});
