import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { placeholdersOf } from '../../../server/src/formats/skillplus/bindings';
import type { FlowNode } from '../../../server/src/formats/skillplus/flow';
import type { MovableParts } from '../../../server/src/model/spansIn';
import { readFlowPy } from '../../../server/src/formats/skillplus/readFlowPy';
import { KeptPieces } from '../../../server/src/parse/parseCache';
import { parsePython } from '../../../server/src/parse/python';

import { CORPUS } from '../../helpers/corpus';

const EXAMPLES = path.join(CORPUS, 'skillplus', 'examples');
const FLOWS = [
  path.join(__dirname, '..', '..', '..', 'examples', 'trip-planner', 'flow.py'),
  ...readdirSync(EXAMPLES)
    .map((name) => path.join(EXAMPLES, name, 'flow.py'))
    .filter((file) => existsSync(file)),
];

type Kept = KeptPieces<{ node: FlowNode; parts: MovableParts }>;
const read = (text: string, kept?: Kept) => readFlowPy(parsePython('/p/flow.py', text), kept);

test('flow.py read again with the last reading kept gives what a fresh reading gives, wherever its nodes moved', () => {
  assert.ok(FLOWS.length >= 4, `${FLOWS.length} flows`);
  for (const file of FLOWS) {
    const text = readFileSync(file, 'utf8');
    const kept: Kept = new KeptPieces();
    const first = read(text, kept);
    assert.ok(first.nodes.length >= 3, file);
    // Text above every node (the docstring grows), then below some and above others, then nothing moved.
    const build = text.indexOf('def build');
    const middle = text.indexOf('\n', text.indexOf(first.nodes[Math.floor(first.nodes.length / 2)].id)) + 1;
    const edits = [text.slice(0, build) + '# a comment\n' + text.slice(build), text.slice(0, middle) + '\n' + text.slice(middle), text];
    for (const edited of edits) {
      const again = read(edited, kept);
      assert.deepEqual(again, read(edited), file);
      for (const node of again.nodes) assert.deepEqual(placeholdersOf(node), placeholdersOf(read(edited).nodes.find((fresh) => fresh.id === node.id && fresh.span.start === node.span.start)!), `${file}: ${node.id}`);
    }
  }
});

test('an edit inside one node reads that node again and keeps the others, the same objects', () => {
  const text = readFileSync(FLOWS[0], 'utf8');
  const kept: Kept = new KeptPieces();
  const before = read(text, kept);
  const plain = before.nodes.filter((node) => ['agent', 'ask', 'confirm', 'end'].includes(node.kind));
  const target = plain[1];
  const at = target.text!.span.start + 1;
  const after = read(text.slice(0, at) + 'x' + text.slice(at), kept);
  for (const node of plain) {
    const now = after.nodes.find((item) => item.id === node.id)!;
    if (node === target) assert.notEqual(now, node, 'the edited node is read again');
    else assert.equal(now, node, `${node.id} is kept`);
  }
  assert.equal(after.nodes.find((item) => item.id === target.id)!.text!.value, `${target.text!.value[0]}x${target.text!.value.slice(1)}`);
});

test('a call pasted twice gets a node of its own per place; a call read with a problem is read again each time', () => {
  const flow = (body: string) => `from skillplus import Flow\n\n\ndef build(flow):\n    with flow.stage("s"):\n${body}`;
  const call = '        flow.agent("a", "Do {topic}.", into="plan")\n';
  const kept: Kept = new KeptPieces();
  read(flow(call), kept);
  const twice = read(flow(call + call), kept);
  assert.equal(twice.nodes.length, 2);
  assert.notEqual(twice.nodes[0], twice.nodes[1]);
  assert.deepEqual(twice, read(flow(call + call)));
  // Taken out of a loop, a kept node is in the stage alone.
  const looped = read(flow(`        with flow.loop("l", until="approved"):\n    ${call}`), kept);
  assert.equal(looped.nodes[1].parent, 'l');
  const unlooped = read(flow(call), kept);
  assert.equal(unlooped.nodes[0], looped.nodes[1], 'kept');
  assert.deepEqual(unlooped, read(flow(call)));
  // A dynamic part is reported once per file, at the first one: removing the first must report the second.
  const dynamicCall = '        flow.agent("b", text)\n';
  const withTwo = read(flow(`        x = 1\n${dynamicCall}`), kept);
  assert.equal(withTwo.problems.filter((problem) => problem.code === 'dynamic_flow').length, 1);
  const withOne = read(flow(dynamicCall), kept);
  assert.deepEqual(withOne.problems, read(flow(dynamicCall)).problems);
  assert.equal(withOne.problems.filter((problem) => problem.code === 'dynamic_flow').length, 1);
});
