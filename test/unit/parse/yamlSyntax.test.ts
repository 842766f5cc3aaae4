import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { YamlChunkCache } from '../../../server/src/parse/yaml/yamlChunkCache';
import { parseYamlRegion } from '../../../server/src/parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan } from '../../../server/src/parse/yaml/yamlNodes';
import { parseSkillFile } from '../../../server/src/parse/markdown/skillFile';
import { CORPUS } from '../../support/corpus';
import { random } from '../../support/random';

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
  assert.ok(
    yaml.problems.every(
      (problem) => problem.kind === 'syntax' && problem.span.start >= 0 && problem.span.end <= text.length,
    ),
  );
  assert.equal(yaml.value, undefined);
});

test('an alias bomb stops at the alias limit', () => {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++)
    lines.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
        .fill('*' + String.fromCharCode(96 + i))
        .join(', ')}]`,
    );
  const text = lines.join('\n') + '\n';
  const yaml = parseYamlRegion(text, { start: 0, end: text.length });
  assert.deepEqual(
    yaml.problems.map((problem) => problem.kind),
    ['alias-limit'],
  );
  assert.equal(yaml.value, undefined);
});

test('with a cache, a region whose text is unchanged is not parsed again, and reads as a fresh parse wherever it now sits', () => {
  const cache = new YamlChunkCache();
  const region = 'steps:\n  - name: a\n    note: b: c\n';
  const at = (prefix: string, body = region) => {
    const text = `${prefix}${body}`;
    return { text, span: { start: prefix.length, end: text.length } };
  };
  const first = at('intro\n');
  const kept = parseYamlRegion(first.text, first.span, cache);
  assert.ok(kept.problems.length > 0, 'the region has a syntax error');
  // Text typed above the region moves it; its parse is taken back, its places moved.
  const moved = at('a longer intro\n\n');
  const again = parseYamlRegion(moved.text, moved.span, cache);
  assert.equal(again.doc, kept.doc, 'the same parse');
  const fresh = parseYamlRegion(moved.text, moved.span);
  assert.deepEqual(again.problems, fresh.problems);
  const alone = parseYamlRegion(region, { start: 0, end: region.length });
  assert.deepEqual(
    again.problems.map((problem) => [problem.span.start, problem.span.end]),
    alone.problems.map((problem) => [problem.span.start + moved.span.start, problem.span.end + moved.span.start]),
    'problems are placed in the file, where the region now sits',
  );
  assert.deepEqual(
    nodeSpan(again, nodeAtPath(again, ['steps', 0, 'name']).node),
    nodeSpan(fresh, nodeAtPath(fresh, ['steps', 0, 'name']).node),
  );
  // A change inside the region, even one that keeps its length, is parsed.
  const changed = at('a longer intro\n\n', region.replace('name: a', 'name: z'));
  const reparsed = parseYamlRegion(changed.text, changed.span, cache);
  assert.notEqual(reparsed.doc, kept.doc);
  assert.equal(
    changed.text.slice(nodeSpan(reparsed, nodeAtPath(reparsed, ['steps', 0, 'name']).node)!.start).startsWith('z'),
    true,
  );
});

test('a region is valued as yaml values it, on corpus YAML, on mutations of it, and past what skills hold', () => {
  const regions: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'SKILL.md') {
        const text = readFileSync(full, 'utf8');
        const syntax = parseSkillFile(text);
        if (syntax.frontmatter)
          regions.push(text.slice(syntax.frontmatter.content.start, syntax.frontmatter.content.end));
        for (const match of text.matchAll(/```ya?ml[^\n]*\n([\s\S]*?)```/g)) regions.push(match[1]);
      }
    }
  };
  walk(CORPUS);
  assert.ok(regions.length > 90, `${regions.length} regions`);
  const crafted = [
    'a: &x {b: 1}\nc: *x\n', // anchors and aliases
    '<<: {a: 1}\nb: 2\n', // a merge key (a plain key in YAML 1.2)
    '__proto__: {polluted: true}\n',
    'toString: x\nconstructor: [1]\n',
    '? [a, b]\n: c\n', // a key that is a list
    '1: one\ntrue: yes\n~: nothing\n', // keys that are not strings
    'a: !!str 12\nb: !!float 1\nc: .inf\nd: 0x1F\n',
    's: !!set {a, b}\no: !!omap [{a: 1}]\nt: 2001-12-14\nbin: !!binary aGk=\n', // YAML 1.1 types
    'a: 1\na: 2\n', // a repeated key, kept by the frontmatter dialects
    '',
    '~\n',
    '- a\n- [b, {c: d}]\n',
  ];
  const next = random(20261202);
  const pieces = [
    '&a ',
    '*a',
    '!!str ',
    '!!set ',
    '<<: ',
    '? ',
    ': ',
    '- ',
    '[',
    '{',
    '1',
    'null',
    '\n  ',
    '__proto__: 1\n',
  ];
  const mutants = Array.from({ length: 400 }, () => {
    const source = regions[Math.floor(next() * regions.length)];
    const at = Math.floor(next() * (source.length + 1));
    return source.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + source.slice(at);
  });
  let compared = 0;
  for (const source of [...regions, ...crafted, ...mutants]) {
    for (const dialect of ['strict', 'frontmatter', 'pyyaml'] as const) {
      const yaml = parseYamlRegion(source, { start: 0, end: source.length }, undefined, dialect);
      if (yaml.problems.length > 0) continue;
      assert.deepEqual(yaml.value, yaml.doc.toJS({ maxAliasCount: 100 }), `${dialect}:\n${source}`);
      compared++;
    }
  }
  assert.ok(compared > 1000, `${compared} values compared`);
});
