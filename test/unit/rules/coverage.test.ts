import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ruleOf, RULES } from '../../../server/src/rules';

const root = join(__dirname, '..', '..', '..');
const codes: string[] = RULES.map((rule) => rule.code);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)],
  );
}

test('every rule has a unit test that expects it at exact ranges', () => {
  const tests = files(join(root, 'test', 'unit'))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const untested = codes.filter(
    (code) => !new RegExp(`expect(At|In)\\([^)]*'${code}'`).test(tests) && !tests.includes(`['${code}'`),
  );
  assert.deepEqual(untested, []);
});

test('every rule has a docs page with the four sections, and every page a rule', () => {
  const docs = join(root, 'docs', 'rules');
  const pages = readdirSync(docs)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .map((name) => name.slice(0, -3));
  assert.deepEqual(
    pages.filter((page) => !codes.includes(page)),
    [],
    'pages without a rule',
  );
  const incomplete = codes.filter((code) => {
    let text: string;
    try {
      text = readFileSync(join(docs, `${code}.md`), 'utf8');
    } catch {
      return true;
    }
    return (
      !text.startsWith(`# ${code}`) ||
      !['## What it catches', '## Why it matters', '## Example', '## Fix'].every((heading) => text.includes(heading))
    );
  });
  assert.deepEqual(incomplete, []);
  const index = readFileSync(join(docs, 'README.md'), 'utf8');
  assert.deepEqual(
    codes.filter((code) => {
      const rule = ruleOf(code)!;
      const preview = rule.stability === 'preview' ? ' (preview)' : '';
      return !index.includes(`[\`${code}\`](${code}.md)${preview} | ${rule.severity} |`);
    }),
    [],
    'docs/rules/README.md lists every code with its severity',
  );
});
