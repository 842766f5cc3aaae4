import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzePackage, edit, expectIn, PACKAGE } from '../../support/skillplus';

test('the base package is recognised as skill+ and checks clean, every file read', () => {
  const { analysis } = analyzePackage();
  assert.equal(analysis.format, 'skillplus');
  assert.deepEqual(analysis.diagnostics, []);
  assert.deepEqual([...analysis.sources.keys()].map((file) => file.split('/trip/')[1]).sort(), [
    'flow.py',
    'references/budget-tips.md',
    'references/guide.md',
    'rules/cite.md',
    'rules/no-secrets.py',
    'spec.md',
    'state.py',
  ]);
  assert.deepEqual(
    analysis.model.groups?.map((group) => group.id),
    ['ask', 'research', 'decide'],
  );
});

/** The same flow written as flow.yaml. */
const FLOW_YAML = `stages:
  - id: ask
    goal: Know where and how
    nodes:
      - ask: where
        question: Where does {traveller} want to go?
        into: destination
      - ask: money
        question: Which budget?
        into: budget
        choices: [low, mid, high]
  - id: research
    nodes:
      - agent: route
        instruction: List the stops for {destination}.
        into: stops
        tool: scripts/route.py
      - fanout: per-stop
        over: stops
        item: s
        into: notes
        nodes:
          - agent: stop-notes
            instruction: Notes on {s.city} for {s.nights} nights.
            rule: cite
      - loop: refine
        until: coverage >= 0.8
        max_rounds: 3
        nodes:
          - agent: fill
            instruction: Fill the gaps in {notes}.
            into: coverage
  - id: decide
    nodes:
      - confirm: ok
        prompt: Plan the trip to {destination}?
        into: approved
      - branch: gate
        on: approved
        cases:
          - values: [true]
            nodes:
              - agent: write
                instruction: Write the plan for {traveller}.
                into: plan
                rule: [cite, no-secrets]
        otherwise:
          - end: stop
            summary: The traveller declined.
`;

test('both front ends give the same flow, the same model and the same diagnostics', () => {
  const python = analyzePackage();
  const yaml = analyzePackage({ 'flow.py': null, 'flow.yaml': FLOW_YAML });
  const shape = (analysis: typeof python.analysis) => ({
    nodes: analysis.model.nodes.map((node) => [
      node.id,
      node.kind,
      node.group,
      node.inputs.map((port) => port.name),
      node.outputs.map((port) => port.name),
      node.attachments?.map((item) => item.id),
    ]),
    edges: analysis.model.edges.map(
      (edge) => `${edge.from}-${edge.kind}${edge.label ? `:${edge.label}` : ''}->${edge.to}`,
    ),
    codes: analysis.diagnostics.map((item) => item.code),
  });
  assert.deepEqual(shape(yaml.analysis), shape(python.analysis));
  // A mistake made in each front end is found in each, at its place.
  const badPy = analyzePackage(edit('flow.py', 'into="destination")', 'into="«destinaton»")'));
  const badYaml = analyzePackage({
    'flow.py': null,
    'flow.yaml': FLOW_YAML.replace('into: destination', 'into: «destinaton»'),
  });
  assert.equal(
    expectIn(badPy.analysis, 'unknown_state_path', badPy.spans['flow.py'])[0].data?.suggestion,
    'destination',
  );
  assert.equal(
    expectIn(badYaml.analysis, 'unknown_state_path', badYaml.spans['flow.yaml'])[0].data?.suggestion,
    'destination',
  );
});

test('dynamic_flow: a loop in build() is reported once at its first line; the nodes inside are still read', () => {
  const flow = PACKAGE['flow.py'].replace(
    '        flow.ask("money", "Which budget?", into="budget", choices=["low", "mid", "high"])',
    '        «for level in ["low"]:»\n            flow.ask("money", f"Which budget, {level}?", into="budget", choices=["low", "mid", "high"])',
  );
  const { analysis, spans } = analyzePackage({ 'flow.py': flow });
  const [found] = expectIn(analysis, 'dynamic_flow', spans['flow.py']);
  assert.match(found.message, /A `for` statement is not part of the static flow subset/);
  assert.ok(analysis.model.nodes.some((node) => node.id === 'money'));
});

test('invalid_flow_call: an unknown keyword, a missing id, a build function that is not there', () => {
  const { analysis, spans } = analyzePackage(
    edit(
      'flow.py',
      'flow.ask("where", "Where does {traveller} want to go?", into="destination")',
      '«flow.ask()»\n        flow.ask("where", "Where does {traveller} want to go?", «intto»="destination")',
    ),
  );
  const found = expectIn(analysis, 'invalid_flow_call', spans['flow.py']);
  assert.match(found[0].message, /needs a literal id/);
  assert.match(found[1].message, /`ask` takes no `intto=`/);
  const noBuild = analyzePackage({ 'flow.py': '«"»""No build."""\n' });
  expectIn(noBuild.analysis, 'invalid_flow_call', [{ ...noBuild.spans['flow.py'][0] }]);
});

test('duplicate_flow_id, nested_stage and node_outside_stage', () => {
  const flow = PACKAGE['flow.py']
    .replace('flow.ask("money"', 'flow.ask("«where»"')
    .replace(
      '    with flow.stage("decide"):',
      '        with flow.stage("«inner»"):\n            pass\n    flow.agent("«loose»", "Outside.")\n    with flow.stage("decide"):',
    );
  const { analysis, spans } = analyzePackage({ 'flow.py': flow });
  const [duplicate, inner, loose] = spans['flow.py'];
  expectIn(analysis, 'duplicate_flow_id', [duplicate]);
  expectIn(analysis, 'nested_stage', [inner]);
  expectIn(analysis, 'node_outside_stage', [loose]);
});

test("invalid_branch: a value outside the field's type, a repeated value, a desc case on a branch with on", () => {
  const flow = PACKAGE['flow.py'].replace(
    '            with b.case(True):',
    '            with b.case("«yes»"):\n                pass\n            with b.case(False):\n                pass\n            with b.case(«False»):\n                pass\n            with b.case(desc="«maybe»"):\n                pass\n            with b.case(True):',
  );
  const { analysis, spans } = analyzePackage({ 'flow.py': flow });
  const found = expectIn(analysis, 'invalid_branch', spans['flow.py']);
  assert.match(found[0].message, /`approved` is bool: "yes" is not one of its values/);
  assert.match(found[1].message, /already taken by an earlier case/);
  assert.match(found[2].message, /switches on `approved`: its cases give values, not `desc`/);
});

test('invalid_loop and invalid_fanout: no max_rounds, no exit; a fan-out over a scalar whose item shadows a field and whose body writes a scalar', () => {
  const flow = PACKAGE['flow.py']
    .replace('with flow.loop("refine", until="coverage >= 0.8", max_rounds=3):', 'with flow.loop("«refine»"):')
    .replace(
      'with flow.fanout("per-stop", over="stops", item="s", into="notes"):',
      'with flow.fanout("per-stop", over="«destination»", item="«plan»", into="notes"):',
    )
    .replace(
      'flow.agent("stop-notes", "Notes on {s.city} for {s.nights} nights.", rule="cite")',
      'flow.agent("stop-notes", "Notes on the stop.", into="«coverage»", rule="cite")',
    );
  const { analysis, spans } = analyzePackage({ 'flow.py': flow });
  const [over, item, into, refine] = spans['flow.py'];
  const loops = expectIn(analysis, 'invalid_loop', [refine, refine]);
  assert.match(loops[0].message, /needs `max_rounds`/);
  assert.match(loops[1].message, /has no exit/);
  const fanouts = expectIn(analysis, 'invalid_fanout', [over, item, into]);
  assert.match(fanouts[0].message, /`over` of a fan-out is a list field; `destination` is str/);
  assert.match(fanouts[1].message, /also a State field/);
  assert.match(fanouts[2].message, /writes the scalar `coverage`/);
});

test('invalid_flow_file: both front ends without a choice; a flow that is not there', () => {
  const anchored = { 'SKILL.md': PACKAGE['SKILL.md'].replace('---', '«---»') };
  const both = analyzePackage({ ...anchored, 'flow.yaml': FLOW_YAML });
  assert.match(
    expectIn(both.analysis, 'invalid_flow_file', both.spans['SKILL.md'])[0].message,
    /Both flow.py and flow.yaml/,
  );
  const none = analyzePackage({ ...anchored, 'flow.py': null });
  assert.match(
    expectIn(none.analysis, 'invalid_flow_file', none.spans['SKILL.md'])[0].message,
    /`flow.yaml` does not exist/,
  );
  // A chosen flow that is not there is reported at the choice.
  const chosen = analyzePackage({
    'SKILL.md': PACKAGE['SKILL.md'].replace(
      '  skillplus-tip-budget',
      '  skillplus-flow: «flows/main.py»\n  skillplus-tip-budget',
    ),
  });
  expectIn(chosen.analysis, 'invalid_flow_file', chosen.spans['SKILL.md']);
});

test('invalid_flow_yaml: unknown keys, two kind keys, text that YAML read as a mapping', () => {
  const yaml = FLOW_YAML.replace('        question: Which budget?', '        «questoin»: Which budget?')
    .replace(
      '      - confirm: ok',
      '      - «confirm: ok\n        agent: also\n        prompt: Plan the trip to {destination}?\n        into: approved\n»      - confirm: ok2',
    )
    .replace('instruction: Fill the gaps in {notes}.', 'instruction: «{notes}»');
  const { analysis, spans } = analyzePackage({ 'flow.py': null, 'flow.yaml': yaml });
  const found = expectIn(analysis, 'invalid_flow_yaml', spans['flow.yaml']);
  assert.match(found[0].message, /Unknown key `questoin` on a `ask` node/);
  assert.match(found[1].message, /read as a mapping: quote text that starts with `\{`/);
  assert.match(found[2].message, /exactly one kind key; this one has `confirm` and `agent`/);
});

test('invalid_flow_yaml: text starting with { followed by more words does not parse; the message says to quote it', () => {
  const { analysis } = analyzePackage({
    'flow.py': null,
    'flow.yaml': FLOW_YAML.replace('instruction: Fill the gaps in {notes}.', 'instruction: {notes} need filling'),
  });
  const found = analysis.diagnostics.filter((item) => item.code === 'invalid_flow_yaml');
  assert.equal(found.length, 1);
  assert.match(found[0].message, /not valid YAML: .*Quote text that starts with `\{`/);
});
