import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { placeholdersOf } from '../../../server/src/formats/skillplus/read/bindings';
import { readFlowPy } from '../../../server/src/formats/skillplus/read/readFlowPy';
import type { FlowStatement } from '../../../server/src/formats/skillplus/read/reusedFlowStatements';
import { ReusedReadings } from '../../../server/src/parse/parseCache';
import { parsePython } from '../../../server/src/parse/python/python';

import { CORPUS } from '../../support/corpus';
import { writeSkillplusPackage } from '../../support/generate';

const EXAMPLES = path.join(CORPUS, 'skillplus', 'examples');
const FLOWS = [
  path.join(__dirname, '..', '..', '..', 'examples', 'trip-planner', 'flow.py'),
  ...readdirSync(EXAMPLES)
    .map((name) => path.join(EXAMPLES, name, 'flow.py'))
    .filter((file) => existsSync(file)),
];

type Kept = ReusedReadings<FlowStatement>;
const read = (text: string, kept?: Kept) => readFlowPy(parsePython('/p/flow.py', text), kept);

test('flow.py read again with the last reading kept gives what a fresh reading gives, wherever its nodes moved', () => {
  assert.ok(FLOWS.length >= 4, `${FLOWS.length} flows`);
  for (const file of FLOWS) {
    const text = readFileSync(file, 'utf8');
    const kept: Kept = new ReusedReadings();
    const first = read(text, kept);
    assert.ok(first.nodes.length >= 3, file);
    // Text above every node (the docstring grows), then below some and above others, then nothing moved.
    const build = text.indexOf('def build');
    const middle = text.indexOf('\n', text.indexOf(first.nodes[Math.floor(first.nodes.length / 2)].id)) + 1;
    const edits = [
      text.slice(0, build) + '# a comment\n' + text.slice(build),
      text.slice(0, middle) + '\n' + text.slice(middle),
      text,
    ];
    for (const edited of edits) {
      const again = read(edited, kept);
      assert.deepEqual(again, read(edited), file);
      for (const node of again.nodes)
        assert.deepEqual(
          placeholdersOf(node),
          placeholdersOf(
            read(edited).nodes.find((fresh) => fresh.id === node.id && fresh.span.start === node.span.start)!,
          ),
          `${file}: ${node.id}`,
        );
    }
  }
});

test('an edit inside one node reads that node again and keeps the others, the same objects', () => {
  const text = readFileSync(FLOWS[0], 'utf8');
  const kept: Kept = new ReusedReadings();
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
  assert.equal(
    after.nodes.find((item) => item.id === target.id)!.text!.value,
    `${target.text!.value[0]}x${target.text!.value.slice(1)}`,
  );
});

test('a call pasted twice gets a node of its own per place; a call read with a problem is read again each time', () => {
  const flow = (body: string) => `from skillplus import Flow\n\n\ndef build(flow):\n    with flow.stage("s"):\n${body}`;
  const call = '        flow.agent("a", "Do {topic}.", into="plan")\n';
  const kept: Kept = new ReusedReadings();
  read(flow(call), kept);
  const twice = read(flow(call + call), kept);
  assert.equal(twice.nodes.length, 2);
  assert.notEqual(twice.nodes[0], twice.nodes[1]);
  assert.deepEqual(twice, read(flow(call + call)));
  // Taken out of a loop, a reused node is in the stage alone.
  const looped = read(flow(`        with flow.loop("l", until="approved"):\n    ${call}`), kept);
  assert.equal(looped.nodes[1].parent, 'l');
  const unlooped = read(flow(call), kept);
  assert.equal(unlooped.nodes[0], looped.nodes[1], 'kept');
  assert.deepEqual(unlooped, read(flow(call)));
  // A dynamic part is reported once per file, at the first one: removing the first must report the second.
  const dynamicCall = '        flow.agent("b", text)\n';
  const withTwo = read(flow(`        x = 1\n${dynamicCall}`), kept);
  assert.equal(withTwo.problems.filter((problem) => problem.rule.code === 'dynamic_flow').length, 1);
  const withOne = read(flow(dynamicCall), kept);
  assert.deepEqual(withOne.problems, read(flow(dynamicCall)).problems);
  assert.equal(withOne.problems.filter((problem) => problem.rule.code === 'dynamic_flow').length, 1);
});

test('a stage whose text is unchanged is kept whole, moved; a stage edited keeps its unchanged calls; copies of a reused stage or call get nodes of their own', () => {
  const pkg = writeSkillplusPackage(mkdtempSync(path.join(tmpdir(), 'sg-kept-stages-')), 'generated-flow', 120, 2, 2);
  const text = pkg.flowText;
  const kept: Kept = new ReusedReadings();
  const before = read(text, kept);
  assert.ok(
    before.stages.length >= 5 && before.nodes.some((node) => node.parent),
    'stages with loops, fan-outs or branches',
  );
  // One character typed into a node of the third stage: every other stage is the same object, its nodes too; in the
  // third, the plain calls not edited are kept, the edited one is read again.
  const target = before.nodes.find(
    (node) => node.stage === before.stages[2].id && node.kind === 'agent' && node.text && !node.parent,
  )!;
  const at = target.text!.span.start + 1;
  const edited = text.slice(0, at) + 'x' + text.slice(at);
  const after = read(edited, kept);
  assert.deepEqual(after, read(edited));
  for (const [index, stage] of before.stages.entries()) {
    if (index === 2) assert.notEqual(after.stages[index], stage, 'the edited stage is read again');
    else assert.equal(after.stages[index], stage, `stage ${stage.id} is kept`);
  }
  for (const node of before.nodes) {
    const now = after.nodes.find((item) => item.id === node.id)!;
    const plainCall = ['agent', 'ask', 'confirm', 'end'].includes(node.kind);
    if (node === target) assert.notEqual(now, node);
    else if (node.stage !== before.stages[2].id || plainCall) assert.equal(now, node, `${node.id} is kept`);
  }
  // The reused stages moved with the text above them (one character): a second edit further up moves them all again.
  const again = read(`# a comment\n${edited}`, kept);
  assert.deepEqual(again, read(`# a comment\n${edited}`));
  assert.equal(again.stages[0], before.stages[0]);
  // A whole stage pasted after itself, and one of its calls pasted into another stage: every place its own node.
  const firstStage = text.slice(
    text.indexOf('    with flow.stage('),
    text.indexOf('    with flow.stage(', text.indexOf('    with flow.stage(') + 1),
  );
  const call = `        ${before.nodes.find((node) => node.stage === before.stages[0].id && node.kind === 'agent' && !node.parent)!.id}`;
  const callLine = firstStage.split('\n').find((line) => line.includes(`flow.agent("${call.trim()}"`))!;
  assert.ok(callLine, 'a plain call of the first stage');
  const lastStage = text.lastIndexOf('    with flow.stage(');
  const pasted = text.slice(0, lastStage) + firstStage + text.slice(lastStage).replace('):\n', `):\n${callLine}\n`);
  for (let round = 0; round < 2; round++) {
    const copies = read(pasted, kept);
    assert.deepEqual(copies, read(pasted));
    assert.equal(new Set(copies.nodes).size, copies.nodes.length, 'no node placed twice');
    assert.equal(
      copies.nodes.length,
      before.nodes.length + before.nodes.filter((node) => node.stage === before.stages[0].id).length + 1,
    );
  }
});

test('a call kept on its own and the stage holding it never place one node twice, whichever comes first; a stage with a problem is read again', () => {
  const stage = (id: string, body: string) => `    with flow.stage("${id}"):\n${body}`;
  const call = '        flow.agent("a", "Do {topic}.", into="plan")\n';
  const flow = (...stages: string[]) => `from skillplus import Flow\n\n\ndef build(flow):\n${stages.join('')}`;
  const original = flow(stage('s', call + '        flow.end("done")\n'), stage('t', '        flow.end("t-end")\n'));
  // The call copied into a stage before its own, then after it: each time right after a reading that kept both the call
  // and its stage.
  for (const copy of [
    flow(
      stage('first', call),
      stage('s', call + '        flow.end("done")\n'),
      stage('t', '        flow.end("t-end")\n'),
    ),
    flow(stage('s', call + '        flow.end("done")\n'), stage('t', call + '        flow.end("t-end")\n')),
  ]) {
    const kept: Kept = new ReusedReadings();
    read(original, kept);
    const both = read(copy, kept);
    assert.deepEqual(both, read(copy));
    assert.equal(new Set(both.nodes).size, both.nodes.length, 'no node placed twice');
  }
  // A stage holding a dynamic part: an edit in another stage must still report it.
  const dynamic = flow(stage('s', '        flow.agent("b", text)\n'), stage('t', '        flow.end("t-end")\n'));
  const kept: Kept = new ReusedReadings();
  read(dynamic, kept);
  const edited = dynamic.replace('"t-end"', '"t-end2"');
  assert.deepEqual(read(edited, kept).problems, read(edited).problems);
  assert.equal(read(edited, kept).problems.length, 1);
});
