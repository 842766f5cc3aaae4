import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { analyzeFixture, expectAt, expectNone, frontmatter, ROOT } from '../../support/fixture';

test('missing_frontmatter: on the first line', () => {
  const { analysis, spans } = analyzeFixture('plain', '«# Title»\nbody\n');
  expectAt(analysis, 'missing_frontmatter', spans);
});

test('invalid_frontmatter: a frontmatter that never closes', () => {
  const { analysis, spans } = analyzeFixture('plain', '«---»\nname: plain\ndescription: x\n');
  expectAt(analysis, 'invalid_frontmatter', spans);
});

test('invalid_frontmatter: YAML errors keep their position', () => {
  const { analysis } = analyzeFixture('plain', '---\nname: plain\ndescription: [unclosed\n---\nbody\n');
  const found = analysis.diagnostics.filter((item) => item.code === 'invalid_frontmatter');
  assert.ok(found.length > 0);
  assert.match(found[0].message, /not valid YAML.*skip this skill/);
  assert.ok(found[0].span.start >= analysis.text.indexOf('description'));
});

test('invalid_frontmatter: a frontmatter that is a list, not a mapping', () => {
  const { analysis } = analyzeFixture('plain', '---\n- name\n- description\n---\n');
  const [found] = analysis.diagnostics.filter((item) => item.code === 'invalid_frontmatter');
  assert.match(found.message, /must be a YAML mapping/);
});

test('unquoted_colon: names the key and points at the colon inside the value', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    '---\nname: plain\ndescription: Use when«:» the user asks\n---\nbody\n',
  );
  const [found] = expectAt(analysis, 'unquoted_colon', spans);
  assert.match(found.message, /`description`.*agents will skip this skill/);
  assert.equal(found.data?.value, 'Use when: the user asks');
  expectNone(analysis, 'invalid_frontmatter');
});

test('unquoted_colon: a quoted value with a colon is fine', () => {
  const { analysis } = analyzeFixture('plain', '---\nname: plain\ndescription: "Use when: the user asks"\n---\nbody\n');
  expectNone(analysis, 'unquoted_colon');
  assert.deepEqual(analysis.diagnostics, []);
});

test('yaml_alias_limit: an alias bomb in the frontmatter', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 8; i++)
    bomb.push(
      `${'abcdefgh'[i]}: &${'abcdefgh'[i]} [${Array(9)
        .fill('*' + 'abcdefgh'[i - 1])
        .join(', ')}]`,
    );
  const { analysis } = analyzeFixture('plain', `---\n${bomb.join('\n')}\n---\n`);
  // On the first anchor, whose aliases expand past the limit: the frontmatter's first line.
  const [found] = expectAt(analysis, 'yaml_alias_limit', [{ start: 4, end: 4 + bomb[0].length }]);
  assert.equal(analysis.text.slice(found.span.start, found.span.end), bomb[0]);
});

test('crlf_line_endings and utf8_bom: information, and ranges still match the text', () => {
  const dir = path.join(ROOT, 'plain');
  const text = '\ufeff---\r\nname: plain\r\ndescription: Does one thing. Use when testing.\r\n---\r\nbody\r\n';
  const fs = new MemoryFileSystem({ [path.join(dir, 'SKILL.md')]: text });
  const analysis = analyzeSkill(fs, path.join(dir, 'SKILL.md'));
  assert.deepEqual(
    analysis.diagnostics.map((item) => [item.code, item.severity]),
    [
      ['utf8_bom', 'information'],
      ['crlf_line_endings', 'information'],
    ],
  );
  assert.equal(analysis.text.startsWith('---'), true);
  // The reference validators read SKILL.md in Python's text mode, which turns CRLF into LF: the message says so.
  const [crlf] = analysis.diagnostics.filter((item) => item.code === 'crlf_line_endings');
  assert.match(crlf.message, /The reference validators read them as LF, so the skill is valid/);
  assert.doesNotMatch(crlf.message, /reject/);
});

test('unclosed_fence: on the opening marker', () => {
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain')}\n«\`\`\`bash»\nls\n`);
  expectAt(analysis, 'unclosed_fence', spans);
});

test('unclosed_fence: a marker with nothing after it (a stray one on the last line) hides nothing and is quiet', () => {
  for (const end of ['```', '```\n', '```text\n\n   \n', '~~~\r\n'])
    expectNone(
      analyzeFixture('plain', `${frontmatter('plain')}\n## Steps\n\n\`\`\`\nls\n\`\`\`\n${end}`).analysis,
      'unclosed_fence',
    );
  // One line after it is enough to be swallowed.
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain')}\n«\`\`\`»\n\n## Next step\n`);
  expectAt(analysis, 'unclosed_fence', spans);
});

test('body_too_long: over 500 lines, on the frontmatter', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `«---»\nname: plain\ndescription: Does one thing. Use when testing.\n---\n${'line\n'.repeat(520)}`,
  );
  const [found] = expectAt(analysis, 'body_too_long', spans);
  assert.match(found.message, /The body is 520 lines/);
  const short = analyzeFixture('plain', `${frontmatter('plain')}${'line\n'.repeat(400)}`);
  expectNone(short.analysis, 'body_too_long');
});

test('body_too_long: the body is counted as an editor numbers its lines, with or without a final newline', () => {
  const body = (count: number, last: string) => `${frontmatter('plain')}${'line\n'.repeat(count - 1)}line${last}`;
  expectNone(analyzeFixture('plain', body(500, '\n')).analysis, 'body_too_long');
  expectNone(analyzeFixture('plain', body(500, '')).analysis, 'body_too_long');
  for (const last of ['\n', '']) {
    const [found] = analyzeFixture('plain', body(501, last)).analysis.diagnostics.filter(
      (item) => item.code === 'body_too_long',
    );
    assert.match(found?.message ?? '', /The body is 501 lines/);
  }
});

test('binary_file and file_too_large: not parsed, one diagnostic at the start', () => {
  const dir = path.join(ROOT, 'plain');
  const fs = new MemoryFileSystem({
    [path.join(dir, 'SKILL.md')]: new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01]),
  });
  const binary = analyzeSkill(fs, path.join(dir, 'SKILL.md'));
  assert.deepEqual(
    binary.diagnostics.map((item) => [item.code, item.span]),
    [['binary_file', { start: 0, end: 0 }]],
  );
  fs.write(path.join(dir, 'SKILL.md'), new Uint8Array(5 * 1024 * 1024).fill(0x61));
  const large = analyzeSkill(fs, path.join(dir, 'SKILL.md'));
  assert.deepEqual(
    large.diagnostics.map((item) => item.code),
    ['file_too_large'],
  );
  assert.match(large.diagnostics[0].message, /5\.0 MB/);
});

test('missing_skill_md: a SKILL.md that cannot be read', () => {
  const analysis = analyzeSkill(new MemoryFileSystem(), path.join(ROOT, 'gone', 'SKILL.md'));
  assert.deepEqual(
    analysis.diagnostics.map((item) => item.code),
    ['missing_skill_md'],
  );
});
