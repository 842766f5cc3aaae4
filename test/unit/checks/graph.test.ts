import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { aip03, analyzeFixture, expectAt, expectNone } from '../../support/fixture';

function load(steps: string, extraFiles: Record<string, string> = {}) {
  const { skillMd, files } = aip03('proc', `purpose: Test.\ntrigger_when: [x]\nsteps:\n${steps}`);
  return analyzeFixture('proc', skillMd, { ...files, ...extraFiles });
}

test('duplicate_step_name: on the second name', () => {
  const { analysis, spans } = load(`  - name: a\n    description: A.\n  - name: «a»\n    description: Again.\n`);
  const [found] = expectAt(analysis, 'duplicate_step_name', spans);
  assert.match(found.message, /already used by step 1/);
});

test('duplicate_step_name: the second step does not follow the first as an edge, nor make a cycle', () => {
  // Without `depends_on` a step follows the one before it: here one of its own name, which is the finding.
  const { analysis } = load(`  - name: a\n    description: A.\n  - name: a\n    description: Again.\n`);
  assert.deepEqual(
    analysis.model.edges.filter((edge) => edge.kind === 'control'),
    [],
  );
  expectNone(analysis, 'dependency_cycle');
});

test('unknown_dependency: on the entry, with a suggestion', () => {
  const { analysis, spans } = load(
    `  - name: review\n    description: R.\n  - name: publish\n    description: P.\n    depends_on: [«reveiw»]\n`,
  );
  const [found] = expectAt(analysis, 'unknown_dependency', spans);
  assert.match(found.message, /"reveiw".*Did you mean "review"\?/);
  assert.equal(found.data?.suggestion, 'review');
});

test('dependency_cycle: the whole cycle, once, on the entry that closes it', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    depends_on: [«c»]\n  - name: b\n    description: B.\n    depends_on: [a]\n  - name: c\n    description: C.\n    depends_on: [b]\n  - name: d\n    description: D.\n    depends_on: [c]\n`,
  );
  const [found] = expectAt(analysis, 'dependency_cycle', spans);
  assert.match(found.message, /a → b → c → a/);
  assert.deepEqual(found.data, { cycle: ['a', 'b', 'c'], from: 'c', to: 'a' });
});

test('dependency_cycle: a step that depends on itself', () => {
  const { analysis, spans } = load(`  - name: a\n    description: A.\n    depends_on: [«a»]\n`);
  const [found] = expectAt(analysis, 'dependency_cycle', spans);
  assert.match(found.message, /a → a/);
});

test('external_input: information on each input nothing produces', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    inputs:\n      - name: «csv-path»\n        type: string\n`,
  );
  const [found] = expectAt(analysis, 'external_input', spans);
  assert.equal(found.severity, 'information');
  assert.deepEqual(
    analysis.model.externalInputs.map((port) => port.name),
    ['csv-path'],
  );
});

test('input_name_typo: near an upstream output, instead of external_input', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    outputs:\n      - name: raw-data\n  - name: b\n    description: B.\n    inputs:\n      - name: «raw_data»\n      - name: «raw-dat»\n      - name: unrelated\n`,
  );
  const found = expectAt(analysis, 'input_name_typo', spans);
  assert.deepEqual(
    found.map((item) => item.data?.suggestion),
    ['raw-data', 'raw-data'],
  );
  assert.equal(analysis.diagnostics.filter((item) => item.code === 'external_input').length, 1);
});

test('producer_not_ancestor: the producer does not run before the consumer', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    outputs:\n      - name: x\n  - name: b\n    description: B.\n    depends_on: []\n    inputs:\n      - name: «x»\n`,
  );
  const [found] = expectAt(analysis, 'producer_not_ancestor', spans);
  assert.equal(found.data?.producer, 'a');
  const ordered = load(
    `  - name: a\n    description: A.\n    outputs:\n      - name: x\n  - name: b\n    description: B.\n    inputs:\n      - name: x\n`,
  );
  expectNone(ordered.analysis, 'producer_not_ancestor');
});

test('type_mismatch: on the consumer type; list[*] and integer→float are compatible', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    outputs:\n      - name: rows\n        type: list[object]\n      - name: n\n        type: integer\n      - name: s\n        type: string\n  - name: b\n    description: B.\n    inputs:\n      - name: rows\n        type: list[*]\n      - name: n\n        type: float\n      - name: s\n        type: «boolean»\n`,
  );
  const [found] = expectAt(analysis, 'type_mismatch', spans);
  assert.match(found.message, /declared as boolean, but step "a" produces it as string/);
});

test('nullable_mismatch: nullable output into a non-nullable input', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    outputs:\n      - name: x\n        nullable: true\n  - name: b\n    description: B.\n    inputs:\n      - name: «x»\n  - name: c\n    description: C.\n    inputs:\n      - name: x\n        nullable: true\n`,
  );
  expectAt(analysis, 'nullable_mismatch', spans);
});

test('unknown_type: outside the vocabulary, with the likely word', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    outputs:\n      - name: x\n        type: «int»\n      - name: y\n        type: «list[str]»\n      - name: z\n        type: «tensor»\n      - name: ok\n        type: list[list[float]]\n`,
  );
  const found = expectAt(analysis, 'unknown_type', spans);
  assert.deepEqual(
    found.map((item) => item.data?.suggestion),
    ['integer', 'list[string]', undefined],
  );
});

test('script_outside_scripts and missing_script: on the script value', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    script: «tools/a.py»\n  - name: b\n    description: B.\n    script: «scripts/b.py»\n  - name: c\n    description: C.\n    script: scripts/c.py\n`,
    {
      'tools/a.py': '',
      'scripts/c.py': '',
    },
  );
  expectAt(analysis, 'script_outside_scripts', [spans[0]]);
  const [missing] = expectAt(analysis, 'missing_script', [spans[1]]);
  assert.match(missing.message, /The script `scripts\/b\.py` of step "b" does not exist/);
});

test('path_escapes_skill: a script outside the skill folder is never read', () => {
  const { analysis, spans } = load(`  - name: a\n    description: A.\n    script: «../../etc/passwd»\n`);
  expectAt(analysis, 'path_escapes_skill', spans);
  expectNone(analysis, 'missing_script');
});

test('missing_file: paths named in step descriptions', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: Read «references/guide.md» first, then references/here.md.\n`,
    { 'references/here.md': '' },
  );
  expectAt(analysis, 'missing_file', spans);
});

test('duplicate_input_name: the second declaration', () => {
  const { analysis, spans } = load(
    `  - name: a\n    description: A.\n    inputs:\n      - name: x\n      - name: «x»\n`,
  );
  expectAt(analysis, 'duplicate_input_name', spans);
});
