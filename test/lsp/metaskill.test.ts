import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type {
  CodeAction,
  CompletionItem,
  CompletionList,
  Hover,
  Location,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
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
const digestFile = path.join(root, 'weekly-digest', 'SKILL.md');
const digestText = readFileSync(digestFile, 'utf8');
const brokenFile = path.join(root, 'mistakes', 'broken-composition', 'SKILL.md');
const brokenText = readFileSync(brokenFile, 'utf8');
let session: ServerSession;
let digest: string;
let broken: string;

before(async () => {
  session = await startServer({ root, pull: true });
  digest = await session.open(digestFile);
  broken = await session.open(brokenFile);
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

const request = <T>(method: string, uri: string, position: { line: number; character: number }, extra: object = {}) =>
  session.requestAt<T>(method, uri, position, extra);

const diagnostics = (uri: string) => session.pullDiagnostics(uri);

const labels = completionLabels;
const lineOf = (text: string, needle: string) => positionOf(text, needle).line;

test('diagnostics of a MetaSkill over the protocol, with their docs pages', async () => {
  assert.deepEqual(await diagnostics(digest), []);
  const found = await diagnostics(broken);
  assert.deepEqual(
    found.map((item) => item.code),
    [
      'invalid_final_text_mode',
      'unknown_skill',
      'raw_user_message',
      'unknown_skill',
      'unknown_step_key',
      'binding_out_of_scope',
      'unknown_filter',
      'template_in_expression',
      'unknown_output',
      'filter_arguments',
    ],
  );
  assert.match(found[1].codeDescription!.href, /docs\/rules\/unknown_skill\.md$/);
});

test("definition: a binding → its step; skill: → the composed skill's name line; final_text_mode → the step; collected → the user_input step", async () => {
  const digestStep = {
    uri: digest,
    range: {
      start: { line: lineOf(digestText, '- id: digest\n'), character: 10 },
      end: { line: lineOf(digestText, '- id: digest\n'), character: 16 },
    },
  };
  assert.deepEqual(
    await request<Location[]>(
      'textDocument/definition',
      digest,
      positionOf(digestText, 'outputs.shipped | truncate(1000)', 9),
    ),
    [
      {
        uri: digest,
        range: {
          start: { line: lineOf(digestText, '- id: shipped'), character: 10 },
          end: { line: lineOf(digestText, '- id: shipped'), character: 17 },
        },
      },
    ],
  );
  assert.deepEqual(
    await request<Location[]>('textDocument/definition', digest, positionOf(digestText, 'skill: csv-report', 8)),
    [
      {
        uri: uriOf(path.join(root, 'csv-report', 'SKILL.md')),
        range: { start: { line: 1, character: 6 }, end: { line: 1, character: 16 } },
      },
    ],
  );
  assert.deepEqual(
    await request<Location[]>('textDocument/definition', digest, positionOf(digestText, 'step:digest', 6)),
    [digestStep],
  );
  const scope = await request<Location[]>(
    'textDocument/definition',
    digest,
    positionOf(digestText, 'inputs.collected.scope.metrics_file', 3),
  );
  assert.deepEqual(
    scope.map((location) => location.range.start.line),
    [lineOf(digestText, '- id: scope')],
  );
});

test('references: every binding, dependency, substitute and final_text_mode naming a step', async () => {
  const result = await request<Location[]>(
    'textDocument/references',
    digest,
    positionOf(digestText, '- id: digest\n', 7),
    { context: { includeDeclaration: false } },
  );
  assert.deepEqual(
    result.map((location) => digestText.split('\n')[location.range.start.line].trim()),
    ['final_text_mode: "step:digest"'],
  );
  const shipped = await request<Location[]>(
    'textDocument/references',
    digest,
    positionOf(digestText, '- id: shipped', 7),
    { context: { includeDeclaration: false } },
  );
  assert.deepEqual(
    shipped.map((location) => digestText.split('\n')[location.range.start.line].trim()),
    [
      'depends_on: [metrics, shipped]',
      "shipped {{ outputs['shipped'] | truncate(2000) }}.",
      'task: "List the week\'s changes in three bullets: {{ outputs.shipped | truncate(1000) }}"',
    ],
  );
});

test("hover: a step with its composed skill's description, a binding in scope, a filter, a runtime input", async () => {
  const step = hoverText(
    await request<Hover>('textDocument/hover', digest, positionOf(digestText, '- id: metrics', 7)),
  );
  assert.match(
    step,
    /^\*\*agent step\*\* `metrics` — runs `csv-report`\n\n> Summarise a CSV file into a short Markdown report/,
  );
  assert.match(step, /Runs after \(and may read the outputs of\) `scope`/);
  const binding = hoverText(
    await request<Hover>('textDocument/hover', digest, positionOf(digestText, 'outputs.metrics', 9)),
  );
  assert.match(
    binding,
    /`outputs\.metrics` — the plain-text output of the agent step `metrics` \(`csv-report`\)\n\nIn scope: `digest` runs after `metrics`\./,
  );
  const filter = hoverText(await request<Hover>('textDocument/hover', digest, positionOf(digestText, 'xml_escape', 2)));
  assert.match(filter, /^\*\*filter\*\* `xml_escape`\n\nEscapes/);
  const input = hoverText(
    await request<Hover>('textDocument/hover', digest, positionOf(digestText, 'inputs.user_message', 3)),
  );
  assert.match(input, /^\*\*runtime input\*\* `inputs\.user_message` → `with\.task`\n\nThe user's message/);
});

test('completion inside {{ }}: steps in scope first; the others add their depends_on', async () => {
  const text = digestText.replace('Release notes for what shipped this week.', 'Release notes after {{ outputs. }}');
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri: digest, version: 2 },
    contentChanges: [{ text }],
  });
  const list = await request<CompletionItem[]>(
    'textDocument/completion',
    digest,
    positionOf(text, '{{ outputs. }}', 11),
  );
  const items = Array.isArray(list) ? list : (list as CompletionList).items;
  const sorted = [...items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''));
  assert.deepEqual(
    sorted.map((item) => item.label),
    ['scope', 'digest', 'digest_fallback', 'metrics'],
  );
  const metrics = items.find((item) => item.label === 'metrics')!;
  assert.match(metrics.detail!, /not in depends_on \(adds it\)/);
  // The edit goes into the `depends_on` of "shipped", the step being typed in (the second such list).
  const end = positionOf(text, 'depends_on: [scope]', 18, 2);
  assert.deepEqual(metrics.additionalTextEdits, [{ range: { start: end, end }, newText: ', metrics' }]);
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri: digest, version: 3 },
    contentChanges: [{ text: digestText }],
  });
});

test('completion: filters after |, runtime inputs, composed skills, kinds, step keys per kind', async () => {
  assert.ok(
    labels(await request('textDocument/completion', digest, positionOf(digestText, '| truncate(500)', 2))).includes(
      'truncate',
    ),
  );
  assert.ok(
    labels(await request('textDocument/completion', digest, positionOf(digestText, 'inputs.user_message', 7))).includes(
      'workspace_dir',
    ),
  );
  const skills = labels(
    await request('textDocument/completion', digest, positionOf(digestText, 'skill: csv-report', 7)),
  );
  // Every sibling skill of examples/ but the MetaSkills themselves.
  assert.deepEqual(skills.sort(), ['csv-report', 'release-notes', 'ticket-triage', 'trip-planner']);
  assert.deepEqual(
    labels(await request('textDocument/completion', digest, positionOf(digestText, 'kind: llm_chat', 6))).sort(),
    ['agent', 'llm_chat', 'llm_classify', 'skill_exec', 'tool_call', 'user_input'],
  );
  const keys = labels(
    await request('textDocument/completion', digest, positionOf(digestText, '      on_failure: digest_fallback', 6)),
  );
  assert.ok(
    keys.includes('depends_on') && keys.includes('when') && !keys.includes('tool_args') && !keys.includes('clarify'),
    keys.join(','),
  );
});

test('quick fixes: add the missing depends_on, did-you-mean, escape raw user text', async () => {
  const found = await diagnostics(broken);
  const fixes = async (code: string) => {
    const item = found.find((candidate) => candidate.code === code)!;
    return session.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: broken },
      range: item.range,
      context: { diagnostics: [item] },
    });
  };
  const edits = (action: CodeAction) => (action.edit as WorkspaceEdit).changes![broken] as TextEdit[];
  const [scope] = await fixes('binding_out_of_scope');
  assert.equal(scope.title, 'Add "collect" to the depends_on of "review"');
  assert.deepEqual(edits(scope), [
    {
      range: { start: positionOf(brokenText, '- id: review', 12), end: positionOf(brokenText, '- id: review', 12) },
      newText: '\n      depends_on: [collect]',
    },
  ]);
  const [output] = await fixes('unknown_output');
  assert.equal(output.title, 'Change to "review"');
  const item = found.find(
    (candidate) => candidate.code === 'unknown_skill' && String(candidate.message).includes('skiped-skill'),
  )!;
  const [skill] = await session.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri: broken },
    range: item.range,
    context: { diagnostics: [item] },
  });
  assert.equal(skill.title, 'Change to "skipped-skill"');
  const [raw] = await fixes('raw_user_message');
  assert.deepEqual(edits(raw)[0].newText, ' | xml_escape');
  const [key] = await fixes('unknown_step_key');
  assert.equal(key.title, 'Change to "depends_on"');
});

test('rename a step id: every binding, dependency, substitute and final_text_mode follows', async () => {
  const edit: WorkspaceEdit = await request('textDocument/rename', digest, positionOf(digestText, '- id: shipped', 7), {
    newName: 'released',
  });
  const lines = edit.changes![digest].map((item) => digestText.split('\n')[item.range.start.line].trim());
  assert.deepEqual(lines, [
    '- id: shipped',
    'depends_on: [metrics, shipped]',
    "shipped {{ outputs['shipped'] | truncate(2000) }}.",
    'task: "List the week\'s changes in three bullets: {{ outputs.shipped | truncate(1000) }}"',
  ]);
  assert.ok(edit.changes![digest].every((item) => item.newText === 'released'));
});

test('a composed skill created on disk re-checks the MetaSkill that names it', async () => {
  const item = (await diagnostics(broken)).find(
    (candidate) => candidate.code === 'unknown_skill' && String(candidate.message).includes('skiped-skill'),
  );
  assert.ok(item);
  mkdirSync(path.join(root, 'mistakes', 'skiped-skill'));
  const created = path.join(root, 'mistakes', 'skiped-skill', 'SKILL.md');
  writeFileSync(created, '---\nname: skiped-skill\ndescription: Now it exists.\n---\n');
  const refreshes = session.refreshes();
  await session.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uriOf(created), type: 1 }],
  });
  const deadline = Date.now() + 10000;
  while (session.refreshes() === refreshes && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(session.refreshes() > refreshes, 'the server asks the client to pull again');
  assert.ok(!(await diagnostics(broken)).some((candidate) => String(candidate.message).includes('"skiped-skill"')));
});

test('meta_sop: diagnostics, definition of a binding in a phase, and the graph come from the same model', async () => {
  const file = path.join(root, 'release-digest', 'SKILL.md');
  const text = readFileSync(file, 'utf8');
  const uri = await session.open(file);
  assert.deepEqual(await diagnostics(uri), []);
  const [location] = await request<Location[]>('textDocument/definition', uri, positionOf(text, 'outputs.notes', 9));
  assert.equal(text.split('\n')[location.range.start.line], 'Save as `notes`.');
  const hover = hoverText(await request<Hover>('textDocument/hover', uri, positionOf(text, 'outputs.metrics', 9)));
  assert.match(hover, /In scope: `digest` runs after `metrics`/);
  const graph: { nodes: { id: string; kind: string; skill?: string }[] } = await session.connection.sendRequest(
    'skillgraph/graph',
    { uri },
  );
  assert.deepEqual(
    graph.nodes.map((node) => [node.id, node.kind, node.skill ?? '']),
    [
      ['notes', 'agent', 'release-notes'],
      ['metrics', 'agent', 'csv-report'],
      ['digest', 'agent', 'release-notes'],
      ['input:inputs.user_message', 'external-input', ''],
    ],
  );
});
