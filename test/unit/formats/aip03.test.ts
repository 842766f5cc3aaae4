import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { aip03, analyzeFixture, expectAt, expectNone } from '../../support/fixture';

const VALID = `purpose: Test.
trigger_when:
  - Testing.
steps:
  - name: load
    description: Load.
    script: scripts/load.py
    outputs:
      - name: rows
        type: list[object]
  - name: report
    description: Report.
    inputs:
      - name: rows
        type: list[object]
`;

function load(procedure: string, extraFiles: Record<string, string> = {}, name = 'proc') {
  const { skillMd, files } = aip03(name, procedure);
  return analyzeFixture(name, skillMd, { 'scripts/load.py': '"""Load rows."""\n', ...files, ...extraFiles });
}

test('a valid AIP 0.3 skill: detected, no diagnostics, graph built', () => {
  const { analysis } = load(VALID);
  assert.equal(analysis.format, 'aip-0.3');
  assert.deepEqual(analysis.diagnostics, []);
  assert.deepEqual(
    analysis.model.nodes.map((node) => [node.id, node.script?.path]),
    [
      ['load', 'scripts/load.py'],
      ['report', undefined],
    ],
  );
  assert.deepEqual(
    analysis.model.edges.map((edge) => [edge.from, edge.to, edge.kind, edge.label]),
    [
      ['load', 'report', 'control', undefined],
      ['load', 'report', 'data', 'rows'],
    ],
  );
});

test('aip_like_skill: a procedure body without AIP metadata is analysed as AIP 0.3', () => {
  const { analysis, spans } = analyzeFixture(
    'proc',
    `«---»\nname: proc\ndescription: x\n---\n\n\`\`\`yaml\n${VALID}\`\`\`\n`,
    { 'scripts/load.py': '' },
  );
  expectAt(analysis, 'aip_like_skill', spans);
  assert.equal(analysis.format, 'aip-0.3');
  assert.equal(analysis.model.nodes.length, 2);
});

test('empty_body: nothing after the frontmatter', () => {
  const { files } = aip03('proc', '');
  const marked =
    '---\nname: proc\ndescription: x\nmetadata:\n  aip:\n    spec: https://example.test/aip/tree/v0.3a3\n    schemaId: https://example.test/aip/v0.3a3/procedure.schema.json\n«---»\n\n';
  const { analysis, spans } = analyzeFixture('proc', marked, files);
  expectAt(analysis, 'empty_body', spans);
});

test('invalid_body_format: prose before the block, a second fence', () => {
  const { skillMd, files } = aip03('proc', VALID);
  const marked = skillMd.replace('---\n\n```yaml', '---\n«Some prose.»\n```yaml') + '\n«```bash»\nls\n```\n';
  const { analysis, spans } = analyzeFixture('proc', marked, { ...files, 'scripts/load.py': '' });
  const found = expectAt(
    analysis,
    'invalid_body_format',
    [spans[1], spans[0]].sort((a, b) => a.start - b.start),
  );
  assert.equal(found.length, 2);
});

test("invalid_body_yaml: a syntax error inside the procedure, at the YAML parser's position", () => {
  const { analysis, spans } = load('purpose: Test.\ntrigger_when: [x\n«s»teps: []\n');
  const [found] = expectAt(analysis, 'invalid_body_yaml', spans);
  assert.match(found.message, /not valid YAML: Flow sequence/);
});

test('invalid_body_yaml: a procedure that is a list, on the fence line', () => {
  const { skillMd, files } = aip03('proc', '- purpose\n- steps\n');
  const { analysis, spans } = analyzeFixture('proc', skillMd.replace('```yaml', '«```yaml»'), files);
  expectAt(analysis, 'invalid_body_yaml', spans);
});

test('schema_violation: missing key on the parent, unknown key on the key, wrong type on the value', () => {
  const { analysis, spans } = load(`purpose: Test.
trigger_when: «Testing.»
«always_remember»:
  - x
steps:
  - name: «load»
    script: scripts/load.py
    outputs:
      - name: rows
        «colour»: red
`);
  const found = expectAt(analysis, 'schema_violation', spans);
  assert.match(found[0].message, /`trigger_when` must be a list, not a string/);
  assert.match(
    found[1].message,
    /Unknown key `always_remember` in the procedure\. Allowed keys: purpose, trigger_when/,
  );
  assert.match(found[2].message, /`steps\[0\]` is missing the required key `description`/);
  assert.match(found[3].message, /Unknown key `colour` in `steps\[0\]\.outputs\[0\]`/);
});

test("schema_violation: a missing key in a list item lands on the item's name", () => {
  const { analysis, spans } = load(`purpose: Test.
trigger_when: [x]
steps:
  - name: load
    description: Load.
modes:
  - name: «fast»
`);
  const [found] = expectAt(analysis, 'schema_violation', spans);
  assert.match(found.message, /`modes\[0\]` is missing the required key `body`/);
});

test('invalid_aip_metadata: metadata.aip that is not a map', () => {
  const { analysis, spans } = analyzeFixture(
    'proc',
    `---\nname: proc\ndescription: x\nmetadata:\n  aip: «v0.3»\n---\n\n\`\`\`yaml\n${VALID}\`\`\`\n`,
    { 'scripts/load.py': '' },
  );
  assert.equal(analysis.format, 'aip-0.3');
  expectAt(analysis, 'invalid_aip_metadata', spans);
  expectNone(analysis, 'invalid_metadata');
});

test('missing_aip_spec, missing_aip_schema_id: on the aip key', () => {
  const { analysis, spans } = analyzeFixture(
    'proc',
    `---\nname: proc\ndescription: x\nmetadata:\n  «aip»:\n    version: 1\n---\n\n\`\`\`yaml\n${VALID}\`\`\`\n`,
  );
  expectAt(analysis, 'missing_aip_spec', spans);
  expectAt(analysis, 'missing_aip_schema_id', spans);
});

test('invalid_aip_spec, invalid_aip_schema_id: not URLs', () => {
  const { analysis, spans } = analyzeFixture(
    'proc',
    `---\nname: proc\ndescription: x\nmetadata:\n  aip:\n    spec: «v0.3a3»\n    schemaId: «procedure.schema.json»\n---\n\n\`\`\`yaml\n${VALID}\`\`\`\n`,
  );
  expectAt(analysis, 'invalid_aip_spec', [spans[0]]);
  expectAt(analysis, 'invalid_aip_schema_id', [spans[1]]);
  const list = analyzeFixture(
    'proc',
    `---\nname: proc\ndescription: x\nmetadata:\n  aip:\n    spec: «[a]»\n    schemaId: https://example.test/x\n---\n`,
  );
  expectAt(list.analysis, 'invalid_aip_spec', list.spans);
  expectNone(list.analysis, 'missing_aip_spec');
});

test('aip_spec_mismatch: spec and schemaId name different versions', () => {
  const { skillMd, files } = aip03('proc', VALID);
  const marked = skillMd.replace('tree/v0.3a3', 'tree/v0.3a2').replace(/schemaId: (\S+)/, 'schemaId: «$1»');
  const { analysis, spans } = analyzeFixture('proc', marked, { ...files, 'scripts/load.py': '' });
  const [found] = expectAt(analysis, 'aip_spec_mismatch', spans);
  assert.match(found.message, /0\.3a2.*0\.3a3/);
});

test('missing_source_dir, missing_schema_file, schema_id_mismatch, duplicate_schema_id', () => {
  const { skillMd } = aip03('proc', VALID);
  const marked = skillMd.replace(/schemaId: (\S+)/, 'schemaId: «$1»');
  const noSource = analyzeFixture('proc', marked, { 'scripts/load.py': '' });
  expectAt(noSource.analysis, 'missing_source_dir', noSource.spans);
  const noSchema = analyzeFixture('proc', marked, { 'scripts/load.py': '', 'source/README.md': '' });
  expectAt(noSchema.analysis, 'missing_schema_file', noSchema.spans);
  const wrongId = analyzeFixture('proc', marked, {
    'scripts/load.py': '',
    'source/p.schema.json': '{"$id": "https://other.test/x"}',
  });
  const [mismatch] = expectAt(wrongId.analysis, 'schema_id_mismatch', wrongId.spans);
  assert.match(mismatch.message, /https:\/\/other\.test\/x/);
  const id = '{"$id": "https://example.test/aip/v0.3a3/procedure.schema.json"}';
  const twice = analyzeFixture('proc', marked, {
    'scripts/load.py': '',
    'source/a.schema.json': id,
    'source/b.schema.json': id,
  });
  expectAt(twice.analysis, 'duplicate_schema_id', twice.spans);
  expectNone(twice.analysis, 'schema_id_mismatch');
});
