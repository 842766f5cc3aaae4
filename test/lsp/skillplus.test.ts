import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type {
  CodeAction,
  CompletionItem,
  DocumentSymbol,
  Location,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { CORPUS } from '../support/corpus';
import {
  completionLabels,
  copyExamples,
  positionOf,
  startServer,
  uriOf,
  type ServerSession,
  hoverText,
} from '../support/lspClient';

const root = copyExamples();
const trip = path.join(root, 'trip-planner');
const broken = path.join(root, 'mistakes', 'broken-flow');
// The corpus's flow.yaml package, copied so nothing there is touched.
const refund = path.join(root, 'customer-refund');
cpSync(path.join(CORPUS, 'skillplus', 'examples', 'customer-refund'), refund, { recursive: true });
// A flow.py and a state.py beside an ordinary skill: not ours.
mkdirSync(path.join(root, 'plain-python'));
writeFileSync(
  path.join(root, 'plain-python', 'SKILL.md'),
  '---\nname: plain-python\ndescription: An ordinary skill with Python beside it. Use when testing.\n---\n# Plain\n',
);
writeFileSync(
  path.join(root, 'plain-python', 'flow.py'),
  'def build(flow):\n    flow.agent("x", "{nothing}", into="nowhere")\n',
);

const read = (file: string) => readFileSync(file, 'utf8');
const texts = {
  flow: read(path.join(trip, 'flow.py')),
  state: read(path.join(trip, 'state.py')),
  tip: read(path.join(trip, 'references', 'budget-travel.md')),
  cite: read(path.join(trip, 'rules', 'cite.md')),
  secrets: read(path.join(trip, 'rules', 'no-secrets.py')),
  spec: read(path.join(trip, 'spec.md')),
  refundFlow: read(path.join(refund, 'flow.yaml')),
};
let session: ServerSession;
const uris: Record<string, string> = {};

before(async () => {
  session = await startServer({ root, pull: true });
  uris.flow = await session.open(path.join(trip, 'flow.py'));
  uris.state = await session.open(path.join(trip, 'state.py'));
  uris.tip = await session.open(path.join(trip, 'references', 'budget-travel.md'));
  uris.cite = await session.open(path.join(trip, 'rules', 'cite.md'));
  uris.secrets = await session.open(path.join(trip, 'rules', 'no-secrets.py'));
  uris.spec = await session.open(path.join(trip, 'spec.md'));
  uris.skill = await session.open(path.join(trip, 'SKILL.md'));
  uris.refundFlow = await session.open(path.join(refund, 'flow.yaml'));
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

const request = <T>(method: string, uri: string, position: { line: number; character: number }, extra: object = {}) =>
  session.requestAt<T>(method, uri, position, extra);
const diagnostics = (uri: string) => session.pullDiagnostics(uri);
async function change(uri: string, version: number, text: string) {
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [{ text }],
  });
}
const labels = completionLabels;
const where = (locations: Location[]) =>
  locations.map(
    (item) =>
      `${path.relative(root, new URL(item.uri).pathname)}:${item.range.start.line + 1}:${item.range.start.character + 1}`,
  );

test('diagnostics: each file of a package gets its own findings, at their ranges', async () => {
  for (const name of ['flow', 'state', 'tip', 'cite', 'secrets', 'spec', 'skill', 'refundFlow'])
    assert.deepEqual(await diagnostics(uris[name]), [], name);
  const open = async (relative: string) => diagnostics(await session.open(path.join(broken, relative)));
  const flow = await open('flow.py');
  assert.deepEqual(
    flow.map((item) => `${item.code}@${item.range.start.line + 1}:${item.range.start.character + 1}`),
    [
      'state_type_mismatch@7:58',
      'unknown_placeholder@8:39',
      'state_type_mismatch@8:54',
      'invalid_loop@10:25',
      'predicate_syntax@10:50',
      'missing_script@11:84',
      'unknown_rule@11:110',
    ],
  );
  assert.match(flow[1].codeDescription!.href, /docs\/rules\/unknown_placeholder\.md$/);
  assert.deepEqual(
    (await open('references/thorough.md')).map((item) => item.code),
    ['unknown_flow_id', 'unknown_predicate_path'],
  );
  assert.deepEqual(
    (await open('rules/sources-first.md')).map((item) => item.code),
    ['invalid_on_fail'],
  );
  assert.deepEqual(
    (await open('state.py')).map((item) => item.code),
    ['field_never_written'],
  );
  assert.deepEqual(await open('SKILL.md'), []);
});

test('an edit in state.py re-checks flow.py and the tips at once, before anything is saved', async () => {
  const renamed = texts.state.replace('    budget: Literal', '    spend: Literal');
  const refreshes = session.refreshes();
  await change(uris.state, 2, renamed);
  try {
    assert.deepEqual(
      (await diagnostics(uris.flow)).map(
        (item) => `${item.code}@${item.range.start.line + 1}:${item.range.start.character + 1}`,
      ),
      [`unknown_state_path@9:${positionOf(texts.flow, 'into="budget"', 6).character + 1}`],
    );
    assert.deepEqual(
      (await diagnostics(uris.tip)).map((item) => item.code),
      ['unknown_predicate_path'],
    );
    // The other open files of the package are asked for again.
    assert.ok(session.refreshes() > refreshes);
  } finally {
    await change(uris.state, 3, texts.state);
  }
  assert.deepEqual(await diagnostics(uris.flow), []);
});

test('files outside a skill+ package are left alone: no diagnostics, completion or hover', async () => {
  const uri = await session.open(path.join(root, 'plain-python', 'flow.py'));
  assert.deepEqual(await diagnostics(uri), []);
  assert.deepEqual(labels(await request('textDocument/completion', uri, { line: 1, character: 36 })), []);
  assert.equal(await request('textDocument/hover', uri, { line: 1, character: 8 }), null);
});

test("completion in a tip predicate: State fields and built-ins, a Literal's values, stage ids, the events a tip sees", async () => {
  const after = (needle: string, shift = needle.length) => positionOf(texts.tip, needle, shift);
  const start = labels(await request('textDocument/completion', uris.tip, after('when: ')));
  for (const expected of ['traveller', 'budget', 'stops', 'coverage', 'stage', 'node', 'round', 'event', 'not'])
    assert.ok(start.includes(expected), `${expected} in ${start}`);
  assert.deepEqual(labels(await request('textDocument/completion', uris.tip, after('budget='))), [
    'low',
    'mid',
    'high',
  ]);
  assert.deepEqual(labels(await request('textDocument/completion', uris.tip, after('stage='))), [
    'ask',
    'research',
    'decide',
  ]);
  // Typing a new predicate: the value list of an unclosed `in [` and the events a tip can see.
  await change(
    uris.tip,
    2,
    texts.tip.replace('when: stage=research and budget=low', 'when: event=post_node and budget in [low, '),
  );
  const edited = texts.tip.replace('when: stage=research and budget=low', 'when: event=post_node and budget in [low, ');
  assert.deepEqual(labels(await request('textDocument/completion', uris.tip, positionOf(edited, 'in [low, ', 9))), [
    'low',
    'mid',
    'high',
  ]);
  assert.deepEqual(labels(await request('textDocument/completion', uris.tip, positionOf(edited, 'event=', 6))), [
    'stage_enter',
    'post_tool',
    'post_node',
  ]);
  await change(uris.tip, 3, texts.tip);
});

test('completion in flow.py: into= by type, placeholders with the items in scope, rule= and tool=; in a rule: when= and on_fail', async () => {
  const at = (needle: string, shift: number) =>
    request<CompletionItem[]>('textDocument/completion', uris.flow, positionOf(texts.flow, needle, shift));
  // An ask writes str, int, float or a Literal; a confirm a bool.
  assert.deepEqual(labels(await at('into="destination"', 6)), [
    'traveller',
    'destination',
    'budget',
    'coverage',
    'plan',
  ]);
  assert.deepEqual(labels(await at('into="approved"', 6)), ['approved']);
  const inFanout = labels(await at('{s.city}', 1));
  assert.ok(inFanout.includes('s') && inFanout.includes('destination'), inFanout.join());
  assert.deepEqual(labels(await at('{s.city}', 3)), ['city', 'nights']);
  assert.deepEqual(labels(await at('rule="cite"', 6)), ['cite', 'no-secrets']);
  const tools = labels(await at('tool="scripts/route.py"', 6));
  assert.deepEqual(tools, ['scripts/route.py', 'web_search', 'Read', 'Bash']);
  const rule = (needle: string, shift: number) =>
    request<CompletionItem[]>('textDocument/completion', uris.secrets, positionOf(texts.secrets, needle, shift));
  assert.deepEqual(labels(await rule('tool in [Bash', 9)), ['scripts/route.py', 'web_search', 'Read', 'Bash']);
  assert.deepEqual(labels(await rule('event=pre_tool', 6)), [
    'stage_enter',
    'pre_tool',
    'post_tool',
    'post_node',
    'pre_answer',
  ]);
  assert.deepEqual(labels(await rule('on_fail="deny"', 9)), ['advise', 'self-check', 'ask', 'deny', 'stop']);
  // A completion replaces the word being typed.
  const [first] = (await at('rule="cite"', 8)) as CompletionItem[];
  assert.deepEqual((first.textEdit as { range: unknown }).range, {
    start: positionOf(texts.flow, 'rule="cite"', 6),
    end: positionOf(texts.flow, 'rule="cite"', 8),
  });
});

test('completion in flow.yaml: the keys of a node by its kind, into= and until=', async () => {
  // A new line in the first ask's mapping: its other keys, not those it has.
  const text = texts.refundFlow.replace('        into: order_ref\n', '        into: order_ref\n        \n');
  await change(uris.refundFlow, 2, text);
  try {
    const line = positionOf(text, '        into: order_ref').line + 1;
    assert.deepEqual(labels(await request('textDocument/completion', uris.refundFlow, { line, character: 8 })), [
      'choices',
      'merge',
    ]);
    // A new item of a nodes list: one kind key.
    const added = text.replace('        into: order_ref\n        \n', '        into: order_ref\n      - \n');
    await change(uris.refundFlow, 3, added);
    assert.deepEqual(labels(await request('textDocument/completion', uris.refundFlow, { line, character: 8 })), [
      'agent',
      'ask',
      'confirm',
      'branch',
      'loop',
      'fanout',
      'end',
    ]);
  } finally {
    await change(uris.refundFlow, 4, texts.refundFlow);
  }
  // into: of an ask offers what an ask can write.
  const into = labels(
    await request('textDocument/completion', uris.refundFlow, positionOf(texts.refundFlow, 'into: reason', 6)),
  );
  assert.ok(into.includes('reason') && !into.includes('eligible'), into.join());
});

test('definition across files: placeholders, predicate paths and into= → state.py; rule= → the rule; tool= → the script; stage= → the stage; spec ids → their definitions', async () => {
  const go = async (uri: string, text: string, needle: string, shift: number) =>
    where(await request<Location[]>('textDocument/definition', uri, positionOf(text, needle, shift)));
  const stateLine = (field: string) => `trip-planner/state.py:${positionOf(texts.state, `    ${field}:`).line + 1}:5`;
  assert.deepEqual(await go(uris.flow, texts.flow, '{traveller}', 2), [stateLine('traveller')]);
  assert.deepEqual(await go(uris.flow, texts.flow, '{s.city}', 4), [
    `trip-planner/state.py:${positionOf(texts.state, '    city:').line + 1}:5`,
  ]);
  assert.deepEqual(await go(uris.tip, texts.tip, 'budget=low', 2), [stateLine('budget')]);
  assert.deepEqual(await go(uris.flow, texts.flow, 'into="stops"', 7), [stateLine('stops')]);
  assert.deepEqual(await go(uris.flow, texts.flow, 'rule="cite"', 7), ['trip-planner/rules/cite.md:1:1']);
  assert.deepEqual(await go(uris.flow, texts.flow, 'rule=["cite", "no-secrets"]', 17), [
    `trip-planner/rules/no-secrets.py:${positionOf(texts.secrets, 'id="no-secrets"').line + 1}:${positionOf(texts.secrets, 'id="no-secrets"', 4).character + 1}`,
  ]);
  assert.deepEqual(await go(uris.flow, texts.flow, 'scripts/route.py', 3), ['trip-planner/scripts/route.py:1:1']);
  const research = `trip-planner/flow.py:${positionOf(texts.flow, 'flow.stage("research"').line + 1}:${positionOf(texts.flow, 'flow.stage("research"', 12).character + 1}`;
  assert.deepEqual(await go(uris.tip, texts.tip, 'stage=research', 8), [research]);
  assert.deepEqual(await go(uris.spec, texts.spec, '`research`', 2), [research]);
  assert.deepEqual(await go(uris.spec, texts.spec, '`cite`', 2), ['trip-planner/rules/cite.md:1:1']);
});

test('references: a field → its definition, writers, readers and predicates in every file', async () => {
  const found = where(
    await request<Location[]>('textDocument/references', uris.state, positionOf(texts.state, '    coverage:', 5), {
      context: { includeDeclaration: true },
    }),
  );
  assert.deepEqual(found, [
    `trip-planner/state.py:${positionOf(texts.state, '    coverage:').line + 1}:5`,
    `trip-planner/flow.py:${positionOf(texts.flow, 'until="coverage').line + 1}:${positionOf(texts.flow, 'until="coverage', 7).character + 1}`,
    `trip-planner/flow.py:${positionOf(texts.flow, 'into="coverage"').line + 1}:${positionOf(texts.flow, 'into="coverage"', 6).character + 1}`,
  ]);
});

test('hover: a predicate path with its type and writers; a node with the tips and rules there; a tip with where it fires', async () => {
  const path_ = hoverText(await request('textDocument/hover', uris.tip, positionOf(texts.tip, 'budget=low', 1)));
  assert.match(path_, /budget: Literal\["low", "mid", "high"\] = "mid"/);
  assert.match(path_, /Written by: node "money"/);
  assert.match(path_, /Tested by: tip "budget-travel"/);
  const node = hoverText(await request('textDocument/hover', uris.flow, positionOf(texts.flow, '"stop-notes"', 2)));
  assert.match(node, /\*\*agent\*\* `stop-notes` in stage `research`/);
  assert.match(node, /Tips that can fire here: `budget-travel`/);
  assert.match(node, /Rules here: .*`cite`/);
  const tip = hoverText(await request('textDocument/hover', uris.tip, positionOf(texts.tip, 'when:', 1)));
  assert.match(tip, /When: the stage is research and `budget` is low/);
  assert.match(tip, /Can fire at: `route`, `per-stop`, `stop-notes`, `refine`, `fill`/);
  const rule = hoverText(await request('textDocument/hover', uris.flow, positionOf(texts.flow, 'rule="cite"', 7)));
  assert.match(rule, /on_fail `self-check`: soft, its text is injected/);
});

test('quick fixes: did-you-mean in a placeholder, a predicate and on_fail; max_rounds; a missing script; a missing State field', async () => {
  const actionsAt = async (relative: string, needle: string) => {
    const file = path.join(broken, relative);
    const uri = uriOf(file);
    const text = read(file);
    const items = await diagnostics(uri);
    const start = positionOf(text, needle);
    const diagnostic = items.find(
      (item) =>
        item.range.start.line === start.line &&
        item.range.start.character <= start.character &&
        start.character <= item.range.end.character,
    )!;
    assert.ok(diagnostic, `a diagnostic at ${needle}`);
    return session.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
  };
  const newTexts = (action: CodeAction) =>
    Object.values(action.edit!.changes!)
      .flat()
      .map((edit) => edit.newText);
  const placeholder = await actionsAt('flow.py', 'topc');
  assert.deepEqual(
    placeholder.map((action) => action.title),
    ['Change to "topic"', 'Add `topc: str` to State', 'Suppress unknown_placeholder on this line'],
  );
  // Python takes the comment at the end of the line.
  assert.deepEqual(newTexts(placeholder[2]), ['  # skillgraph-disable-line unknown_placeholder']);
  assert.deepEqual(newTexts(placeholder[0]), ['topic']);
  assert.deepEqual(newTexts(placeholder[1]), ['\n    topc: str = ""']);
  assert.equal(Object.keys(placeholder[1].edit!.changes!)[0], uriOf(path.join(broken, 'state.py')));
  assert.deepEqual(newTexts((await actionsAt('references/thorough.md', 'gathr'))[0]), ['gather']);
  assert.deepEqual(newTexts((await actionsAt('references/thorough.md', 'depht'))[0]), ['depth']);
  assert.deepEqual(newTexts((await actionsAt('rules/sources-first.md', 'self-chek'))[0]), ['self-check']);
  const loop = (await actionsAt('flow.py', 'more-sources"')).find((action) => action.title === 'Add max_rounds=3')!;
  assert.deepEqual(newTexts(loop), [', max_rounds=3']);
  const script = (await actionsAt('flow.py', 'scripts/search.py'))[0];
  assert.equal(script.title, 'Create scripts/search.py');
  assert.deepEqual(script.edit!.documentChanges![0], {
    kind: 'create',
    uri: uriOf(path.join(broken, 'scripts', 'search.py')),
    options: { overwrite: false, ignoreIfExists: true },
  });
});

test('rename: a field across state.py, flow.py and the tips; a stage across the flow, predicates and spec.md; a rule named by its file, with the file', async () => {
  const prepared = await request<{ placeholder: string }>(
    'textDocument/prepareRename',
    uris.state,
    positionOf(texts.state, '    budget:', 5),
  );
  assert.equal(prepared.placeholder, 'budget');
  const field: WorkspaceEdit = await request(
    'textDocument/rename',
    uris.state,
    positionOf(texts.state, '    budget:', 5),
    { newName: 'spend' },
  );
  const files = (edit: WorkspaceEdit) =>
    Object.entries(edit.changes ?? {})
      .map(([uri, edits]) => `${path.relative(trip, new URL(uri).pathname)}×${edits.length}`)
      .sort();
  assert.deepEqual(files(field), ['flow.py×1', 'references/budget-travel.md×1', 'state.py×1']);
  const stage: WorkspaceEdit = await request(
    'textDocument/rename',
    uris.tip,
    positionOf(texts.tip, 'stage=research', 8),
    { newName: 'explore' },
  );
  assert.deepEqual(files(stage), ['flow.py×1', 'references/budget-travel.md×1', 'rules/cite.md×1', 'spec.md×1']);
  await assert.rejects(
    request('textDocument/rename', uris.tip, positionOf(texts.tip, 'stage=research', 8), { newName: 'ask' }),
    /already exists/,
  );
  const rule: WorkspaceEdit = await request(
    'textDocument/rename',
    uris.flow,
    positionOf(texts.flow, 'rule="cite"', 7),
    { newName: 'sources' },
  );
  const changes = rule.documentChanges!;
  assert.deepEqual(changes.at(-1), {
    kind: 'rename',
    oldUri: uriOf(path.join(trip, 'rules', 'cite.md')),
    newUri: uriOf(path.join(trip, 'rules', 'sources.md')),
    options: { overwrite: false, ignoreIfExists: false },
  });
  const edited = changes
    .slice(0, -1)
    .map(
      (item) =>
        `${path.relative(trip, new URL((item as { textDocument: { uri: string } }).textDocument.uri).pathname)}×${(item as { edits: unknown[] }).edits.length}`,
    )
    .sort();
  assert.deepEqual(edited, ['flow.py×2', 'spec.md×1']);
});

test('flow.yaml: quoting text YAML read as a mapping, adding max_rounds to a loop; renaming a node renames the predicates naming it', async () => {
  const broken = texts.refundFlow.replace(
    /instruction: Look up \{order_ref\} and record/,
    'instruction: {order_ref} and record',
  );
  await change(uris.refundFlow, 10, broken);
  try {
    const found = await diagnostics(uris.refundFlow);
    const yamlError = found.find((item) => item.code === 'invalid_flow_yaml')!;
    assert.match(yamlError.message as string, /Quote text that starts with `\{`/);
    const actions: CodeAction[] = await session.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uris.refundFlow },
      range: yamlError.range,
      context: { diagnostics: [yamlError] },
    });
    const quote = actions.find((action) => action.title === 'Quote the text')!;
    const edit = Object.values(quote.edit!.changes!)[0][0];
    assert.equal(
      edit.newText,
      JSON.stringify('{order_ref} and record the order, its total, payment method and delivery status.'),
    );
  } finally {
    await change(uris.refundFlow, 11, texts.refundFlow);
  }
  // A loop with an exit but no bound: the fix adds the key at the column of the loop's other keys.
  const unbounded = texts.refundFlow.replace(
    '        into: order_ref\n',
    '        into: order_ref\n      - loop: retry\n        goal: The order is found\n        nodes:\n          - agent: look-again\n            instruction: Look again.\n',
  );
  await change(uris.refundFlow, 12, unbounded);
  try {
    const loop = (await diagnostics(uris.refundFlow)).find((item) => item.code === 'invalid_loop')!;
    assert.match(loop.message as string, /needs `max_rounds`/);
    const actions: CodeAction[] = await session.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uris.refundFlow },
      range: loop.range,
      context: { diagnostics: [loop] },
    });
    const add = actions.find((action) => action.title === 'Add max_rounds: 3')!;
    const insert = Object.values(add.edit!.changes!)[0][0];
    assert.equal(insert.newText, '\n        max_rounds: 3');
    assert.deepEqual(insert.range.start, positionOf(unbounded, '      - loop: retry', '      - loop: retry'.length));
  } finally {
    await change(uris.refundFlow, 13, texts.refundFlow);
  }
  // A node id named by a predicate (the tip waits for node=fill) is renamed there too.
  const node: WorkspaceEdit = await request('textDocument/rename', uris.flow, positionOf(texts.flow, '"fill"', 2), {
    newName: 'fill-gaps',
  });
  const files = Object.entries(node.changes ?? {})
    .map(([uri, edits]) => `${path.relative(trip, new URL(uri).pathname)}×${edits.length}`)
    .sort();
  assert.deepEqual(files, ['flow.py×1', 'references/thin-notes.md×1']);
});

test('outline of flow.py: stages, and nodes nested as the flow nests them', async () => {
  const symbols: DocumentSymbol[] = await session.connection.sendRequest('textDocument/documentSymbol', {
    textDocument: { uri: uris.flow },
  });
  assert.deepEqual(
    symbols.map((item) => item.name),
    ['ask', 'research', 'decide'],
  );
  const research = symbols[1];
  assert.deepEqual(
    research.children!.map((item) => item.name),
    ['route', 'per-stop', 'refine'],
  );
  assert.deepEqual(
    research.children![1].children!.map((item) => item.name),
    ['stop-notes'],
  );
  assert.deepEqual(
    symbols[2].children![1].children!.map((item) => `${item.name}:${item.detail}`),
    ['write:agent → plan', 'stop:end'],
  );
});

test("push mode: an edit in one file publishes the findings of the package's other open files", async () => {
  const push = await startServer({ root });
  try {
    const flow = await push.open(path.join(trip, 'flow.py'));
    const state = await push.open(path.join(trip, 'state.py'));
    await push.waitForPush(flow, (items) => items.length === 0);
    await push.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: state, version: 2 },
      contentChanges: [{ text: texts.state.replace('    plan: str', '    text: str') }],
    });
    const found = await push.waitForPush(flow, (items) => items.length > 0);
    assert.deepEqual(
      found.map((item) => item.code),
      ['unknown_state_path'],
    );
  } finally {
    await push.close();
  }
});
