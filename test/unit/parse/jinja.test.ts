import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { readExpression, readTemplate } from '../../../server/src/parse/jinja/jinja';
import { completionContextAt } from '../../../server/src/parse/jinja/jinjaCursor';

test('references in every access form, with the name located', () => {
  const text =
    "{{ outputs.a }} {{ outputs['b'] }} {{ outputs.get('c', '') }} {% if inputs.get('collected', {}).get('ask') %}{{ inputs.collected.ask.topic }}{% endif %}";
  const read = readTemplate(text);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(
    read.refs.map((ref) => [
      ref.root,
      ref.name,
      ref.access,
      text.slice(ref.nameStart, ref.nameEnd),
      ref.member?.name ?? '',
    ]),
    [
      ['outputs', 'a', 'attribute', 'a', ''],
      ['outputs', 'b', 'index', 'b', ''],
      ['outputs', 'c', 'get', 'c', ''],
      ['inputs', 'collected', 'get', 'collected', 'ask'],
      ['inputs', 'collected', 'attribute', 'collected', 'ask'],
    ],
  );
});

test('filters with their argument counts; tests and strings are not filters', () => {
  const text =
    "{{ outputs.a | truncate(10) | default('x|y', true) | lower }}{% if outputs.a is defined and 'a|b' in outputs.a %}{% endif %}";
  const read = readTemplate(text);
  assert.deepEqual(
    read.filters.map((filter) => [filter.name, filter.args, text.slice(filter.start, filter.end)]),
    [
      ['truncate', 1, 'truncate'],
      ['default', 2, 'default'],
      ['lower', 0, 'lower'],
    ],
  );
});

test('syntax problems: unclosed delimiters, blocks and brackets, never a throw', () => {
  assert.deepEqual(
    readTemplate('a {{ outputs.x').problems.map((problem) => [problem.kind, problem.start, problem.end]),
    [['syntax', 2, 4]],
  );
  assert.match(readTemplate('{% if x %}y').problems[0].message, /never closed with `\{% endif %\}`/);
  assert.match(readTemplate('{{ (outputs.x }}').problems[0].message, /`\(` is never closed/);
  assert.match(readTemplate('{% for x in y %}{% endif %}').problems[0].message, /closes `\{% for %\}`/);
  assert.deepEqual(readTemplate('{% raw %}{{ not read {% endraw %}').refs, []);
  assert.equal(readExpression('{{ outputs.a }} == 1').problems[0].kind, 'template-in-expression');
  for (const text of ['{{', '{%', '{{ "', "{{ '}}", '{{ ) ] } }}', '{{ | }}', '\u0000{{\u0000}}'])
    assert.doesNotThrow(() => readTemplate(text));
});

test('completion contexts: after outputs., inputs.collected., a filter bar, and a bare name', () => {
  assert.deepEqual(completionContextAt('x {{ outputs.me', 15, false), {
    kind: 'member',
    root: 'outputs',
    prefix: 'me',
    quoted: false,
  });
  assert.deepEqual(completionContextAt("{{ outputs['me", 14, false), {
    kind: 'member',
    root: 'outputs',
    prefix: 'me',
    quoted: true,
  });
  assert.deepEqual(completionContextAt('{{ inputs.collected.', 20, false), {
    kind: 'collected',
    prefix: '',
    quoted: false,
  });
  assert.deepEqual(completionContextAt('{{ outputs.a | tru', 18, false), { kind: 'filter', prefix: 'tru' });
  assert.deepEqual(completionContextAt("outputs.a == 'x' and outp", 25, true), { kind: 'root', prefix: 'outp' });
  assert.equal(completionContextAt('{{ a }} outputs.', 16, false), undefined);
});
