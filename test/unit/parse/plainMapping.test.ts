import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseYamlRegion, type YamlDialect, type YamlSyntax } from '../../../server/src/parse/yaml/yamlSyntax';
import { repeatedKeys } from '../../../server/src/parse/yaml/yamlNodes';
import { parseSkillFile } from '../../../server/src/parse/markdown/skillFile';
import { corpusAndExampleSkills } from '../../support/corpus';
import { random } from '../../support/random';

const DIALECTS: YamlDialect[] = ['frontmatter', 'pyyaml'];

function read(source: string, dialect: YamlDialect): YamlSyntax {
  return parseYamlRegion(source, { start: 0, end: source.length }, undefined, dialect);
}

/**
 * When a region is read as plain lines, `yaml` itself (the lazily built
 * `doc`, parsed with the same dialect) must find no problem, the same value
 * and no repeated key. Returns whether it was read plain.
 */
function agreesWithYaml(source: string, dialect: YamlDialect, label: string): boolean {
  const syntax = read(source, dialect);
  if (!syntax.plain) return false;
  assert.deepEqual(
    syntax.doc.errors.map((error) => error.message),
    [],
    `${label} (${dialect}) was read plain but yaml finds errors:\n${source}`,
  );
  assert.deepEqual(syntax.value, syntax.doc.toJS(), `${label} (${dialect}): values differ:\n${source}`);
  assert.deepEqual(
    repeatedKeys({ doc: syntax.doc, base: syntax.base, value: syntax.value, problems: syntax.problems }),
    [],
    `${label} (${dialect}): yaml finds a repeated key:\n${source}`,
  );
  return true;
}

function frontmatters(): { label: string; source: string }[] {
  return corpusAndExampleSkills().flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const frontmatter = parseSkillFile(text).frontmatter;
    return frontmatter ? [{ label: file, source: text.slice(frontmatter.content.start, frontmatter.content.end) }] : [];
  });
}

test('plain lines read as yaml reads them, in both dialects', () => {
  const cases: [string, YamlDialect, unknown][] = [
    ['name: a\ndescription: Use it. Then stop.\n', 'frontmatter', { name: 'a', description: 'Use it. Then stop.' }],
    ['flag: yes\nother: y\nnone: ~\nreal: True\n', 'frontmatter', { flag: 'yes', other: 'y', none: null, real: true }],
    ['flag: yes\nother: y\nnone: ~\nreal: True\n', 'pyyaml', { flag: true, other: 'y', none: null, real: true }],
    [
      'metadata:\n  author: me\n  version: "1.0"\nempty:\nlicense: \'MIT\'\n',
      'frontmatter',
      { metadata: { author: 'me', version: '1.0' }, empty: null, license: 'MIT' },
    ],
    [
      'url: https://example.com/a:b\nspaced:   three spaces in\n\nafter: blank\n',
      'frontmatter',
      { url: 'https://example.com/a:b', spaced: 'three spaces in', after: 'blank' },
    ],
    ['date: 2024-01-01\n', 'frontmatter', { date: '2024-01-01' }], // YAML 1.2's core schema has no dates
    ['metadata:\n  empty:\nafter: x\n', 'frontmatter', { metadata: { empty: null }, after: 'x' }],
    // An AIP skill's metadata, two levels deep, then back out two levels at once.
    [
      'name: a\nmetadata:\n  aip:\n    spec: https://x.test/v0.3a3\n    schemaId: https://x.test/v0.3a3/p.json\n  other: "1"\nlicense: MIT\n',
      'frontmatter',
      {
        name: 'a',
        metadata: { aip: { spec: 'https://x.test/v0.3a3', schemaId: 'https://x.test/v0.3a3/p.json' }, other: '1' },
        license: 'MIT',
      },
    ],
    ['a:\n    b:\n     c: d\n    e:\nf: ~\n', 'pyyaml', { a: { b: { c: 'd' }, e: null }, f: null }],
  ];
  for (const [source, dialect, value] of cases) {
    const syntax = read(source, dialect);
    assert.equal(syntax.plain, true, source);
    assert.deepEqual(syntax.value, value);
    assert.ok(agreesWithYaml(source, dialect, 'case'));
  }
});

test('anything past plain lines is left to yaml, which reports what is wrong with it', () => {
  const declined = [
    'description: Use when: the user asks\n', // the unquoted colon: yaml's error, then our own diagnostic
    'name: a\nname: b\n', // a repeated key: the frontmatter rules say which consumer minds
    'version: 1.0\n', // a number
    'name: a # comment\n',
    'tools: [a, b]\n',
    'description: >-\n  folded\n',
    'description: first\n  continued\n',
    'description: "say \\"hi\\""\n',
    "description: 'it''s'\n",
    'name: a\r\n',
    'name:\ta\n',
    'name: a \n',
    'anchor: &a x\n',
    'metadata:\n  a: x\n   b: y\n',
    'a: b:\n',
    'a: b :\n',
    'a: "x\\ty"\n',
    'metadata:\n  deeper:\n    a: b\n  back: x\n   under: y\n', // a line indented unlike its siblings
    'metadata:\n  deeper:\n    a: b\n a: c\n', // back out to an indentation no map has
    'a: x\n  b: y\n', // indented under a key that has a value
    'true: key\n',
    '  indented: first\n',
    '', // an empty document: null, not an empty map
    '\n\n',
    '- a list\n',
  ];
  for (const source of declined) assert.equal(read(source, 'frontmatter').plain, undefined, source);
  // YAML 1.1 (PyYAML) reads a date as a timestamp: left to yaml.
  assert.equal(read('date: 2024-01-01\n', 'pyyaml').plain, undefined);
  const colon = read('description: Use when: the user asks\n', 'frontmatter');
  assert.equal(colon.problems.length > 0, true, 'yaml reports the unquoted colon');
});

test('on every corpus and example frontmatter, and on mutations of them, a plain reading agrees with yaml', () => {
  const sources = frontmatters();
  assert.ok(sources.length >= 70, `${sources.length} frontmatters`);
  let plain = 0;
  for (const { label, source } of sources)
    for (const dialect of DIALECTS) if (agreesWithYaml(source, dialect, label)) plain++;
  // Most corpus frontmatters are plain lines (MetaSkill's hold lists and block scalars): the fast reading must be
  // exercised on real files.
  assert.ok(plain >= 60, `${plain} plain readings of ${sources.length * 2}`);

  const next = random(20261201);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const pieces = [
    ':',
    ': ',
    ' ',
    '  ',
    '#',
    ' #',
    "'",
    '"',
    '\\',
    '\n',
    '\n  ',
    '\t',
    '\r',
    '-',
    '- ',
    '[',
    '{',
    '&a ',
    '*a',
    '!',
    '|',
    '>',
    'yes',
    'no',
    'true',
    'null',
    '~',
    '1',
    '1.5',
    '0o7',
    '2024-01-01',
    'on',
    'y',
    'é',
    '\u2028',
    '\ufeff',
    'x:',
    'name: x\n',
    '  k: v\n',
    '---\n',
    '...',
    '%',
  ];
  let mutants = 0;
  let plainMutants = 0;
  for (let round = 0; round < 3000; round++) {
    const { label, source } = pick(sources);
    let text = source;
    for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
      const at = Math.floor(next() * (text.length + 1));
      const roll = next();
      if (roll < 0.15) {
        // At a line's end, where a colon or a space changes what the line is.
        const end = text.indexOf('\n', at);
        text = end === -1 ? text + pick(pieces) : text.slice(0, end) + pick(pieces) + text.slice(end);
      } else if (roll < 0.6) text = text.slice(0, at) + pick(pieces) + text.slice(at);
      else if (roll < 0.8) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 4));
      else {
        // A whole line repeated or indented: repeated keys and nesting.
        const lines = text.split('\n');
        const line = Math.floor(next() * lines.length);
        lines.splice(line, 0, roll < 0.9 ? lines[line] : `  ${lines[line]}`);
        text = lines.join('\n');
      }
    }
    for (const dialect of DIALECTS) {
      mutants++;
      if (agreesWithYaml(text, dialect, `mutant of ${label}`)) plainMutants++;
    }
  }
  // Both ways must be exercised: mutants read plain (checked against yaml above) and mutants left to yaml.
  assert.ok(plainMutants > mutants / 10 && plainMutants < mutants, `${plainMutants} of ${mutants} mutants read plain`);
});
