import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseDocument, visit, type Scalar } from 'yaml';
import { scalarText, valueSpan, type ScalarStyle } from '../../../server/src/parse/yaml/scalarText';
import { CORPUS } from '../../support/corpus';

function traced(source: string): { value: string; style: string; text: string; exact: boolean; offsets: number[] }[] {
  const found: ReturnType<typeof traced> = [];
  visit(parseDocument(source, { version: '1.1' }), {
    Scalar(_key, node: Scalar) {
      if (typeof node.value !== 'string' || !node.range) return;
      const result = scalarText(
        source,
        { start: node.range[0], end: node.range[1] },
        node.type as ScalarStyle,
        node.value,
      );
      found.push({
        value: node.value,
        style: String(node.type),
        text: source.slice(node.range[0], node.range[1]),
        exact: result.exact,
        offsets: result.offsets,
      });
    },
  });
  return found;
}

test('every scalar style is retraced to the file: plain, quoted with escapes, literal and folded blocks with chomping', () => {
  const source = [
    'plain: multi word {{ x }}',
    'wrapped: first line',
    '  second line',
    '',
    '  after a blank',
    'double: "say \\"hi\\"\\t{{ y }} \\u00e9\\',
    '  joined"',
    "single: 'it''s {{ z }}'",
    'literal: |',
    '  one {{ a }}',
    '    indented',
    '',
    '  ---',
    'stripped: |-',
    '  keep no newline',
    'kept: |+',
    '  keep all',
    '',
    'folded: >',
    '  fold one',
    '  fold two',
    '',
    '    more',
    '  back',
    '',
  ].join('\n');
  const scalars = traced(source).filter(
    (item) => !['plain', 'wrapped', 'double', 'single', 'literal', 'stripped', 'kept', 'folded'].includes(item.value),
  );
  assert.deepEqual(
    scalars.map((item) => item.style),
    [
      'PLAIN',
      'PLAIN',
      'QUOTE_DOUBLE',
      'QUOTE_SINGLE',
      'BLOCK_LITERAL',
      'BLOCK_LITERAL',
      'BLOCK_LITERAL',
      'BLOCK_FOLDED',
    ],
  );
  for (const item of scalars) {
    assert.ok(item.exact, `${item.style} ${JSON.stringify(item.text)} was not retraced`);
    // Every value character that is not produced by folding or an escape stands where it is written.
    for (let i = 0; i < item.value.length; i++) {
      const char = item.value[i];
      if (char === ' ' || char === '\n' || item.style === 'QUOTE_DOUBLE') continue;
      assert.equal(source[item.offsets[i]], char, `${item.style}: character ${i} of ${JSON.stringify(item.value)}`);
    }
  }
  const double = scalars[2];
  const y = double.value.indexOf('y }}');
  assert.equal(source.slice(double.offsets[y], double.offsets[y] + 1), 'y');
  const literal = scalars[4];
  assert.equal(literal.value, 'one {{ a }}\n  indented\n\n---\n');
});

test('valueSpan maps a range of the value to the file, and an untraceable style falls back to the scalar start', () => {
  const source = 'a: "x {{ outputs.step }}"\n';
  const [, value] = traced(source);
  const from = value.value.indexOf('step');
  const span = valueSpan({ value: value.value, offsets: value.offsets, exact: true }, from, from + 4);
  assert.equal(source.slice(span.start, span.end), 'step');
  const fallback = scalarText(source, { start: 3, end: 25 }, 'QUOTE_DOUBLE', 'not what the source says');
  assert.equal(fallback.exact, false);
  assert.deepEqual(valueSpan(fallback, 4, 8), { start: 3, end: 3 });
});

test('one-line scalars read as written, and plain ones over lines, map each value character (each UTF-16 unit) to itself in the file', () => {
  const source = [
    'plain: a 😀 {{ x }} 短剧',
    'double: "b 😀 {{ y }} 镜头"',
    "single: 'c 😀 {{ z }}'",
    'empty: ""',
    'wrapped: d 😀',
    '  e 😀 f',
    '',
  ].join('\n');
  const scalars = traced(source).filter(
    (item) => !['plain', 'double', 'single', 'empty', 'wrapped'].includes(item.value),
  );
  assert.equal(scalars.length, 5);
  for (const item of scalars) {
    assert.ok(item.exact, item.text);
    assert.equal(item.offsets.length, item.value.length + 1, `${item.text}: one offset per unit and the end`);
    for (let i = 0; i < item.value.length; i++) {
      if (item.value[i] === ' ' && item.text.includes('\n')) continue;
      assert.equal(source[item.offsets[i]], item.value[i], `${item.text}: unit ${i}`);
    }
  }
  // The end of a one-line value is just after its last character; an empty one ends where it starts.
  const double = scalars[1];
  assert.equal(source[double.offsets[double.value.length]], '"');
  const empty = scalars[3];
  assert.deepEqual(empty.offsets, [source.indexOf('""')]);
});

test('every string scalar of the corpus MetaSkills is retraced exactly', () => {
  const root = join(CORPUS, 'metaskill', 'opensquilla-opensquilla');
  let count = 0;
  for (const folder of readdirSync(root)) {
    const text = readFileSync(join(root, folder, 'SKILL.md'), 'utf8');
    const end = text.indexOf('\n---\n', 4);
    for (const item of traced(text.slice(0, end + 1))) {
      assert.ok(item.exact, `${folder}: ${item.style} ${JSON.stringify(item.text.slice(0, 80))}`);
      assert.equal(item.offsets.length, item.value.length + 1, `${folder}: ${JSON.stringify(item.text.slice(0, 80))}`);
      count++;
    }
  }
  assert.ok(count > 2000, `${count} scalars`);
});
