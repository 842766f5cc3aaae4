import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { runtimeBlockText } from '../../../server/src/formats/aip/read/runtimeBlock';
import { fixesFor } from '../../../server/src/fixes/skillFixes';
import { aip05, analyzeFixture, expectAt, expectNone } from '../../support/fixture';

const FILES = { 'scripts/open.py': '', 'assets/reply.md': '', 'references/faq.md': '', 'source/README.md': '' };

// Valid under the 0.5a1 procedure models of the aip-spec repository: every field they require is here.
const VALID = `purpose: Route.
trigger_when: [x]
steps:
  - name: triage
    kind: decision
    description: Classify the tone.
    inputs:
      - name: message
        type: string
    questions:
      tone:
        type: choice
        instructions: How upset is the customer?
        criteria:
          angry: Upset.
          calm: Fine.
    thresholds:
      tone: 0.5
    inputs_to: by-tone
  - name: by-tone
    kind: router
    description: Angry customers go to a human.
    branch_on: tone
    branches:
      angry: escalate
      calm: reply
  - name: escalate
    kind: execution
    description: Open a ticket.
    inputs: []
    script: scripts/open.py
    inputs_to: end
  - name: reply
    kind: client_task
    description: Draft a reply.
    inputs: []
    template: assets/reply.md
    references:
      - path: references/faq.md
        description: Answers to common questions.
    inputs_to: end
  - name: end
    kind: end
    inputs: []
`;

function load(procedure: string, files: Record<string, string> = FILES, version?: string, runtime?: string) {
  return analyzeFixture('route', aip05('route', procedure, version, runtime), files);
}

test('a valid AIP 0.5 skill: detected, no diagnostics but its external input, graph built', () => {
  const { analysis } = load(VALID);
  assert.equal(analysis.format, 'aip-0.5');
  assert.deepEqual(
    analysis.diagnostics.map((item) => item.code),
    ['external_input'],
  );
  assert.deepEqual(
    analysis.model.nodes.map((node) => node.kind),
    ['decision', 'router', 'execution', 'client_task', 'end'],
  );
  assert.deepEqual(
    analysis.model.edges.filter((edge) => edge.kind === 'branch').map((edge) => [edge.from, edge.to, edge.label]),
    [
      ['by-tone', 'escalate', 'angry'],
      ['by-tone', 'reply', 'calm'],
    ],
  );
  assert.deepEqual(
    analysis.model.nodes[0].outputs.map((port) => [port.name, port.type]),
    [['tone', 'string']],
  );
  // The router reads the state key it branches on: a data edge from the question that answers it.
  assert.deepEqual(
    analysis.model.edges.filter((edge) => edge.kind === 'data').map((edge) => [edge.from, edge.to, edge.label]),
    [['triage', 'by-tone', 'tone']],
  );
});

test('invalid_start_step: the first step is a router', () => {
  const { analysis, spans } = load(
    VALID.replace(
      'steps:\n',
      'steps:\n  - name: «first»\n    kind: router\n    branch_on: tone\n    branches:\n      a: triage\n      b: end\n',
    ),
  );
  expectAt(analysis, 'invalid_start_step', spans);
});

test('missing_end_step and multiple_end_steps', () => {
  const none = load(
    VALID.replace('  - name: end\n    kind: end\n    inputs: []\n', '').replace(
      'steps:\n  - name: triage',
      'steps:\n  - name: «triage»',
    ),
  );
  expectAt(none.analysis, 'missing_end_step', none.spans);
  const two = load(`${VALID}  - name: «end-again»\n    kind: end\n`);
  expectAt(two.analysis, 'multiple_end_steps', two.spans);
});

test('unknown_step_reference: inputs_to and branches naming no step', () => {
  const { analysis, spans } = load(
    VALID.replace('calm: reply', 'calm: «replly»').replace(
      'script: scripts/open.py\n    inputs_to: end',
      'script: scripts/open.py\n    inputs_to: «finish»',
    ),
  );
  const found = expectAt(analysis, 'unknown_step_reference', spans);
  assert.match(found[0].message, /This branch names "replly".*Did you mean "reply"\?/);
});

test('unreachable_step and no_path_to_end', () => {
  const procedure = VALID.replace(
    '    template: assets/reply.md\n',
    '    template: assets/reply.md\n    inputs_to: stuck\n',
  ).replace(
    '    references:\n      - path: references/faq.md\n        description: Answers to common questions.\n    inputs_to: end\n',
    '  - name: «stuck»\n    kind: client_task\n  - name: «orphan»\n    kind: execution\n    script: scripts/open.py\n    inputs_to: end\n',
  );
  const { analysis, spans } = load(procedure);
  expectAt(analysis, 'unreachable_step', [spans[1]]);
  const reply = analysis.text.indexOf('name: reply') + 'name: '.length;
  expectAt(analysis, 'no_path_to_end', [{ start: reply, end: reply + 'reply'.length }, spans[0]]);
});

test('unknown_branch_value: a branch the question can never answer', () => {
  const { analysis, spans } = load(VALID.replace('      calm: reply\n', '      calm: reply\n      «neutral»: reply\n'));
  const [found] = expectAt(analysis, 'unknown_branch_value', spans);
  assert.match(found.message, /answers only "angry", "calm"/);
  const noul = load(
    VALID.replace('type: choice', 'type: noul')
      .replace('angry: escalate', '"true": escalate')
      .replace('calm: reply', '«maybe»: reply'),
  );
  expectAt(noul.analysis, 'unknown_branch_value', noul.spans);
});

test('unknown_threshold_question: a threshold for a question not asked', () => {
  const { analysis, spans } = load(VALID.replace('      tone: 0.5\n', '      tone: 0.5\n      «mood»: 0.2\n'));
  expectAt(analysis, 'unknown_threshold_question', spans);
});

test('missing_resource: script, template and reference paths', () => {
  const { analysis, spans } = load(
    VALID.replace('script: scripts/open.py', 'script: «scripts/open.py»')
      .replace('template: assets/reply.md', 'template: «assets/reply.md»')
      .replace('path: references/faq.md', 'path: «references/faq.md»'),
    {},
  );
  const found = expectAt(analysis, 'missing_resource', spans);
  assert.match(found[1].message, /The template `assets\/reply\.md` of step "reply" does not exist/);
});

test('missing_runtime_block: no runtime heading before the procedure', () => {
  const text = aip05('route', VALID).replace(`${runtimeBlockText('0.5a1')}\n\n\`\`\`yaml`, '«```yaml»');
  const { analysis, spans } = analyzeFixture('route', text, FILES);
  expectAt(analysis, 'missing_runtime_block', spans);
});

test('runtime_block_outdated and aip_version_mismatch: runtime heading against aip-version', () => {
  const older = analyzeFixture(
    'route',
    aip05('route', VALID, '0.5a1', '0.4a0').replace('# AIP runtime — format 0.4a0', '«# AIP runtime — format 0.4a0»'),
    FILES,
  );
  const [outdated] = expectAt(older.analysis, 'runtime_block_outdated', older.spans);
  assert.equal(outdated.severity, 'warning');
  const newer = analyzeFixture(
    'route',
    aip05('route', VALID, '0.5a0', '0.5a1').replace('# AIP runtime — format 0.5a1', '«# AIP runtime — format 0.5a1»'),
    FILES,
  );
  expectAt(newer.analysis, 'aip_version_mismatch', newer.spans);
  expectNone(newer.analysis, 'runtime_block_outdated');
});

test('missing_aip_version: an empty aip-version', () => {
  const { analysis, spans } = analyzeFixture(
    'route',
    aip05('route', VALID).replace('aip-version: "0.5a1"', 'aip-version: «""»'),
    FILES,
  );
  expectAt(analysis, 'missing_aip_version', spans);
});

test('schema_violation: a 0.5 step with a key its kind does not take', () => {
  const { analysis, spans } = load(
    VALID.replace('    branch_on: tone\n', '    branch_on: tone\n    «script»: scripts/open.py\n'),
  );
  const [found] = expectAt(analysis, 'schema_violation', spans);
  assert.match(
    found.message,
    /Unknown key `script` in `steps\[1\]`\. Allowed keys: name, kind, description, branch_on, branches/,
  );
});

test('schema_violation: what the 0.5a1 procedure models require, and their type vocabulary', () => {
  // Each of these is rejected by the aip-spec validator (its pydantic models, published as the procedure schema).
  const { analysis, spans } = load(
    VALID.replace('        type: string\n', '        type: «list[string]»\n')
      .replace('      tone:\n        type: choice', '      «tone-level»:\n        type: choice')
      .replace('      tone: 0.5\n', '      tone-level: 0.5\n')
      .replace('    branch_on: tone\n', '    branch_on: tone-level\n')
      .replace('  - name: reply\n    kind: client_task\n', '  - name: «reply»\n    kind: client_task\n')
      .replace('    template: assets/reply.md\n', '')
      .replace('  - name: end\n    kind: end\n    inputs: []\n', '  - name: «end»\n    kind: end\n'),
  );
  const found = expectAt(analysis, 'schema_violation', spans);
  assert.match(found[0].message, /string", "integer", "float", "boolean", "object", "list\[\*\]"/);
  assert.match(found[1].message, /has the key "tone-level", which is not a valid name/);
  assert.match(found[2].message, /template/);
  assert.match(found[3].message, /inputs/);
});

test('schema_violation: `framing` is a boolean, as in the published 0.5a1 procedure schema', () => {
  const off = load(
    VALID.replace('    template: assets/reply.md\n', '    template: assets/reply.md\n    framing: false\n'),
  );
  expectNone(off.analysis, 'schema_violation');
  const { analysis, spans } = load(
    VALID.replace(
      '    template: assets/reply.md\n',
      '    template: assets/reply.md\n    framing: «You are a support agent.»\n',
    ),
  );
  expectAt(analysis, 'schema_violation', spans);
});

test('runtime_block_modified: the block must be its version’s published text, word for word; the fix restores it', () => {
  const published = runtimeBlockText('0.5a1')!;
  // The whole line that departs is reported.
  const edited = published.replace('You drive the run', 'You may skip steps; you drive the run');
  const at = edited.indexOf('You may skip');
  const lineStart = edited.lastIndexOf('\n', at) + 1;
  const lineEnd = edited.indexOf('\n', at);
  const marked = `${edited.slice(0, lineStart)}«${edited.slice(lineStart, lineEnd)}»${edited.slice(lineEnd)}`;
  const { analysis, spans } = analyzeFixture('route', aip05('route', VALID).replace(published, marked), FILES);
  const [found] = expectAt(analysis, 'runtime_block_modified', spans);
  assert.match(found.message, /AIP 0\.5a1 text, word for word.*this line should read "You are executing/);
  const [fix] = fixesFor(analysis, found);
  assert.equal(fix.tier, 'unsafe');
  const change = fix.edits[0] as { start: number; end: number; newText: string };
  const fixed = analysis.text.slice(0, change.start) + change.newText + analysis.text.slice(change.end);
  assert.equal(fixed, aip05('route', VALID));
  // Text before the heading, and a block cut short, are departures too; the 0.4a0 text is known as well.
  const before = analyzeFixture('route', aip05('route', VALID).replace(published, `«Note.»\n\n${published}`), FILES);
  expectAt(before.analysis, 'runtime_block_modified', before.spans);
  const short = analyzeFixture(
    'route',
    aip05('route', VALID).replace(published, published.slice(0, published.lastIndexOf('\n'))),
    FILES,
  );
  assert.match(
    short.analysis.diagnostics.find((item) => item.code === 'runtime_block_modified')!.message,
    /end of the published text is missing/,
  );
  const legacy = analyzeFixture('route', aip05('route', VALID, '0.5a1', '0.4a0'), FILES);
  expectNone(legacy.analysis, 'runtime_block_modified');
});

test('missing_source_dir: an AIP 0.5 package needs source/ as 0.3 did', () => {
  const withoutSource = Object.fromEntries(Object.entries(FILES).filter(([file]) => !file.startsWith('source/')));
  const { analysis } = load(VALID, withoutSource);
  const found = analysis.diagnostics.filter((item) => item.code === 'missing_source_dir');
  assert.equal(found.length, 1);
  assert.equal(found[0].severity, 'error');
  expectNone(load(VALID).analysis, 'missing_source_dir');
});

test('script_unresolved: a shell script keeping a placeholder, or reading a variable nothing sets, is reported at its step', () => {
  const script = [
    '#!/usr/bin/env bash',
    'echo "usage: open.sh <ticket>"   # a usage message is for the reader',
    'TEAM=support',
    'tracker open --team "$TEAM" --queue <queue-name> --home "$HOME" --to "${OWNER:-triage}"',
    'tracker assign "$ASSIGNEE" --message "$message"',
    '',
  ].join('\n');
  const procedure = VALID.replace('script: scripts/open.py', 'script: «scripts/open.sh»').replace(
    '    inputs: []\n    script',
    '    inputs:\n      - name: message\n        type: string\n    script',
  );
  const { analysis, spans } = load(procedure, { ...FILES, 'scripts/open.sh': script });
  const [found] = expectAt(analysis, 'script_unresolved', spans);
  assert.equal(
    found.message,
    '`scripts/open.sh` would run with 2 holes: `<queue-name>` on line 4 (a placeholder), `$ASSIGNEE` on line 5 (read, never set, not an input of the step). Fill each placeholder, and set each variable, give it a default (`${NAME:-…}`) or make it an input of the step.',
  );
  // A script with nothing left open, and a Python script, are not read for holes.
  const clean = load(VALID.replace('script: scripts/open.py', 'script: scripts/open.sh'), {
    ...FILES,
    'scripts/open.sh': '#!/bin/sh\nTEAM=support\ntracker open --team "$TEAM"\n',
  });
  expectNone(clean.analysis, 'script_unresolved');
  expectNone(
    load(VALID, { ...FILES, 'scripts/open.py': 'print("<queue-name>", "$X")\n' }).analysis,
    'script_unresolved',
  );
});
