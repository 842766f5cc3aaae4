import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { toGraphJson } from '../../../server/src/forms/graphJson';
import { changeView } from '../../../server/src/diff/changeView';
import { diffGraphs } from '../../../server/src/diff/graphDiff';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { replaceChooseFocus } from '../../support/csvReportChange';
import { ROOT } from '../../support/fixture';
import type { GraphJson, GraphJsonNode } from '../../../server/src/protocol';

// What the preview draws for a change: the graph now with what the change removed put back, every node and edge the
// change touched marked, and the change in lines a click can follow.

const SKILL = path.join(ROOT, 'csv-report', 'SKILL.md');
const TEXT = readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'csv-report', 'SKILL.md'), 'utf8');
const REVISION = { revision: 'HEAD', commit: 'c0ffee', existed: true };

function graphOf(text: string): GraphJson {
  const fs = new MemoryFileSystem({});
  fs.write(SKILL, text);
  for (const script of ['load_table', 'profile_columns', 'write_report'])
    fs.write(path.join(ROOT, 'csv-report', 'scripts', `${script}.py`), 'print("ok")\n');
  return toGraphJson(analyzeSkill(fs, SKILL));
}

const replaced = () => replaceChooseFocus(TEXT);

const key = (edge: { from: string; to: string; kind: string; label?: string }) =>
  `${edge.from}>${edge.to}:${edge.kind}${edge.label ? `:${edge.label}` : ''}`;

test('a step removed is drawn again beside the one added, with its edges, and both are marked', () => {
  const before = graphOf(TEXT);
  const after = graphOf(replaced());
  const view = changeView(before, after, diffGraphs(before, after), REVISION);
  // Everything the skill has now, then the step it no longer has, as it was.
  assert.deepEqual(
    view.graph.nodes.map((node) => node.id),
    [...after.nodes.map((node) => node.id), 'choose-focus'],
  );
  assert.deepEqual(
    view.graph.nodes.at(-1),
    before.nodes.find((node) => node.id === 'choose-focus'),
  );
  assert.deepEqual(view.graph.edges.slice(after.edges.length).map(key), [
    'choose-focus>write-report:control',
    'choose-focus>write-report:data:focus-column',
    'profile-columns>choose-focus:control',
    'profile-columns>choose-focus:data:stats',
  ]);
  assert.deepEqual(
    Object.entries(view.nodes).map(([id, mark]) => [id, mark.change]),
    [
      ['chart-column', 'added'],
      // write-report's focus-column lost its producer: the user must now give it.
      ['input:focus-column', 'added'],
      ['choose-focus', 'removed'],
    ],
  );
  assert.deepEqual(
    view.edges.map((edge) => `${edge.change} ${key(edge)}`),
    [
      'added chart-column>write-report:control',
      'removed choose-focus>write-report:control',
      'removed choose-focus>write-report:data:focus-column',
      'added input:focus-column>write-report:data:focus-column',
      'added profile-columns>chart-column:control',
      'added profile-columns>chart-column:data:stats',
      'removed profile-columns>choose-focus:control',
      'removed profile-columns>choose-focus:data:stats',
    ],
  );
  // Every edge marked is one the drawing has.
  const drawn = new Set(view.graph.edges.map(key));
  assert.ok(view.edges.every((edge) => drawn.has(key(edge))));
});

test('the change list names each change, the node a click shows, and where a finding introduced is now', () => {
  const before = graphOf(TEXT);
  const after = graphOf(replaced());
  const view = changeView(before, after, diffGraphs(before, after), REVISION);
  const orphan = view.lines.find((line) => line.mark === 'orphaned');
  assert.deepEqual(orphan, {
    mark: 'orphaned',
    text: 'write-report input "focus-column" has no producer any more (it was choose-focus)',
    node: 'write-report',
  });
  const introduced = view.lines.find((line) => line.mark === 'introduced')!;
  const problem = after.problems.find((item) => item.message.includes('"focus-column" is an external input'))!;
  // Named from the skill's folder, and placed in the text as it is now.
  assert.match(
    introduced.text,
    /^introduced information external_input SKILL\.md:\d+:\d+ "focus-column" is an external/,
  );
  assert.deepEqual(introduced.at, { file: SKILL, range: problem.range });
  // The finding the change fixed was about the old text: no place to show.
  const fixed = view.lines.find((line) => line.mark === 'fixed')!;
  assert.match(fixed.text, /^fixed warning missing_file SKILL\.md:/);
  assert.equal(fixed.at, undefined);
  assert.equal(view.introducesErrors, false);
  assert.equal(view.commit, 'c0ffee');
});

test('no change marks nothing and draws the graph as it is', () => {
  const graph = graphOf(TEXT);
  const view = changeView(graph, graph, diffGraphs(graph, graph), REVISION);
  assert.deepEqual(view.graph, graph);
  assert.deepEqual([view.nodes, view.edges, view.lines], [{}, [], []]);
});

test('a step removed with its stage brings the stage back, and an edge to a node never drawn is left out', () => {
  const node = (id: string, group: string): GraphJsonNode => ({
    id,
    kind: 'step',
    label: id,
    file: '/s/flow.py',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    extent: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    inputs: [],
    outputs: [],
    group,
  });
  const stage = (id: string) => ({ id, label: id, file: '/s/flow.py', range: node(id, id).range });
  const skill = { format: 'skillplus', dir: '/s', file: '/s/SKILL.md' };
  const before: GraphJson = {
    version: 1,
    skill,
    nodes: [node('ask', 'plan'), node('book', 'pay'), { ...node('ghost', 'pay'), kind: 'missing' }],
    edges: [
      { from: 'ask', to: 'book', kind: 'control' },
      { from: 'ghost', to: 'book', kind: 'control' },
    ],
    groups: [stage('plan'), stage('pay')],
    problems: [],
  };
  const after: GraphJson = { ...before, nodes: [node('ask', 'plan')], edges: [], groups: [stage('plan')] };
  const view = changeView(before, after, diffGraphs(before, after), REVISION);
  assert.deepEqual(
    view.graph.nodes.map((item) => item.id),
    ['ask', 'book'],
  );
  assert.deepEqual(
    view.graph.groups?.map((group) => group.id),
    ['plan', 'pay'],
  );
  assert.deepEqual(view.graph.edges.map(key), ['ask>book:control']);
  assert.deepEqual(view.edges.map(key), ['ask>book:control']);
  // The list still says every edge removed, drawn or not.
  assert.deepEqual(
    view.lines.filter((line) => line.mark === 'removed').map((line) => line.text),
    ['removed step book', 'removed control edge ask → book', 'removed control edge ghost → book'],
  );
});
