import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeAmong, expectAt, expectNone, withCode } from '../../support/fixture';

/** Ordinary skills a MetaSkill in the same folder may compose. */
const CATALOG = {
  'code-reviewer/SKILL.md': '---\nname: code-reviewer\ndescription: Reviews code. Use when reviewing.\n---\nReview.\n',
  'test-engineer/SKILL.md': '---\nname: test-engineer\ndescription: Assesses tests. Use when testing.\n---\nTests.\n',
  'summarize/SKILL.md':
    '---\nname: summarize\ndescription: Summarises text. Use when summarising.\nentrypoint:\n  script: scripts/run.py\n---\nSummarise.\n',
  'other-meta/SKILL.md':
    '---\nname: other-meta\ndescription: Another plan.\nkind: meta\ncomposition:\n  steps:\n    - id: a\n      skill: summarize\n---\n',
};

function meta(steps: string, extra = ''): string {
  return `---\nname: review\ndescription: Review the change, then merge findings.\nkind: meta\n${extra}composition:\n  steps:\n${steps}---\n# Review\nFallback: report the failed step.\n`;
}

const VALID = `    - id: inspect_code
      skill: code-reviewer
      with:
        task: "Review: {{ inputs.user_message | xml_escape | truncate(512) }}"
    - id: inspect_tests
      skill: test-engineer
      with: {task: "Assess: {{ inputs.user_message | xml_escape }}"}
    - id: merge
      skill: summarize
      depends_on: [inspect_code, inspect_tests]
      on_failure: merge_fallback
      with:
        text: |
          Code review: {{ outputs.inspect_code | truncate(2000) }}
          Test review: {{ outputs['inspect_tests'] | truncate(2000) }}
    - id: merge_fallback
      kind: llm_chat
      with: {system: "Summarize briefly.", task: "Summarize the reviews."}
`;

test('a valid MetaSkill: no diagnostics, a node per step, control, substitute and binding edges', () => {
  const { analysis } = analyzeAmong('review', meta(VALID, 'final_text_mode: "step:merge"\n'), CATALOG);
  assert.deepEqual(analysis.diagnostics, []);
  assert.equal(analysis.format, 'metaskill');
  const { nodes, edges, externalInputs } = analysis.model;
  assert.deepEqual(
    nodes.map((node) => [node.id, node.kind]),
    [
      ['inspect_code', 'agent'],
      ['inspect_tests', 'agent'],
      ['merge', 'agent'],
      ['merge_fallback', 'llm_chat'],
    ],
  );
  assert.deepEqual(
    edges.map((edge) => [edge.from, edge.to, edge.kind, edge.label ?? '']),
    [
      ['inspect_code', 'merge', 'control', ''],
      ['inspect_tests', 'merge', 'control', ''],
      ['merge', 'merge_fallback', 'fallback', 'on failure'],
      ['inspect_code', 'merge', 'data', 'with.text'],
      ['inspect_tests', 'merge', 'data', 'with.text'],
    ],
  );
  // Each binding edge is located on the step id it reads, inside the block scalar.
  const text = analysis.text;
  assert.deepEqual(
    edges.filter((edge) => edge.kind === 'data').map((edge) => text.slice(edge.span!.start, edge.span!.end)),
    ['inspect_code', 'inspect_tests'],
  );
  assert.deepEqual(
    externalInputs.map((port) => [port.name, port.nodeId, port.feeds, text.slice(port.span.start, port.span.end)]),
    [
      ['inputs.user_message', 'inspect_code', 'with.task', 'inputs.user_message'],
      ['inputs.user_message', 'inspect_tests', 'with.task', 'inputs.user_message'],
    ],
  );
  assert.deepEqual(
    analysis.model.refs?.map((ref) => [ref.target, text.slice(ref.span.start, ref.span.end)]),
    [['merge', 'merge']],
  );
  assert.equal(nodes[2].skillRefs?.[0].file, '/skills/summarize/SKILL.md');
});

test('the frontmatter is read as PyYAML reads it: yes is a boolean, a repeated key keeps its last value with a warning', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    `---\nname: review\ndescription: First.\n«description»: Second.\nkind: meta\nalways: yes\ncomposition:\n  steps:\n    - id: a\n      skill: code-reviewer\n      progress_emits: no\n---\n`,
    CATALOG,
  );
  const [found] = expectAt(analysis, 'duplicate_key', spans);
  assert.match(found.message, /first on line 3/);
  expectNone(analysis, 'invalid_meta_step');
  assert.equal((analysis.frontmatter!.value as Record<string, unknown>).description, 'Second.');
  assert.equal((analysis.frontmatter!.value as Record<string, unknown>).always, true);
});

test('a MetaSkill whose frontmatter does not parse is reported as PyYAML reads it, and read once: no reading gives a value to tell the two apart', () => {
  // A step's block scalar ended by a line typed at the wrong indentation, as happens mid-edit.
  const broken = meta(
    `    - id: inspect_code\n      skill: code-reviewer\n      with:\n        task: |\n          Review the change.\n  x       {{ inputs.user_message }}\n`,
  );
  const { analysis } = analyzeAmong('review', broken, CATALOG);
  assert.ok(
    analysis.diagnostics.some((item) => item.code === 'invalid_frontmatter'),
    'the YAML error is reported',
  );
  assert.equal(
    analysis.frontmatter!.doc.directives?.yaml.version,
    '1.1',
    'the reading the `kind: meta` line chose (PyYAML, YAML 1.1) stands',
  );
  // A plain skill's frontmatter broken the same way is read as YAML 1.2, as before.
  const plain = analyzeAmong('plain', '---\nname: plain\ndescription: |\n  One.\n x two\n---\n', {}).analysis;
  assert.ok(plain.diagnostics.some((item) => item.code === 'invalid_frontmatter'));
  assert.equal(plain.frontmatter!.doc.directives?.yaml.version, '1.2');
});

test('invalid_frontmatter: a repeated key outside a MetaSkill, where strict readers reject the file', () => {
  const { analysis, spans } = analyzeAmong('plain', '---\nname: plain\ndescription: One.\n«name»: plain\n---\n', {});
  const [found] = expectAt(analysis, 'invalid_frontmatter', spans);
  assert.match(found.message, /`name` is set again here \(first on line 2\)/);
});

test("OpenSquilla decides a MetaSkill's frontmatter errors: a long description and nested metadata are fine, a bad name is a warning", () => {
  const long = 'word '.repeat(260).trim();
  const { analysis } = analyzeAmong(
    'review',
    `---\nname: Review_Plan\ndescription: ${long}\nkind: meta\nmetadata:\n  opensquilla: {risk: low}\ncomposition:\n  steps:\n    - id: a\n      skill: code-reviewer\n---\n`,
    CATALOG,
  );
  assert.deepEqual(
    analysis.diagnostics.filter((item) => item.severity === 'error').map((item) => item.code),
    [],
  );
  assert.deepEqual(
    withCode(analysis, 'invalid_name').map((item) => item.severity),
    ['warning'],
  );
  assert.deepEqual(
    withCode(analysis, 'invalid_description').map((item) => item.severity),
    ['warning'],
  );
  expectNone(analysis, 'portable_value');
});

test('loader_size_limit: OpenSquilla skips a SKILL.md over 256,000 bytes', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    `«---»\nname: review\ndescription: x\nkind: meta\ncomposition:\n  steps:\n    - id: a\n      skill: code-reviewer\n---\n${'x'.repeat(256_001)}\n`,
    CATALOG,
  );
  expectAt(analysis, 'loader_size_limit', spans);
});

test('invalid_composition: no composition, and an empty step list', () => {
  const missing = analyzeAmong('review', '---\nname: review\ndescription: x\nkind: «meta»\n---\n', CATALOG);
  expectAt(missing.analysis, 'invalid_composition', missing.spans);
  const empty = analyzeAmong(
    'review',
    '---\nname: review\ndescription: x\nkind: meta\ncomposition:\n  steps: «[]»\n---\n',
    CATALOG,
  );
  const [found] = expectAt(empty.analysis, 'invalid_composition', empty.spans);
  assert.match(found.message, /`composition\.steps` needs at least 1 item/);
});

test('invalid_meta_step: an unknown kind (with a suggestion), a missing skill, a bare label, choices on the wrong kind', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: a
      kind: «agnet»
      skill: code-reviewer
    - «id»: b
      kind: skill_exec
    - id: c
      kind: llm_chat
      label: «»
    - id: d
      kind: llm_chat
      output_choices: «[A, B]»
`),
    CATALOG,
  );
  const found = expectAt(analysis, 'invalid_meta_step', spans);
  assert.equal(found[0].data?.suggestion, 'agent');
  assert.match(found[0].message, /not one of "agent", "llm_chat".*Did you mean `agent`\?/);
  assert.match(found[1].message, /missing the required key `skill`/);
  assert.match(found[2].message, /`composition\.steps\[2\]\.label` must be a string, not null/);
  assert.match(found[3].message, /only read by `llm_classify`/);
});

test('invalid_meta_step: tool_allowlist without the tool, and clarify forms OpenSquilla rejects', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: save
      kind: tool_call
      tool: memory_save
      tool_allowlist: «[emit_text]»
    - id: ask
      kind: user_input
      clarify:
        fields:
          - name: topic
            type: string
            required: true
            «default»: x
          - name: level
            type: enum
            «default»: high
            choices: [low, medium]
          - name: count
            type: int
            «min»: 5
            max: 2
`),
    CATALOG,
  );
  const found = expectAt(analysis, 'invalid_meta_step', spans);
  assert.match(found[0].message, /does not contain the step's tool "memory_save"/);
  assert.match(found[1].message, /required and has a `default`/);
  assert.match(found[2].message, /default "high" is not one of its `choices`/);
  assert.match(found[3].message, /`min` 5 is above `max` 2/);
});

test('invalid_meta_step: a form asks at most 13 fields, counting the additional_notes the runtime adds', () => {
  const fields = (count: number, extra = '') =>
    Array.from({ length: count }, (_, i) => `          - {name: f${i}, type: string}\n`).join('') + extra;
  const over = analyzeAmong(
    'review',
    meta(`    - id: ask\n      kind: user_input\n      clarify:\n        «fields»:\n${fields(13)}`),
    CATALOG,
  );
  const [found] = expectAt(over.analysis, 'invalid_meta_step', over.spans);
  assert.match(found.message, /declares 13, at most 12 allowed/);
  const declared = analyzeAmong(
    'review',
    meta(
      `    - id: ask\n      kind: user_input\n      clarify:\n        fields:\n${fields(12, '          - {name: additional_notes, type: string}\n')}`,
    ),
    CATALOG,
  );
  expectNone(declared.analysis, 'invalid_meta_step');
});

test('invalid_substitute: itself, unknown (with a suggestion), chained, with depends_on, shared', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: a
      skill: code-reviewer
      on_failure: «a»
    - id: b
      skill: code-reviewer
      on_failure: «fallbak»
    - id: c
      skill: code-reviewer
      on_failure: «chained»
    - id: chained
      kind: llm_chat
      on_failure: fallback
    - id: fallback
      kind: llm_chat
    - id: d
      skill: code-reviewer
      on_failure: «dependent»
    - id: dependent
      kind: llm_chat
      depends_on: [a]
    - id: f
      skill: code-reviewer
      on_failure: «fallback»
`),
    CATALOG,
  );
  const found = expectAt(analysis, 'invalid_substitute', spans);
  assert.match(found[0].message, /names itself/);
  assert.equal(found[1].data?.suggestion, 'fallback');
  assert.match(found[2].message, /has an `on_failure` of its own/);
  assert.match(found[3].message, /declares `depends_on`/);
  assert.match(found[4].message, /already the substitute of "chained"/);
});

test('unknown_step_key: depend_on is ignored upstream, so the edge silently disappears', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(
      `    - id: a\n      skill: code-reviewer\n    - id: b\n      skill: summarize\n      «depend_on»: [a]\n      read_only: true\n`,
    ),
    CATALOG,
  );
  const [found] = expectAt(analysis, 'unknown_step_key', spans);
  assert.equal(found.data?.suggestion, 'depends_on');
  assert.match(found.message, /this step has no dependencies and starts at once/);
  assert.equal(analysis.model.edges.filter((edge) => edge.kind === 'control').length, 0);
});

test('unknown_dependency and dependency_cycle on depends_on', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(
      `    - id: a\n      skill: code-reviewer\n      depends_on: [«revew»]\n    - id: b\n      skill: summarize\n      depends_on: [«c»]\n    - id: c\n      skill: summarize\n      depends_on: [b]\n`,
    ),
    CATALOG,
  );
  expectAt(analysis, 'unknown_dependency', [spans[0]]);
  expectAt(analysis, 'dependency_cycle', [spans[1]]);
});

test('unknown_skill and nested_meta_skill: composed skills and route targets come from the catalog', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: a
      skill: «code-reviewr»
    - id: b
      skill: «other-meta»
    - id: c
      kind: llm_classify
      output_choices: [DOCS, BUG]
    - id: d
      skill: summarize
      depends_on: [c]
      route:
        - when: "outputs.c == 'DOCS'"
          to: «writer»
        - when: "outputs.c == 'BUG'"
          to: test-engineer
    - id: e
      kind: llm_chat
      skill: not-checked-on-llm-chat
`),
    CATALOG,
  );
  const unknown = expectAt(analysis, 'unknown_skill', [spans[0], spans[2]]);
  assert.equal(unknown[0].data?.suggestion, 'code-reviewer');
  assert.match(
    unknown[1].message,
    /A route of step "d" runs "writer", which is not in the catalog \(the skills beside it in skills\/\)/,
  );
  expectAt(analysis, 'nested_meta_skill', [spans[1]]);
});

test('unknown_output: in a double-quoted scalar with escapes, located on the name; the get() form is a warning', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: first
      skill: code-reviewer
    - id: second
      skill: summarize
      depends_on: [first]
      with:
        task: "Say \\"hi\\"\\t{{ outputs.«frist» }} and {{ outputs.get('«nothing»', '') }}"
`),
    CATALOG,
  );
  const found = expectAt(analysis, 'unknown_output', spans);
  assert.equal(found[0].data?.suggestion, 'first');
  assert.deepEqual(
    found.map((item) => item.severity),
    ['error', 'warning'],
  );
});

test("unknown_output: the runtime's reserved outputs are not steps but are known", () => {
  const { analysis } = analyzeAmong(
    'review',
    meta(
      `    - id: a\n      skill: code-reviewer\n      with:\n        proofs: "{{ outputs.get('__opensquilla_paid_submission_receipt_proofs_v1__', '{}') }}"\n`,
    ),
    CATALOG,
  );
  expectNone(analysis, 'unknown_output');
});

test("binding_out_of_scope: a step that may run at the same time, in a folded block; a substitute sees its primary's ancestors", () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: a
      skill: code-reviewer
    - id: b
      skill: test-engineer
    - id: c
      skill: summarize
      depends_on: [a]
      on_failure: c_fallback
      with:
        text: >-
          First {{ outputs.a }}
          then {{ outputs.«b» }}.
    - id: c_fallback
      kind: llm_chat
      with: {task: "Retry with {{ outputs.a }} and {{ outputs.«c» }}"}
`),
    CATALOG,
  );
  const found = expectAt(analysis, 'binding_out_of_scope', spans);
  assert.deepEqual(found[0].data, { producer: 'b', consumer: 'c' });
  assert.match(found[1].message, /a substitute sees what its primary depends on/);
});

test('unknown_input, unknown_filter and filter_arguments', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: ask
      kind: user_input
      clarify:
        fields: [{name: topic, type: string}]
    - id: a
      skill: code-reviewer
      depends_on: [ask]
      with:
        task: "{{ inputs.«user_mesage» | xml_escape }} {{ inputs.collected.«asks».topic }} {{ inputs.collected.ask.topic | «lowr» }} {{ inputs.workspace_dir | «truncate»(10, true) }} {{ inputs.get('anything') }}"
`),
    CATALOG,
  );
  const inputs = expectAt(analysis, 'unknown_input', [spans[0], spans[1]]);
  assert.equal(inputs[0].data?.suggestion, 'user_message');
  assert.equal(inputs[1].data?.suggestion, 'ask');
  const [filter] = expectAt(analysis, 'unknown_filter', [spans[2]]);
  assert.equal(filter.data?.suggestion, 'lower');
  const [arity] = expectAt(analysis, 'filter_arguments', [spans[3]]);
  assert.match(arity.message, /`truncate` takes at most 1 argument, not 2/);
});

test('template_syntax and template_in_expression: an unclosed {{, an unclosed block, {{ }} in a when', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: a
      skill: code-reviewer
      with:
        task: 'Review «{{» outputs'
        notes: |
          «{% if inputs.language %}»
          in {{ inputs.language }}
    - id: b
      skill: summarize
      depends_on: [a]
      when: "«{{ outputs.a }}» == 'x'"
`),
    CATALOG,
  );
  expectAt(analysis, 'template_syntax', [spans[0], spans[1]]);
  expectAt(analysis, 'template_in_expression', [spans[2]]);
});

test('raw_user_message: lint G1.6 scans the whole file for the literal form', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    `---\nname: review\ndescription: x\nkind: meta\ncomposition:\n  steps:\n    - id: a\n      skill: code-reviewer\n      with:\n        task: "{{ «inputs.user_message» | truncate(100) }}"\n        safe: "{{ inputs.user_message | slugify }}"\n---\nBody: {{ «inputs.user_message» }}\n`,
    CATALOG,
  );
  const found = expectAt(analysis, 'raw_user_message', spans);
  assert.equal(found[0].data?.insertAt, spans[0].end);
});

test('invalid_final_text_mode: step:X names no step', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: merge\n      skill: summarize\n`, 'final_text_mode: "step:«merg»"\n'),
    CATALOG,
  );
  const [found] = expectAt(analysis, 'invalid_final_text_mode', spans);
  assert.equal(found.data?.suggestion, 'merge');
});

test('duplicate_step_name: two steps with one id', () => {
  const { analysis, spans } = analyzeAmong(
    'review',
    meta(`    - id: a\n      skill: code-reviewer\n    - id: «a»\n      skill: summarize\n`),
    CATALOG,
  );
  expectAt(analysis, 'duplicate_step_name', spans);
});

test('duplicate_step_name: a phase saving under the name of the phase before draws no edge to itself', () => {
  const sop = `---\nname: paper\ndescription: Draft a paper.\nkind: meta_sop\n---\n# Paper\n\n## Phase 1: Draft\nRun \`summarize\`. Save as \`draft\`.\n\n## Phase 2: Again\nRun \`summarize\`. Save as \`«draft»\`.\n`;
  const { analysis, spans } = analyzeAmong('paper', sop, CATALOG);
  expectAt(analysis, 'duplicate_step_name', spans);
  expectNone(analysis, 'dependency_cycle');
  assert.deepEqual(
    analysis.model.edges.filter((edge) => edge.from === edge.to),
    [],
  );
});

test('meta_sop: phases compile to the steps of the composition form, with the same dependencies', () => {
  const sop = `---
name: paper
description: Draft a paper.
kind: meta_sop
---
# Paper

## Phase 1: Preferences
Invoke \`code-reviewer\` as agent with:
- user_message: \`{{ inputs.user_message | xml_escape | truncate(1200) }}\`
Save as \`prefs\`.

## Phase 2: Foundation [parallel]
Run \`summarize\`. Save as \`search\`.
Run \`test-engineer\`. Save as \`experiment\`.

## Phase 3: Sections [parallel for_each: section; depends_on: [search, experiment]]
\`\`\`yaml for_each
section:
  - {id: draft_intro, name: introduction}
  - {id: draft_results, name: results, figure: fig.pdf}
\`\`\`

Invoke \`code-reviewer\` as agent with:
- section: \`{{ section.name }}\`
- figure: \`{{ section.figure }}\`
- prefs: \`{{ outputs.prefs | truncate(400) }}\`
Save as \`{{ section.id }}\`.
`;
  const { analysis } = analyzeAmong('paper', sop, CATALOG);
  assert.equal(analysis.format, 'metaskill-sop');
  assert.deepEqual(analysis.diagnostics, []);
  const plan = analysis.metaPlan!;
  assert.deepEqual(
    plan.steps.map((step) => [
      step.id,
      step.kind,
      step.skill?.value,
      step.dependsOn.map((item) => item.value),
      step.templates.map((template) => `${template.argument}=${template.source.value}`),
    ]),
    [
      [
        'prefs',
        'agent',
        'code-reviewer',
        [],
        ['with.user_message={{ inputs.user_message | xml_escape | truncate(1200) }}'],
      ],
      ['search', 'skill_exec', 'summarize', ['prefs'], []],
      ['experiment', 'agent', 'test-engineer', ['prefs'], []],
      [
        'draft_intro',
        'agent',
        'code-reviewer',
        ['search', 'experiment'],
        ['with.section=introduction', 'with.prefs={{ outputs.prefs | truncate(400) }}'],
      ],
      [
        'draft_results',
        'agent',
        'code-reviewer',
        ['search', 'experiment'],
        ['with.section=results', 'with.figure=fig.pdf', 'with.prefs={{ outputs.prefs | truncate(400) }}'],
      ],
    ],
  );
  // Bindings stay located in the body: the expanded steps' `outputs.prefs` points at the written text.
  const binding = analysis.model.edges.find((edge) => edge.kind === 'data' && edge.to === 'draft_intro')!;
  assert.equal(analysis.text.slice(binding.span!.start, binding.span!.end), 'prefs');
  assert.equal(
    analysis.text.slice(analysis.model.nodes[3].nameSpan.start, analysis.model.nodes[3].nameSpan.end),
    'draft_intro',
  );
  // The binding reads a step that is not an ancestor through the phase dependencies: prefs → search → sections.
  expectNone(analysis, 'binding_out_of_scope');
});

test("invalid_sop: what OpenSquilla's SOP compiler rejects, at its line", () => {
  const { analysis, spans } = analyzeAmong(
    'paper',
    `---\nname: paper\ndescription: x\nkind: meta_sop\n---\n## Phase 1: One [«when»: x]\nRun \`summarize\`. Save as \`a\`.\n\n## Phase 2: Two\nInvoke \`«code-reviewer»\` as agent with:\n- task: x\n\n«## Phase 3: Empty»\n\n«## Phase 4: Four»\n«Call tool \`memory_save\`.»\n«Save as \`b\`.»\n`,
    CATALOG,
  );
  const found = expectAt(analysis, 'invalid_sop', spans);
  assert.match(found[0].message, /`when` is not supported/);
  assert.match(found[1].message, /no ``Save as `id`\.`` line/);
  assert.match(found[2].message, /Phase 3 runs nothing/);
  assert.match(found[3].message, /Phase 4 runs nothing/);
  assert.match(found[4].message, /`Call tool` and `Classify` are not supported/);
  assert.match(found[5].message, /outside an invocation block/);
});
