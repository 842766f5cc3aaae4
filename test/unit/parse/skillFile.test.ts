import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { fenceLanguage, parseSkillFile } from '../../../server/src/parse/markdown/skillFile';

const slice = (text: string, span: { start: number; end: number } | undefined) =>
  span ? text.slice(span.start, span.end) : undefined;

test('reads frontmatter, body and fences with file offsets', () => {
  const text = '---\nname: x\n---\nintro\n```yaml title=p\na: 1\n```\n~~~\nraw\n~~~\n';
  const syntax = parseSkillFile(text);
  assert.equal(slice(text, syntax.frontmatter?.content), 'name: x\n');
  assert.equal(slice(text, syntax.body), 'intro\n```yaml title=p\na: 1\n```\n~~~\nraw\n~~~\n');
  assert.equal(syntax.fences.length, 2);
  assert.equal(fenceLanguage(syntax.fences[0]), 'yaml');
  assert.equal(slice(text, syntax.fences[0].content), 'a: 1\n');
  assert.equal(slice(text, syntax.fences[1].content), 'raw\n');
  assert.deepEqual(syntax.problems, []);
});

test('CRLF line ends keep exact offsets and are reported', () => {
  const text = '---\r\nname: x\r\n---\r\nbody\r\n';
  const syntax = parseSkillFile(text);
  assert.equal(slice(text, syntax.frontmatter?.content), 'name: x\r\n');
  assert.equal(slice(text, syntax.frontmatter?.close), '---');
  assert.deepEqual(
    syntax.problems.map((problem) => problem.kind),
    ['crlf'],
  );
});

test('a frontmatter that never closes is reported on its opening line', () => {
  const text = '---\nname: x\ndescription: y\n';
  const syntax = parseSkillFile(text);
  const problem = syntax.problems.find((item) => item.kind === 'unclosed-frontmatter');
  assert.equal(slice(text, problem?.span), '---');
  assert.equal(syntax.frontmatter?.close, undefined);
});

test('a fence that never closes runs to the end and is reported', () => {
  const text = '---\nname: x\n---\n````yaml\na: 1\n```\n';
  const syntax = parseSkillFile(text);
  assert.equal(syntax.fences.length, 1);
  assert.equal(slice(text, syntax.fences[0].content), 'a: 1\n```\n');
  assert.equal(slice(text, syntax.problems[0].span), '````yaml');
  assert.equal(syntax.problems[0].kind, 'unclosed-fence');
});

test('an empty file has no frontmatter and one problem', () => {
  const syntax = parseSkillFile('');
  assert.equal(syntax.frontmatter, undefined);
  assert.deepEqual(
    syntax.problems.map((problem) => problem.kind),
    ['no-frontmatter'],
  );
});
