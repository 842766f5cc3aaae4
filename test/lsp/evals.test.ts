import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { CompletionItem, Hover } from 'vscode-languageserver-protocol';
import { completionLabels, hoverText, positionOf, startServer, type ServerSession } from '../support/lspClient';

// A skill's eval files over the protocol: checked as the editor holds them, with hover and completion from their
// schemas, and the input files the skill keeps offered where a case lists its files.

const root = mkdtempSync(path.join(tmpdir(), 'sg-evals-'));
const skill = path.join(root, 'charts');
mkdirSync(path.join(skill, 'evals', 'files'), { recursive: true });
writeFileSync(
  path.join(skill, 'SKILL.md'),
  '---\nname: charts\ndescription: Charts CSV files. Use when asked for a chart.\n---\n\nWrite `chart.png`.\n',
);
writeFileSync(path.join(skill, 'evals', 'files', 'sales.csv'), 'month,revenue\n');
const evalsFile = path.join(skill, 'evals', 'evals.json');
const EVALS =
  '{\n  "skill_name": "charts",\n  "evals": [\n    {\n      "id": 1,\n      "prompt": "Chart sales.csv",\n      "expected_output": "A bar chart",\n      "files": ["evals/files/sales.csv"],\n      "expectations": ["The output includes `chart.png`"]\n    }\n  ]\n}\n';
writeFileSync(evalsFile, EVALS);
const queriesFile = path.join(skill, 'evals', 'eval_queries.json');
writeFileSync(queriesFile, '[\n  { "query": "chart my sales csv", "should_trigger": true }\n]\n');

let session: ServerSession;
before(async () => {
  session = await startServer({ root });
});
after(() => session.close());

test('evals.json: quiet when right; an expectation naming a file nothing makes is reported as it is typed', async () => {
  const uri = await session.open(evalsFile);
  assert.deepEqual(await session.waitForPush(uri), []);
  const typed = EVALS.replace('`chart.png`', '`summary.md`');
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: typed }],
  });
  const found = await session.waitForPush(uri, (items) => items.length > 0);
  assert.deepEqual(
    found.map((item) => [item.code, item.range.start.line, item.range.start.character]),
    [['eval_unknown_target', 8, 23]],
  );
});

test('evals.json: hover on a field says what it is for; completion offers the fields a case lacks, and the input files', async () => {
  const uri = await session.open(evalsFile, EVALS);
  const hover = await session.requestAt<Hover>('textDocument/hover', uri, positionOf(EVALS, '"expected_output"', 2));
  assert.match(hoverText(hover), /expected_output[\s\S]*What success looks like/);
  const typing = EVALS.replace('      "id": 1,\n', '      "id": 1,\n      "\n');
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 3 },
    contentChanges: [{ text: typing }],
  });
  const fields = await session.requestAt<CompletionItem[]>(
    'textDocument/completion',
    uri,
    positionOf(typing, '      "\n', 7),
  );
  // `id` is there already; the rest of a case's fields are offered.
  assert.deepEqual(completionLabels(fields).sort(), [
    'assertions',
    'expectations',
    'expected_output',
    'files',
    'prompt',
  ]);
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 4 },
    contentChanges: [{ text: EVALS }],
  });
  const files = await session.requestAt<CompletionItem[]>(
    'textDocument/completion',
    uri,
    positionOf(EVALS, '"files": [', '"files": ['.length),
  );
  assert.deepEqual(completionLabels(files), ['evals/files/sales.csv']);
});

test('a trigger query set with no near miss is reported at its opening bracket; completion offers should_trigger values', async () => {
  const uri = await session.open(queriesFile);
  const found = await session.waitForPush(uri, (items) => items.length > 0);
  assert.deepEqual(
    found.map((item) => [item.code, item.range.start.line, item.range.start.character]),
    [['trigger_queries_one_sided', 0, 0]],
  );
  const text = '[\n  { "query": "chart my sales csv", "should_trigger": t }\n]\n';
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text }],
  });
  const values = await session.requestAt<CompletionItem[]>(
    'textDocument/completion',
    uri,
    positionOf(text, '"should_trigger": t', '"should_trigger": t'.length),
  );
  assert.deepEqual(completionLabels(values), ['true', 'false']);
});
