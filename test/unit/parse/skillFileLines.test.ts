import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSkillFile } from '../../../server/src/parse/markdown/skillFile';
import { random } from '../../support/random';

// parseSkillFile reads lines one at a time and skips most of them unsliced;
// this reference reads the same rules (frontmatter between `---` lines,
// CommonMark-style fences) over every line split out, the plain way. Both
// must agree on any text built from the lines that matter.

interface RefLine {
  start: number;
  end: number;
  text: string;
}

function referenceLines(text: string): RefLine[] {
  let start = 0;
  return text.split('\n').map((raw) => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const line = { start, end: start + text.length, text };
    start += raw.length + 1;
    return line;
  });
}

function reference(text: string) {
  const lines = referenceLines(text);
  const span = (line: RefLine) => ({ start: line.start, end: line.end });
  const after = (index: number) => (index + 1 < lines.length ? lines[index + 1].start : text.length);
  let frontmatter;
  let body = 0;
  if (lines[0].text.trimEnd() === '---') {
    const close = lines.findIndex((line, index) => index > 0 && line.text.trimEnd() === '---');
    frontmatter =
      close === -1
        ? { open: span(lines[0]), content: { start: after(0), end: text.length } }
        : { open: span(lines[0]), content: { start: after(0), end: lines[close].start }, close: span(lines[close]) };
    body = close === -1 ? text.length : after(close);
  }
  const fences = [];
  const first = lines.findIndex((line) => line.start >= body && (body < text.length || line.start === text.length));
  for (let i = first === -1 ? lines.length : first; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i].text);
    if (!open || (open[1][0] === '`' && open[2].includes('`'))) continue;
    const close = lines.findIndex(
      (line, j) =>
        j > i &&
        /^ {0,3}[`~]+\s*$/.test(line.text) &&
        line.text.trim()[0] === open[1][0] &&
        line.text.trim().length >= open[1].length,
    );
    if (close === -1) {
      fences.push({ info: open[2].trim(), open: span(lines[i]), content: { start: after(i), end: text.length } });
      break;
    }
    fences.push({
      info: open[2].trim(),
      open: span(lines[i]),
      content: { start: after(i), end: lines[close].start },
      close: span(lines[close]),
    });
    i = close;
  }
  return { frontmatter, body: { start: body, end: text.length }, fences };
}

const LINES = [
  '---',
  '--- ',
  '---x',
  ' ---',
  '```',
  '```yaml',
  '``` `x`',
  '````',
  '  ```',
  '    ```',
  '~~~',
  '~~~ yaml',
  '~~',
  '`~`',
  'name: x',
  'text',
  '',
  '  - item',
  '```\r',
  '---\r',
  'a\u2028b',
  'x\r```',
  'x\u2028~~~ yaml',
];

test('the container read line by line equals the plain reading of every line, on random texts', () => {
  const next = random(99);
  for (let round = 0; round < 2000; round++) {
    const count = Math.floor(next() * 14);
    const picked = Array.from({ length: count }, () => LINES[Math.floor(next() * LINES.length)]);
    const text = picked.join('\n') + (next() < 0.5 ? '\n' : '');
    const syntax = parseSkillFile(text);
    const expected = reference(text);
    assert.deepEqual(
      { frontmatter: syntax.frontmatter, body: syntax.body, fences: syntax.fences },
      expected,
      JSON.stringify(text),
    );
  }
});
