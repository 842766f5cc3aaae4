import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatModelContext } from '../../../server/src/analysis/modelContext';
import { modelContext } from '../../../server/src/formats/skillplus/runtime/modelContext';
import { evaluatePredicate, stateDefaults, type Position } from '../../../server/src/formats/skillplus/read/evaluate';
import { parsePredicate } from '../../../server/src/parse/predicate/predicate';
import { analyzePackage, PACKAGE } from '../../support/skillplus';
import { asSkillplus } from '../../support/formatParts';
import type { ModelContext } from '../../../server/src/protocol';

const at = (position: Partial<Position>): Position => ({
  stage: null,
  node: null,
  round: null,
  event: null,
  tool: null,
  item: null,
  ...position,
});
const holds = (text: string, state: Record<string, unknown>, position: Partial<Position> = {}) =>
  evaluatePredicate(parsePredicate(text).predicate!, state, at(position));

test('predicates are evaluated as the runtime does: built-ins from the position, paths from the State, Python truthiness', () => {
  assert.equal(holds('stage=research and budget=low', { budget: 'low' }, { stage: 'research' }), true);
  assert.equal(holds('stage=research and budget=low', { budget: 'mid' }, { stage: 'research' }), false);
  assert.equal(holds('budget in [low, mid]', { budget: 'mid' }), true);
  assert.equal(holds('not approved', { approved: false }), true);
  assert.equal(holds('notes', { notes: [] }), false);
  assert.equal(holds('notes', { notes: ['a'] }), true);
  assert.equal(holds('coverage >= 0.8', { coverage: 0.8 }), true);
  assert.equal(holds('coverage < 0.8', { coverage: null }), false);
  // `round` outside a loop is null: every comparison with it is false.
  assert.equal(holds('round >= 1', {}), false);
  assert.equal(holds('round >= 2', {}, { round: 2 }), true);
  assert.equal(holds('impact.severity = high', { impact: { severity: 'high' } }), true);
  assert.equal(holds('item.city = Porto', {}, { item: { city: 'Porto' } }), true);
  // `tool=Bash` matches `Bash@prod`: the part after @ is the environment.
  assert.equal(holds('tool = Bash', {}, { tool: 'Bash@prod' }), true);
  assert.equal(holds('tool = Bash@prod', {}, { tool: 'Bash@staging' }), false);
  assert.equal(holds('missing = null', {}), true);
});

test('the State a run starts with: literal defaults, default factories as empty values, nested models, inputs as null', () => {
  const { analysis } = analyzePackage();
  assert.deepEqual(stateDefaults(asSkillplus(analysis).skillplus.state), {
    traveller: null,
    destination: '',
    budget: 'mid',
    stops: [],
    notes: [],
    approved: false,
    coverage: 0,
    plan: '',
  });
});

function contextAt(
  node: string,
  options: { state?: Record<string, unknown>; round?: number; event?: string } = {},
  changes: Record<string, string> = {},
): ModelContext {
  const { analysis } = analyzePackage(changes);
  const result = modelContext(
    asSkillplus(analysis).skillplus,
    analysis.text.slice(analysis.syntax!.body.start),
    'trip',
    {
      node,
      ...options,
    },
  );
  assert.ok(!('error' in result), JSON.stringify(result));
  return result;
}

test('at a node: the brief, the map with ← current, the tips and rules whose when holds, each with its size', () => {
  const context = contextAt('route', { state: { budget: 'low', traveller: 'Ada' } });
  assert.deepEqual(context.at, { node: 'route', stage: 'research', event: 'stage_enter', round: null, tool: null });
  assert.deepEqual(
    context.parts.map((part) => `${part.kind}:${part.id ?? ''}`),
    ['brief:', 'map:', 'tip:budget-tips'],
  );
  const map = context.parts[1].text;
  assert.match(map, /- where \(ask → destination\) done\n/);
  // destination is still its default, "": the runtime fills in what the State holds.
  assert.match(map, /- route \(agent → stops\) ← current\n    List the stops for \.\n    Tools: scripts\/route\.py/);
  assert.match(map, /- fill \(agent → coverage\) not yet/);
  // Sizes are code points, tokens estimated at four characters each.
  for (const part of context.parts)
    assert.deepEqual([part.chars, part.tokens], [[...part.text].length, Math.ceil([...part.text].length / 4)]);
  assert.equal(
    context.chars,
    context.parts.reduce((sum, part) => sum + part.chars, 0),
  );
  assert.equal(context.tipChars, 'Prefer trains and hostels.'.length);
  // The .py deny rule is a gate, never text.
  assert.deepEqual(context.gates, [{ id: 'no-secrets', file: 'rules/no-secrets.py', onFail: 'deny' }]);
  // The first node of a stage follows the stage's entry, a seam the cite rule does not wait for.
  assert.deepEqual(
    context.leftOut.map((item) => `${item.kind} ${item.id}`),
    ['soft-rule cite'],
  );
  // At the next node, after a node ended, it applies (and stop-notes names it with rule= anyway).
  assert.deepEqual(
    contextAt('per-stop')
      .parts.filter((part) => part.kind === 'soft-rule')
      .map((part) => part.title),
    ['Soft rule cite (self-check, its when holds)'],
  );
  assert.deepEqual(
    contextAt('stop-notes')
      .parts.filter((part) => part.kind === 'soft-rule')
      .map((part) => part.title),
    ['Soft rule cite (self-check, named by rule= here)'],
  );
});

test('placeholders are filled from the State; a once tip that held earlier is not injected again; a false when is explained', () => {
  const context = contextAt('stop-notes', {
    state: { budget: 'low', stops: [{ city: 'Porto', nights: 2 }], destination: 'Portugal' },
  });
  assert.match(context.parts[1].text, /Notes on Porto for 2 nights\./);
  assert.match(context.parts[1].text, /- per-stop \(fanout → notes\) in progress/);
  assert.deepEqual(
    context.leftOut.map((item) => `${item.id}: ${item.reason}`),
    ['budget-tips: already injected at "route" (once)'],
  );
  const elsewhere = contextAt('where', { state: { budget: 'low' } });
  assert.deepEqual(
    elsewhere.leftOut.map((item) => `${item.kind} ${item.id}: ${item.reason}`),
    [
      'tip budget-tips: its when is false here (the stage is research and `budget` is low)',
      'soft-rule cite: its when is false here (the event is post_node and the stage is one of research, decide)',
    ],
  );
});

test("tips within the budget by priority; the rest left out with the numbers; a loop's round decides", () => {
  const tips = {
    'references/a.md': '---\nwhen: node=fill\npriority: 1\n---\n' + 'a'.repeat(500) + '\n',
    'references/b.md': '---\nwhen: node=fill\npriority: 9\n---\n' + 'b'.repeat(500) + '\n',
    'references/later.md': '---\nwhen: node=fill and round >= 2\n---\nSecond round.\n',
  };
  const first = contextAt('fill', {}, tips);
  assert.deepEqual(
    first.parts.filter((part) => part.kind === 'tip').map((part) => part.id),
    ['b'],
  );
  assert.deepEqual(
    first.leftOut.map((item) => `${item.id}: ${item.reason}`),
    [
      'budget-tips: its when is false here (the stage is research and `budget` is low)',
      'later: its when is false here (the node is fill and the round is at least 2)',
      'a: over the tip budget (500 of 900 characters used, this one is 500)',
    ],
  );
  assert.equal(first.at.round, 1);
  const second = contextAt('fill', { round: 2 }, tips);
  assert.deepEqual(
    second.parts.filter((part) => part.kind === 'tip').map((part) => part.id),
    ['b', 'later'],
  );
});

test('a hard .md rule without when is injected everywhere as a strong instruction; unknown nodes are an error', () => {
  const context = contextAt('where', {}, { 'rules/ground.md': '---\non_fail: stop\n---\nNever book anything.\n' });
  assert.deepEqual(
    context.parts.filter((part) => part.kind === 'hard-rule').map((part) => [part.id, part.title, part.text]),
    [['ground', 'Hard rule ground (stop, global)', 'Never book anything.']],
  );
  const { analysis } = analyzePackage();
  assert.deepEqual(modelContext(asSkillplus(analysis).skillplus, '', 'trip', { node: 'nowhere' }), {
    error: 'No node "nowhere"; nodes: where, money, route, per-stop, stop-notes, refine, fill, ok, gate, write, stop.',
  });
  const text = formatModelContext(contextAt('route', { state: { budget: 'low' } }));
  assert.match(text, /^What the model sees in trip at node "route" \(stage research, event stage_enter, round —\)/);
  assert.match(text, /## Tip budget-tips \(priority 5\) — references\/budget-tips\.md {2}\[26 chars · ~7 tokens\]/);
  assert.equal(PACKAGE['references/budget-tips.md'].includes('Prefer trains and hostels.'), true);
});
