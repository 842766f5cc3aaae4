import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import graphSchema from '../../../schemas/graph.schema.json';
import { toGraphJson } from '../../../server/src/forms/graphJson';
import { toDot, toMermaid } from '../../../server/src/forms/graphText';
import { aip03, analyzeFixture } from '../../support/fixture';

const validateGraph = new Ajv2020({ allErrors: true }).compile(graphSchema);

function sample() {
  const { skillMd, files } = aip03(
    'proc',
    `purpose: P.\ntrigger_when: [x]\nsteps:\n  - name: load\n    description: L.\n    script: scripts/load.py\n    inputs:\n      - name: path\n        type: string\n    outputs:\n      - name: rows\n        type: list[object]\n  - name: "say \\"hi\\""\n    description: S.\n    one_of: [short, long]\n    inputs:\n      - name: rows\n        type: list[object]\n`,
  );
  return analyzeFixture('proc', skillMd, { ...files, 'scripts/load.py': '' }).analysis;
}

test('graph JSON: nodes with ranges and ports, control and data edges, external inputs as source nodes', () => {
  const graph = toGraphJson(sample());
  assert.ok(validateGraph(graph), JSON.stringify(validateGraph.errors));
  assert.deepEqual(
    graph.nodes.map((node) => [node.id, node.kind]),
    [
      ['load', 'step'],
      ['say "hi"', 'step'],
      ['input:path', 'external-input'],
    ],
  );
  assert.deepEqual(graph.nodes[0].range, { start: { line: 13, character: 10 }, end: { line: 13, character: 14 } });
  assert.equal(graph.nodes[0].script, 'scripts/load.py');
  assert.deepEqual(graph.nodes[1].oneOf, ['short', 'long']);
  assert.deepEqual(
    graph.edges.map((edge) => [edge.from, edge.to, edge.kind, edge.label ?? null, edge.type ?? null]),
    [
      ['load', 'say "hi"', 'control', null, null],
      ['load', 'say "hi"', 'data', 'rows', 'list[object]'],
      ['input:path', 'load', 'data', 'path', 'string'],
    ],
  );
});

test('Mermaid and DOT: every node and edge, with quoting that survives odd names', () => {
  const graph = toGraphJson(sample());
  const mermaid = toMermaid(graph);
  assert.match(mermaid, /^flowchart LR\n/);
  assert.match(mermaid, /n1\["say #quot;hi#quot;"\]/);
  assert.match(mermaid, /n0 -\.->\|"rows: list\[object\]"\| n1/);
  assert.match(mermaid, /n2\(\["path"\]\)/);
  const dot = toDot(graph);
  assert.match(dot, /"say \\"hi\\"" \[label="say \\"hi\\""\];/);
  assert.match(dot, /"load" -> "say \\"hi\\"" \[label="rows: list\[object\]", style=dashed\];/);
  assert.equal(
    dot
      .trim()
      .split('\n')
      .filter((line) => line.includes('->')).length,
    graph.edges.length,
  );
});
