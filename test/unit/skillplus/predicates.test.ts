import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePredicate } from '../../../server/src/parse/predicate/predicate';
import { analyzePackage, edit, expectIn, PACKAGE } from '../../support/skillplus';

test('the when grammar: precedence, in-lists, barewords, quoted reserved words, offsets', () => {
  const { predicate, problems } = parsePredicate(
    "stage=deep-dive and not sources_checked or tool in [Bash, 'and', scripts/x.py] and round >= 2",
  );
  assert.deepEqual(problems, []);
  assert.equal(predicate?.kind, 'or');
  const [left, right] = (predicate as { items: { kind: string }[] }).items;
  assert.equal(left.kind, 'and');
  assert.equal(right.kind, 'and');
  const bare = parsePredicate('tool=Bash@prod').predicate as { value: { value: string; bare: boolean } };
  assert.deepEqual([bare.value.value, bare.value.bare], ['Bash@prod', true]);
  assert.deepEqual(
    parsePredicate('stage = and').problems.map((problem) => [problem.start, problem.end]),
    [[8, 11]],
  );
  assert.match(parsePredicate('stage = and').problems[0].message, /reserved word: quote it/);
  assert.match(parsePredicate('(a and b').problems[0].message, /never closed/);
  assert.match(parsePredicate('a b').problems[0].message, /join conditions with `and` or `or`/);
  // A 10,000-character predicate and deep nesting are read without overflowing.
  assert.equal(parsePredicate(Array.from({ length: 1000 }, (_, i) => `f${i} = ${i}`).join(' and ')).problems.length, 0);
  assert.ok(parsePredicate('('.repeat(5000) + 'a' + ')'.repeat(5000)).problems.length > 0);
  assert.ok(parsePredicate('not '.repeat(3000) + 'a').problems.length > 0);
});

test('predicate_syntax: located at its column in the tip file', () => {
  const { analysis, spans } = analyzePackage(
    edit(
      'references/budget-tips.md',
      'when: stage=research and budget=low',
      'when: stage=research and «and» budget=low',
    ),
  );
  const [found] = expectIn(analysis, 'predicate_syntax', spans['references/budget-tips.md']);
  assert.match(found.message, /Expected a name.*found "and"/);
});

test('unknown_predicate_path: a misspelt field and a nested path into a model', () => {
  const { analysis, spans } = analyzePackage(
    edit('references/budget-tips.md', 'when: stage=research and budget=low', 'when: stage=research and «budgt»=low'),
  );
  const [found] = expectIn(analysis, 'unknown_predicate_path', spans['references/budget-tips.md']);
  assert.equal(found.data?.suggestion, 'budget');
});

test('unknown_flow_id: stage= and node= name ids that exist', () => {
  const { analysis, spans } = analyzePackage(
    edit(
      'rules/cite.md',
      'when: event=post_node and stage in [research, decide]',
      'when: event=post_node and stage in [«reserch», decide] or node=«wirte»',
    ),
  );
  const found = expectIn(analysis, 'unknown_flow_id', spans['rules/cite.md']);
  assert.deepEqual(
    found.map((item) => item.data?.suggestion),
    ['research', 'write'],
  );
});

test('predicate_value: outside a Literal, a string for a bool, an unknown event, a script without scripts/', () => {
  const { analysis, spans } = analyzePackage(
    edit(
      'references/budget-tips.md',
      'when: stage=research and budget=low',
      'when: stage=research and budget=«cheap» or approved=«yes» or event=«post_step» or tool=«route.py»',
    ),
  );
  const found = expectIn(analysis, 'predicate_value', spans['references/budget-tips.md']);
  assert.match(found[0].message, /`budget` is Literal\["low", "mid", "high"\]: "cheap" is never equal to it/);
  assert.match(found[1].message, /`approved` is bool/);
  assert.match(found[2].message, /"post_step" is not an event/);
  assert.equal(found[3].data?.suggestion, 'scripts/route.py');
});

test('predicate_never_holds: two values for one field; a tip waiting for a seam tips never see', () => {
  const contradiction = analyzePackage(
    edit(
      'references/budget-tips.md',
      'when: stage=research and budget=low',
      'when: «stage=research and budget=low and budget=high»',
    ),
  );
  const [found] = expectIn(
    contradiction.analysis,
    'predicate_never_holds',
    contradiction.spans['references/budget-tips.md'],
  );
  assert.match(found.message, /`budget` cannot be both low and high/);
  const seam = analyzePackage(
    edit('references/budget-tips.md', 'when: stage=research and budget=low', 'when: «event=pre_tool and budget=low»'),
  );
  const [gate] = expectIn(seam.analysis, 'predicate_never_holds', seam.spans['references/budget-tips.md']);
  assert.match(gate.message, /tips and soft rules see only stage_enter, post_tool and post_node/);
  // The same event is fine for a hard rule, which is a gate at that seam.
  assert.ok(!analyzePackage().analysis.diagnostics.some((item) => item.code === 'predicate_never_holds'));
});

test('where a tip can fire: stage, node and round decide; a tip whose when holds at no node is unused', () => {
  const { analysis } = analyzePackage();
  const at = (id: string) =>
    analysis.model.nodes.filter((node) => node.attachments?.some((item) => item.id === id)).map((node) => node.id);
  assert.deepEqual(at('budget-tips'), ['route', 'per-stop', 'stop-notes', 'refine', 'fill']);
  const rounds = analyzePackage(
    edit('references/budget-tips.md', 'when: stage=research and budget=low', 'when: stage=research and round >= 2'),
  );
  assert.deepEqual(
    rounds.analysis.model.nodes
      .filter((node) => node.attachments?.some((item) => item.id === 'budget-tips'))
      .map((node) => node.id),
    ['fill'],
  );
  const nowhere = analyzePackage(
    edit('references/budget-tips.md', 'when: stage=research and budget=low', 'when: stage=ask and node=route'),
  );
  const [unused] = expectIn(nowhere.analysis, 'unused_rule_or_tip', [
    {
      ...nowhere.spans['references/budget-tips.md'],
      start: 4,
      end: 8,
      file: nowhere.analysis.diagnostics.find((item) => item.code === 'unused_rule_or_tip')!.file,
    },
  ]);
  assert.match(unused.message, /Tip "budget-tips" applies at no node/);
  assert.equal(PACKAGE['references/budget-tips.md'].slice(4, 8), 'when');
});

test('a when written as a YAML list holds when any item holds', () => {
  const { analysis } = analyzePackage(
    edit('references/budget-tips.md', 'when: stage=research and budget=low', 'when:\n  - node=where\n  - node=write'),
  );
  assert.deepEqual(analysis.diagnostics, []);
  assert.deepEqual(
    analysis.model.nodes
      .filter((node) => node.attachments?.some((item) => item.id === 'budget-tips'))
      .map((node) => node.id),
    ['where', 'write'],
  );
});
