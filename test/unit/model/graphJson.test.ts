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
  // The preview's lines: data solid and blue, order dashed and grey.
  assert.match(mermaid, /\n {2}n0 -\.-> n1\n {2}n0 -->\|"rows: list\[object\]"\| n1\n/);
  assert.match(mermaid, /\n {2}linkStyle 1,2 stroke:#1a85ff,stroke-width:1\.4px\n/);
  assert.match(mermaid, /\n {2}linkStyle 0 stroke:#7a7a7a,stroke-width:1\.4px,stroke-dasharray:6 4\n/);
  assert.match(mermaid, /n2\(\["path"\]\)/);
  const dot = toDot(graph);
  assert.match(dot, /"say \\"hi\\"" \[label="say \\"hi\\""\];/);
  assert.match(dot, /"load" -> "say \\"hi\\"" \[style=dashed, color="#7a7a7a"\];/);
  assert.match(dot, /"load" -> "say \\"hi\\"" \[label="rows: list\[object\]", color="#1a85ff"\];/);
  assert.equal(
    dot
      .trim()
      .split('\n')
      .filter((line) => line.includes('->')).length,
    graph.edges.length,
  );
});

test('Mermaid and DOT mark the findings as the preview does: a cycle, a missing step, a misspelt input, a duplicate', () => {
  const { skillMd, files } = aip03(
    'proc',
    `purpose: Test.\ntrigger_when: [x]\nsteps:\n  - name: a\n    description: A.\n    depends_on: [b]\n    outputs:\n      - name: raw-data\n  - name: b\n    description: B.\n    depends_on: [a, reveiw]\n    inputs:\n      - name: raw_data\n  - name: b\n    description: Again.\n`,
  );
  const graph = toGraphJson(analyzeFixture('proc', skillMd, files).analysis);
  const mermaid = toMermaid(graph);
  const body = mermaid.split('\n').filter((line) => !line.includes('%%'));
  assert.deepEqual(body, [
    'flowchart LR',
    '  n0["a"]',
    '  n1["b"]',
    '  n2["b"]',
    '  n3(["? reveiw"])',
    '  n4(["✕ raw_data"])',
    '  n1 ==> n0',
    '  n0 ==> n1',
    '  n3 -.-> n1',
    '  n4 -.->|"raw_data"| n1',
    '  linkStyle 0,1 stroke:#e51400,stroke-width:3px',
    '  linkStyle 2 stroke:#e51400,stroke-width:1.4px,stroke-dasharray:6 4',
    '  linkStyle 3 stroke:#e51400,stroke-width:1.5px,stroke-dasharray:3 2',
    '  classDef missing stroke:#e51400,stroke-dasharray:3 3',
    '  class n3 missing',
    '  classDef misspelt stroke:#e51400,stroke-dasharray:3 2,color:#e51400',
    '  class n4 misspelt',
    '  classDef error stroke:#e51400,stroke-width:2px',
    '  class n2 error',
    '',
  ]);
  assert.match(mermaid, /^flowchart LR\n {2}%% Legend \(as the Skillgraph preview draws it\):\n/);
  const dot = toDot(graph);
  assert.match(dot, /^digraph "proc" \{\n {2}\/\/ Legend \(as the Skillgraph preview draws it\):\n/);
  for (const line of [
    '  "b#2" [label="b", color="#e51400", penwidth=2];',
    '  "reveiw" [label="? reveiw", style="rounded,dashed", color="#e51400"];',
    '  "input:raw_data" [label="✕ raw_data", shape=ellipse, style=dashed, color="#e51400", fontcolor="#e51400"];',
    '  "b" -> "a" [color="#e51400", penwidth=3];',
    '  "reveiw" -> "b" [style=dashed, color="#e51400", arrowhead=empty];',
    '  "input:raw_data" -> "b" [label="raw_data", style=dashed, color="#e51400"];',
  ])
    assert.ok(dot.split('\n').includes(line), `${line}\n${dot}`);
  assert.ok(!dot.includes('"b" -> "b"'), 'the duplicate is no edge');
});
