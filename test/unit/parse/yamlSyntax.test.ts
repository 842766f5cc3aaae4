import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeAtPath, nodeSpan, parseYamlRegion } from '../../../server/src/parse/yamlSyntax';

test('node spans are file offsets, shifted by the region start', () => {
  const text = 'prefix\nsteps:\n  - name: a\n';
  const yaml = parseYamlRegion(text, { start: 7, end: text.length });
  const reached = nodeAtPath(yaml, ['steps', 0, 'name']);
  assert.equal(reached.depth, 3);
  const span = nodeSpan(yaml, reached.node)!;
  assert.equal(text.slice(span.start, span.end), 'a');
  assert.equal(text.slice(nodeSpan(yaml, reached.pair!.key)!.start, nodeSpan(yaml, reached.pair!.key)!.end), 'name');
});

test('syntax errors come back as problems with ranges, never as exceptions', () => {
  const text = 'a: [1, 2\nb: c: d\n';
  const yaml = parseYamlRegion(text, { start: 0, end: text.length });
  assert.ok(yaml.problems.length > 0);
  assert.ok(yaml.problems.every((problem) => problem.code === 'yaml_syntax' && problem.span.start >= 0 && problem.span.end <= text.length));
  assert.equal(yaml.value, undefined);
});

test('an alias bomb stops at the alias limit', () => {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill('*' + String.fromCharCode(96 + i)).join(', ')}]`);
  const text = lines.join('\n') + '\n';
  const yaml = parseYamlRegion(text, { start: 0, end: text.length });
  assert.deepEqual(yaml.problems.map((problem) => problem.code), ['yaml_alias_limit']);
  assert.equal(yaml.value, undefined);
});
