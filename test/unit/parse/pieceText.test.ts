import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { PieceText } from '../../../server/src/parse/text/pieceText';
import { sameText } from '../../../server/src/parse/text/textLike';
import { random } from '../../support/random';

// A PieceText must answer every read exactly as the flat string does: the
// analysis reads an editor's text through it without knowing which it has.

/** Line breaks of every kind, fence markers, a two-unit character (a surrogate pair) and a lone surrogate. */
const ALPHABET = ['a', 'b', '\n', '\r', '\r\n', '`', '~', 'é', '😀', '\ud800', ' '];

function randomText(next: () => number, length: number): string {
  let text = '';
  while (text.length < length) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
}

/** Indexes a caller may pass: inside, at the ends, past them, negative, fractional, NaN. */
function someIndex(next: () => number, length: number): number {
  const choice = next();
  if (choice < 0.7) return Math.floor(next() * (length + 1));
  return [-1, -length - 3, length + 5, 0.5, Number.NaN, Infinity][Math.floor(next() * 6)];
}

function compareReads(pieces: PieceText, flat: string, next: () => number, label: string): void {
  assert.equal(pieces.length, flat.length, label);
  for (let probe = 0; probe < 30; probe++) {
    const a = someIndex(next, flat.length);
    const b = someIndex(next, flat.length);
    assert.deepEqual(pieces.charCodeAt(a), flat.charCodeAt(a), `${label}: charCodeAt(${a})`);
    assert.equal(pieces.slice(a, b), flat.slice(a, b), `${label}: slice(${a}, ${b})`);
    assert.equal(pieces.slice(a), flat.slice(a), `${label}: slice(${a})`);
    // Searches for what the text holds (often across a piece boundary) and for what it may not.
    const start = Math.floor(next() * flat.length);
    const search =
      next() < 0.6
        ? flat.slice(start, start + 1 + Math.floor(next() * 5))
        : randomText(next, 1 + Math.floor(next() * 3));
    assert.equal(
      pieces.indexOf(search, a),
      flat.indexOf(search, a),
      `${label}: indexOf(${JSON.stringify(search)}, ${a})`,
    );
    assert.equal(pieces.indexOf(search), flat.indexOf(search), `${label}: indexOf(${JSON.stringify(search)})`);
    assert.equal(
      pieces.lastIndexOf(search, a),
      flat.lastIndexOf(search, a),
      `${label}: lastIndexOf(${JSON.stringify(search)}, ${a})`,
    );
    assert.equal(
      pieces.lastIndexOf(search),
      flat.lastIndexOf(search),
      `${label}: lastIndexOf(${JSON.stringify(search)})`,
    );
    assert.equal(
      pieces.startsWith(search, a),
      flat.startsWith(search, a),
      `${label}: startsWith(${JSON.stringify(search)}, ${a})`,
    );
    assert.equal(
      pieces.includes(search, a),
      flat.includes(search, a),
      `${label}: includes(${JSON.stringify(search)}, ${a})`,
    );
    const from = Math.floor(next() * (flat.length + 1));
    const to = from + Math.floor(next() * (flat.length + 1 - from));
    assert.equal(pieces.sub(from, to).toString(), flat.slice(from, to), `${label}: sub(${from}, ${to})`);
  }
  assert.equal(
    pieces.isWellFormed(),
    (flat as unknown as { isWellFormed(): boolean }).isWellFormed(),
    `${label}: isWellFormed`,
  );
  assert.equal(pieces.toString(), flat, label);
}

test('reads of a PieceText equal the same reads of the flat string, through random edits and piece sizes', () => {
  let edits = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const next = random(seed);
    const size = [2, 3, 7, 64][seed % 4];
    let flat = randomText(next, Math.floor(next() * 400));
    let pieces = PieceText.of(flat, size);
    compareReads(pieces, flat, next, `seed ${seed}, new`);
    for (let round = 0; round < 25; round++) {
      const start = Math.floor(next() * (flat.length + 1));
      const end = start + Math.floor(next() * Math.min(30, flat.length - start + 1));
      const insert = next() < 0.3 ? '' : randomText(next, Math.floor(next() * (next() < 0.1 ? 300 : 6)));
      const before = pieces;
      pieces = pieces.edited(start, end, insert);
      flat = flat.slice(0, start) + insert + flat.slice(end);
      edits++;
      compareReads(pieces, flat, next, `seed ${seed}, edit ${round}`);
      assert.equal(sameText(before, pieces), before.toString() === flat, `seed ${seed}, edit ${round}: sameText`);
      // Pieces stay near their size: an edit re-cuts what it touched, so none grows past twice the size, and what it
      // leaves small joins a neighbour (a cut kept off a surrogate pair may move a boundary by one).
      const lengths = pieces.pieces.map((piece) => piece.length);
      assert.ok(
        lengths.every((length) => length <= 2 * size + 1),
        `seed ${seed}, edit ${round}: a piece of ${Math.max(...lengths)} units`,
      );
      assert.ok(
        lengths.length <= 1 || lengths.every((length) => length > 0 && length >= size / 2 - 1),
        `seed ${seed}, edit ${round}: a piece of ${Math.min(...lengths)} units`,
      );
    }
  }
  assert.equal(edits, 1500);
});

test('an edit shares every piece it did not touch with the text before it', () => {
  const flat = 'line of a procedure\n'.repeat(5000);
  const pieces = PieceText.of(flat);
  assert.ok(pieces.pieces.length > 4, `${pieces.pieces.length} pieces`);
  const edited = pieces.edited(50_000, 50_000, 'x');
  const shared = edited.pieces.filter((piece) => pieces.pieces.includes(piece));
  assert.ok(shared.length >= edited.pieces.length - 3, `${shared.length} of ${edited.pieces.length} pieces shared`);
  assert.equal(edited.toString(), flat.slice(0, 50_000) + 'x' + flat.slice(50_000));
  assert.equal(sameText(pieces, PieceText.of(flat)), true);
  assert.equal(sameText(pieces, edited), false);
});
