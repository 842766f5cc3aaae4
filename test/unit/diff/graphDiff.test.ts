import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { toGraphJson } from '../../../server/src/forms/graphJson';
import { diffGraphs, isEmptyDiff } from '../../../server/src/diff/graphDiff';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { filesUnder } from '../../support/corpus';
import { aip03, ROOT } from '../../support/fixture';
import type { GraphJson } from '../../../server/src/protocol';

// Two revisions of one skill, written for each kind of change, in each format: what the diff says they differ in.

const EXAMPLES = path.join(__dirname, '..', '..', '..', 'examples');

/** The graph of skill `name` whose files (relative to the skill) are `files`, beside `others` (relative to ROOT). */
function graphOf(name: string, files: Record<string, string>, others: Record<string, string> = {}): GraphJson {
  const fs = new MemoryFileSystem({});
  for (const [relative, text] of Object.entries(others)) fs.write(path.join(ROOT, relative), text);
  for (const [relative, text] of Object.entries(files)) fs.write(path.join(ROOT, name, relative), text);
  return toGraphJson(analyzeSkill(fs, path.join(ROOT, name, 'SKILL.md')));
}

/** An example's files, relative to its folder. */
const example = (name: string) => filesUnder(path.join(EXAMPLES, name));

/** `files` with `from` replaced by `to` in `file` (which must contain it). */
function edited(files: Record<string, string>, file: string, from: string, to: string): Record<string, string> {
  assert.ok(files[file].includes(from), `${file} holds ${JSON.stringify(from)}`);
  return { ...files, [file]: files[file].replace(from, to) };
}

const PROFILE = `  - name: profile
    description: Profile the table.
    inputs:
      - name: table
        type: object
    outputs:
      - name: stats
        type: object
`;

const STEPS = `steps:
  - name: load
    description: Load the table.
    script: scripts/load.py
    outputs:
      - name: table
        type: object
${PROFILE}  - name: write
    description: Write the report.
    inputs:
      - name: stats
        type: object
`;

function aip(procedure: string): Record<string, string> {
  const { skillMd, files } = aip03('report', procedure);
  return { 'SKILL.md': skillMd, ...files, 'scripts/load.py': 'print(1)\n', 'scripts/load_csv.py': 'print(2)\n' };
}

test('the same revision twice: no change', () => {
  const graph = graphOf('report', aip(STEPS));
  const diff = diffGraphs(graph, graph);
  assert.equal(isEmptyDiff(diff), true);
  assert.equal(diff.introducesErrors, false);
});

test('AIP: a step added, with the edge that feeds it', () => {
  const after = `${STEPS}  - name: publish
    description: Publish the report.
    inputs:
      - name: stats
        type: object
`;
  const diff = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  assert.deepEqual(
    diff.nodes.map((node) => [node.change, node.id]),
    [['added', 'publish']],
  );
  assert.deepEqual(
    diff.edges.filter((edge) => edge.kind === 'data').map((edge) => [edge.change, edge.from, edge.to, edge.type]),
    [['added', 'profile', 'publish', 'object']],
  );
  assert.deepEqual(diff.orphaned, []);
});

test('AIP: a step removed leaves its consumer without a producer, and the finding that says so is introduced', () => {
  const after = STEPS.replace(PROFILE, '');
  const diff = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  assert.deepEqual(
    diff.nodes.map((node) => [node.change, node.id]),
    [
      ['added', 'input:stats'],
      ['removed', 'profile'],
    ],
  );
  assert.deepEqual(diff.orphaned, [{ node: 'write', input: 'stats', producer: 'profile' }]);
  assert.ok(
    diff.edges.some((edge) => edge.change === 'removed' && edge.from === 'load' && edge.to === 'profile'),
    JSON.stringify(diff.edges),
  );
});

test('AIP: a step renamed (same content, new name) is one rename, its edges unchanged', () => {
  const after = STEPS.replace('- name: profile', '- name: profile-table');
  const diff = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  assert.deepEqual(diff.nodes, [
    { change: 'renamed', id: 'profile-table', from: 'profile', kind: 'step', details: [], ports: [] },
  ]);
  assert.deepEqual(diff.edges, []);
  assert.deepEqual(diff.orphaned, []);
});

test('AIP: an output retyped: the port, the edge and the type mismatch it introduces', () => {
  const after = STEPS.replace(
    '      - name: stats\n        type: object\n  - name: write',
    '      - name: stats\n        type: list[object]\n  - name: write',
  );
  const diff = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  assert.deepEqual(diff.nodes, [
    {
      change: 'changed',
      id: 'profile',
      kind: 'step',
      details: [],
      ports: [{ direction: 'output', name: 'stats', change: 'retyped', before: 'object', after: 'list[object]' }],
    },
  ]);
  assert.deepEqual(
    diff.edges.map((edge) => [edge.change, edge.from, edge.to, edge.before, edge.type]),
    [['retyped', 'profile', 'write', 'object', 'list[object]']],
  );
  assert.deepEqual(
    diff.findings.map((item) => [item.change, item.problem.code]),
    [['introduced', 'type_mismatch']],
  );
});

test('AIP: a script swapped, an input added and one removed', () => {
  const after = STEPS.replace('script: scripts/load.py', 'script: scripts/load_csv.py').replace(
    '    inputs:\n      - name: stats\n        type: object\n',
    '    inputs:\n      - name: summary\n        type: string\n',
  );
  const diff = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  const load = diff.nodes.find((node) => node.id === 'load')!;
  assert.deepEqual(load.details, ['script scripts/load.py → scripts/load_csv.py']);
  const write = diff.nodes.find((node) => node.id === 'write')!;
  assert.deepEqual(write.ports, [
    { direction: 'input', name: 'summary', change: 'added', after: 'string' },
    { direction: 'input', name: 'stats', change: 'removed', before: 'object' },
  ]);
});

test('MetaSkill: a guard added, a composed skill swapped, a binding that no longer exists', () => {
  const before = example('weekly-digest');
  const others = {
    'csv-report/SKILL.md': readFileSync(path.join(EXAMPLES, 'csv-report', 'SKILL.md'), 'utf8'),
    'release-notes/SKILL.md': readFileSync(path.join(EXAMPLES, 'release-notes', 'SKILL.md'), 'utf8'),
    'release-digest/SKILL.md': readFileSync(path.join(EXAMPLES, 'release-digest', 'SKILL.md'), 'utf8'),
  };
  let after = edited(
    before,
    'SKILL.md',
    '      skill: release-notes\n',
    '      skill: release-digest\n      when: "{{ inputs.collected.scope.audience }}"\n',
  );
  after = edited(
    after,
    'SKILL.md',
    "shipped {{ outputs['shipped'] | truncate(2000) }}",
    "shipped {{ outputs['shipping'] | truncate(2000) }}",
  );
  const diff = diffGraphs(graphOf('weekly-digest', before, others), graphOf('weekly-digest', after, others));
  const shipped = diff.nodes.find((node) => node.id === 'shipped')!;
  assert.deepEqual(shipped.details, [
    'skill release-notes → release-digest',
    'guard {{ inputs.collected.scope.audience }} added',
  ]);
  assert.ok(
    diff.edges.some((edge) => edge.change === 'removed' && edge.from === 'shipped' && edge.to === 'digest'),
    JSON.stringify(diff.edges),
  );
  assert.ok(
    diff.findings.some((item) => item.change === 'introduced' && item.problem.severity === 'error'),
    JSON.stringify(diff.findings.map((item) => item.problem.code)),
  );
  assert.equal(diff.introducesErrors, true);
});

test('skill+: a node added to a stage; a rule that stops applying in another stage leaves its nodes', () => {
  const before = example('trip-planner');
  let after = edited(
    before,
    'flow.py',
    '        flow.ask("money", "Which budget: low, mid or high?", into="budget", choices=["low", "mid", "high"])\n',
    '        flow.ask("money", "Which budget: low, mid or high?", into="budget", choices=["low", "mid", "high"])\n        flow.ask("dates", "When does {traveller} travel?", into="event")\n',
  );
  // The rule `cite` stops applying in the stage decide: its nodes lose it.
  after = edited(after, 'rules/cite.md', 'stage in [research, decide]', 'stage in [research]');
  const diff = diffGraphs(graphOf('trip-planner', before), graphOf('trip-planner', after));
  assert.deepEqual(
    diff.nodes.filter((node) => node.change === 'added').map((node) => [node.id, node.kind]),
    [['dates', 'ask']],
  );
  assert.deepEqual(
    diff.nodes.filter((node) => node.change === 'changed').map((node) => [node.id, node.details]),
    ['ok', 'gate', 'write', 'stop'].map((id) => [id, ['rule cite removed']]),
  );
  assert.ok(
    diff.edges.some((edge) => edge.change === 'added' && edge.to === 'dates'),
    JSON.stringify(diff.edges),
  );
});

test('the diff is deterministic: the same two revisions give the same answer', () => {
  const after = STEPS.replace('- name: profile', '- name: profile-table').replace(
    'type: object\n  - name: write',
    'type: string\n  - name: write',
  );
  const first = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  const second = diffGraphs(graphOf('report', aip(STEPS)), graphOf('report', aip(after)));
  assert.deepEqual(first, second);
});
