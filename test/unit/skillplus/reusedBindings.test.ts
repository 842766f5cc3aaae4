import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import { IncrementalState } from '../../../server/src/incremental/incrementalState';
import { AnalysisFileSystem } from '../../../server/src/workspace/diskSnapshot';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { PACKAGE, PACKAGE_DIR } from '../../support/skillplus';
import { asSkillplus } from '../../support/formatParts';

// A node of flow.py kept from the last reading (its call's text unchanged)
// keeps what the binding checks found at it, and its part of the model,
// moved with it; both are worked out again when the State or the fan-out
// items around it change. After each version the findings and the model
// must equal a fresh analysis.

const SKILL = path.join(PACKAGE_DIR, 'SKILL.md');

/** What a fresh analysis must equal: findings with their files and places, and the flow's model. */
function observable(analysis: SkillAnalysis): unknown {
  return {
    diagnostics: analysis.diagnostics.map((item) => [
      item.code,
      path.relative(PACKAGE_DIR, item.file),
      item.span.start,
      item.span.end,
      item.message,
      item.data ?? null,
    ]),
    nodes: analysis.model.nodes,
    edges: analysis.model.edges,
  };
}

const placeholders = (analysis: SkillAnalysis) =>
  analysis.diagnostics.filter((item) => item.code === 'unknown_placeholder');

test('a reused node keeps its binding findings and model node, moved; a changed State or fan-out item finds them again', () => {
  const memory = new MemoryFileSystem();
  for (const [relative, content] of Object.entries(PACKAGE)) memory.write(path.join(PACKAGE_DIR, relative), content);
  const caches = { incremental: new IncrementalState() };
  const write = (relative: string, from: string, to: string) => {
    const file = path.join(PACKAGE_DIR, relative);
    const before = new TextDecoder().decode(memory.readFile(file));
    assert.ok(before.includes(from), `${relative} holds ${JSON.stringify(from)}`);
    memory.write(file, before.replace(from, to));
  };
  // Each version is read from a new snapshot of the disk, as the server reads a changed file.
  const analyse = () => {
    const kept = analyzeSkill(new AnalysisFileSystem(memory, true), SKILL, caches);
    assert.deepEqual(observable(kept), observable(analyzeSkill(new AnalysisFileSystem(memory, true), SKILL)));
    return kept;
  };

  write(
    'flow.py',
    '"Notes on {s.city} for {s.nights} nights."',
    '"Notes on {s.city} for {s.nights} nights, by {s.name}, under {budgt}."',
  );
  const first = analyse();
  assert.deepEqual(
    placeholders(first).map((item) => item.message.slice(0, 14)),
    ['`{s.name}`: St', '`{budgt}` in n'],
    'a field the item does not have, and a misspelt State path',
  );
  const stopNotes = first.model.nodes.find((node) => node.id === 'stop-notes')!;

  // Text above every node: the nodes are kept, moved, and so are their findings and model nodes' parts.
  write('flow.py', 'def build(', '# The trip planner.\n\n\ndef build(');
  const moved = analyse();
  assert.ok(
    placeholders(first).every((item) => placeholders(moved).includes(item)),
    'the findings are the same objects, moved',
  );
  assert.equal(
    moved.model.nodes.find((node) => node.id === 'stop-notes')!.inputs,
    stopNotes.inputs,
    "the node's ports are kept",
  );

  // The State changes: the item's model gains the field, and the finding goes.
  write('state.py', '    nights: int = 1\n', '    nights: int = 1\n    name: str = ""\n');
  assert.deepEqual(
    placeholders(analyse()).map((item) => item.message.slice(0, 14)),
    ['`{budgt}` in n'],
  );

  // The fan-out's item is renamed; the node inside, its call unchanged, no longer has `s` in scope.
  // (A stage kept whole leaves its nodes' calls out of what the next reading can take: an edit in the stage first reads
  // them one by one.)
  write('flow.py', 'List the stops', 'List all the stops');
  const flowNode = (analysis: SkillAnalysis) =>
    asSkillplus(analysis).skillplus.flow!.nodes.find((node) => node.id === 'stop-notes');
  const beforeRename = flowNode(analyse());
  write('flow.py', 'item="s"', 'item="stop"');
  const renamed = analyse();
  assert.equal(flowNode(renamed), beforeRename, 'the node inside the fan-out is kept');
  assert.deepEqual(
    placeholders(renamed).map((item) => item.message.slice(0, 14)),
    ['`{s.city}` in ', '`{s.nights}` i', '`{s.name}` in ', '`{budgt}` in n'],
  );

  // A tip now fires in another stage: the kept model nodes say so.
  const tipAt = (analysis: SkillAnalysis, id: string) =>
    analysis.model.nodes.find((node) => node.id === id)!.attachments!.some((item) => item.id === 'budget-tips');
  assert.deepEqual([tipAt(renamed, 'route'), tipAt(renamed, 'ok')], [true, false]);
  write('references/budget-tips.md', 'when: stage=research and budget=low', 'when: stage=decide and budget=low');
  const retipped = analyse();
  assert.deepEqual([tipAt(retipped, 'route'), tipAt(retipped, 'ok')], [false, true]);

  // A State field the nodes read is renamed: their inputs no longer name a field.
  write('state.py', '    destination: str = ""\n', '    dest: str = ""\n');
  assert.equal(
    analyse().model.nodes.find((node) => node.id === 'route')!.inputs.length,
    0,
    'the read of {destination} is no longer a State input',
  );

  // A node's call moves, unchanged, to another stage: it is kept, in its new stage.
  const money = '        flow.ask("money", "Which budget?", into="budget", choices=["low", "mid", "high"])\n';
  write('flow.py', 'goal="Know where and how"', 'goal="Know where, and how"');
  const moneyNode = (analysis: SkillAnalysis) =>
    asSkillplus(analysis).skillplus.flow!.nodes.find((node) => node.id === 'money');
  const beforeMove = moneyNode(analyse());
  write('flow.py', money, '');
  write('flow.py', '        flow.confirm("ok"', `${money}        flow.confirm("ok"`);
  const movedOn = analyse();
  assert.equal(moneyNode(movedOn), beforeMove, 'the moved call is kept');
  assert.equal(movedOn.model.nodes.find((node) => node.id === 'money')!.group, 'decide');
});
