import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { CompletionItem } from 'vscode-languageserver-protocol';
import { copyExamples, positionOf, startServer, type ServerSession } from '../support/lspClient';

const root = copyExamples();
const csvFile = path.join(root, 'csv-report', 'SKILL.md');
const csvText = readFileSync(csvFile, 'utf8');
let session: ServerSession;
let version = 1;

before(async () => {
  session = await startServer({ root, pull: true });
  await session.open(csvFile);
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

/** Replaces the document text with `text`, where `|` marks the cursor, and asks for completion there. */
async function complete(text: string): Promise<CompletionItem[]> {
  const cursor = text.indexOf('|');
  const clean = text.slice(0, cursor) + text.slice(cursor + 1);
  const uri = `file://${csvFile}`;
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: ++version },
    contentChanges: [{ text: clean }],
  });
  const before = clean.slice(0, cursor).split('\n');
  const result = await session.connection.sendRequest<CompletionItem[] | { items: CompletionItem[] }>(
    'textDocument/completion',
    {
      textDocument: { uri },
      position: { line: before.length - 1, character: before[before.length - 1].length },
    },
  );
  return Array.isArray(result) ? result : result.items;
}

const labels = (items: CompletionItem[]) => items.map((item) => item.label);

test('frontmatter keys from the schema, for the profile, without the ones present', async () => {
  const items = await complete(csvText.replace('metadata:\n', 'lic|\nmetadata:\n'));
  assert.deepEqual(labels(items), ['license', 'compatibility', 'allowed-tools']);
  const license = items[0];
  assert.equal(
    license.documentation,
    'A short licence name (e.g. `MIT`) or the name of a licence file bundled with the skill.',
  );
  assert.deepEqual(license.textEdit, {
    range: { start: { line: 3, character: 0 }, end: { line: 3, character: 3 } },
    newText: 'license: ',
  });
});

test('depends_on offers only steps that would not close a cycle', async () => {
  const text = csvText.replace('  - name: choose-focus\n', '  - name: choose-focus\n    depends_on: [|]\n');
  assert.deepEqual(labels(await complete(text)), ['load-table', 'profile-columns']);
});

test('depends_on completes while the text does not parse, from the last good model', async () => {
  const text = csvText.replace('  - name: write-report\n', '  - name: write-report\n    depends_on: [pro|\n');
  const items = await complete(text);
  assert.deepEqual(labels(items), ['load-table', 'profile-columns', 'choose-focus']);
  assert.deepEqual(items[1].textEdit!.newText, 'profile-columns');
});

test('an input name offers upstream outputs with their types, and fills in the type', async () => {
  const text = csvText.replace(
    '    inputs:\n      - name: stats\n        type: list[object]\n    outputs:\n      - name: focus-column',
    '    inputs:\n      - name: |\n    outputs:\n      - name: focus-column',
  );
  const items = await complete(text);
  assert.deepEqual(labels(items), ['table', 'column-types', 'stats']);
  const stats = items[2];
  assert.equal(stats.detail, 'list[object] — from profile-columns');
  const line = positionOf(text.replace('|', ''), '      - name: \n    outputs:\n      - name: focus-column').line;
  assert.deepEqual(stats.textEdit, {
    range: { start: { line, character: 14 }, end: { line, character: 14 } },
    newText: 'stats',
  });
  assert.deepEqual(stats.additionalTextEdits, [
    {
      range: { start: { line, character: 14 }, end: { line, character: 14 } },
      newText: '\n        type: list[object]',
    },
  ]);
});

test('the type vocabulary after type:', async () => {
  const items = await complete(
    csvText.replace('        type: string\n        description: Path', '        type: li|\n        description: Path'),
  );
  assert.deepEqual(labels(items), [
    'string',
    'integer',
    'float',
    'boolean',
    'object',
    'list[*]',
    'list[string]',
    'list[integer]',
    'list[float]',
    'list[boolean]',
    'list[object]',
  ]);
  assert.equal(items[5].textEdit!.newText, 'list[*]');
});

test('script paths from scripts/', async () => {
  const items = await complete(csvText.replace('script: scripts/load_table.py', 'script: scripts/|'));
  assert.deepEqual(labels(items), ['scripts/load_table.py', 'scripts/profile_columns.py', 'scripts/write_report.py']);
  assert.equal(items[0].textEdit!.newText, 'scripts/load_table.py');
});

test('step keys from the schema, and a snippet for a new step', async () => {
  const items = await complete(csvText.replace('  - name: choose-focus\n', '  - name: choose-focus\n    par|\n'));
  assert.deepEqual(labels(items), [
    'name',
    'description',
    'depends_on',
    'parallel',
    'one_of',
    'script',
    'inputs',
    'outputs',
    'New step',
  ]);
  const snippet = items[8];
  assert.equal(snippet.insertTextFormat, 2);
  assert.match(snippet.textEdit!.newText, /^name: \$\{1:new-step\}\n {4}description: \$\{2\}\n {4}inputs:\n/);
});

test('io item keys and a snippet for a new input', async () => {
  const items = await complete(
    csvText.replace('    outputs:\n      - name: table', '    outputs:\n      - |\n      - name: table'),
  );
  assert.deepEqual(labels(items), ['name', 'type', 'nullable', 'description', 'New output']);
});
