import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { CodeAction, Range, TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, copyExamples, startServer, uriOf, type ServerSession } from '../support/lspClient';

const root = copyExamples();
let session: ServerSession;
let version = 1;
const opened = new Set<string>();
before(async () => {
  session = await startServer({ root, pull: true });
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

const at = (line: number, start: number, end = start) => ({
  start: { line, character: start },
  end: { line, character: end },
});

async function actions(file: string, range: Range, text?: string): Promise<CodeAction[]> {
  const uri = uriOf(file);
  if (!opened.has(uri)) {
    opened.add(uri);
    await session.open(file);
  }
  if (text !== undefined)
    await session.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text }],
    });
  return session.connection.sendRequest('textDocument/codeAction', {
    textDocument: { uri },
    range,
    context: { diagnostics: [] },
  });
}

/** The actions that fix a finding: without the comments that suppress one. */
const fixesIn = (found: CodeAction[]) => found.filter((action) => !action.title.startsWith('Suppress '));

const broken = () => path.join(root, 'mistakes', 'broken-procedure', 'SKILL.md');

test('did you mean: a dangling depends_on and an input typo are replaced by the suggestion', async () => {
  assert.deepEqual(
    fixesIn(await actions(broken(), at(54, 29))),
    [],
    '"reveiw" is close to no step: nothing to suggest',
  );
  const misspelt = readFileSync(broken(), 'utf8').replace(
    'depends_on: [summarise, reveiw]',
    'depends_on: [sumarise]      ',
  );
  const [dependency] = await actions(broken(), at(54, 20), misspelt);
  assert.equal(dependency.title, 'Change to "summarise"');
  assert.equal(dependency.isPreferred, true);
  assert.equal(dependency.diagnostics![0].code, 'unknown_dependency');
  assert.deepEqual(dependency.edit!.changes![uriOf(broken())], [{ range: at(54, 17, 25), newText: 'summarise' }]);
  await actions(broken(), at(0, 0), readFileSync(broken(), 'utf8'));
  const [typo] = await actions(broken(), at(33, 15));
  assert.equal(typo.title, 'Change to "raw-data"');
  assert.deepEqual(typo.edit!.changes![uriOf(broken())], [{ range: at(33, 14, 22), newText: 'raw-data' }]);
  const [type] = await actions(broken(), at(27, 15));
  assert.deepEqual(type.edit!.changes![uriOf(broken())], [{ range: at(27, 14, 17), newText: 'integer' }]);
});

test('remove the depends_on entry that closes a cycle', async () => {
  const found = await actions(broken(), at(43, 30));
  const cycle = found.find((action) => action.diagnostics![0].code === 'dependency_cycle')!;
  assert.equal(cycle.title, 'Remove "publish" from the dependencies of "summarise"');
  const edits = cycle.edit!.changes![uriOf(broken())];
  const text = readFileSync(broken(), 'utf8');
  assert.equal(
    applyTextEdits(text, edits).split('\n')[43],
    '    depends_on: [clean-data]    # publish depends on summarise: a cycle',
  );
});

test('create a missing script as a stub, never overwriting', async () => {
  const found = await actions(broken(), at(22, 14));
  const create = found.find((action) => action.title === 'Create scripts/fetch_data.py')!;
  const [createFile, write] = create.edit!.documentChanges! as [
    { kind: string; uri: string; options: object },
    { textDocument: { uri: string }; edits: TextEdit[] },
  ];
  const target = uriOf(path.join(root, 'mistakes', 'broken-procedure', 'scripts', 'fetch_data.py'));
  assert.deepEqual(createFile, { kind: 'create', uri: target, options: { overwrite: false, ignoreIfExists: true } });
  assert.equal(write.textDocument.uri, target);
  assert.match(write.edits[0].newText, /^"""Download the data set\."""\nimport json\nimport sys\n/);
  assert.deepEqual(fixesIn(await actions(broken(), at(44, 14))), [], 'no stub for a script outside scripts/');
});

test('quote a description that breaks YAML, or make it a block scalar', async () => {
  const file = path.join(root, 'mistakes', 'skipped-skill', 'SKILL.md');
  const [quote, block] = await actions(file, at(2, 21));
  assert.equal(quote.title, 'Quote the value of "description"');
  const text = readFileSync(file, 'utf8');
  assert.equal(
    applyTextEdits(text, quote.edit!.changes![uriOf(file)]).split('\n')[2],
    'description: "Use when: the user asks for a deployment checklist"',
  );
  assert.deepEqual(applyTextEdits(text, block.edit!.changes![uriOf(file)]).split('\n').slice(2, 4), [
    'description: >-',
    '  Use when: the user asks for a deployment checklist',
  ]);
});

test('make name match the folder', async () => {
  const [action] = await actions(broken(), at(1, 7));
  assert.equal(action.title, 'Rename the skill to "broken-procedure" (its folder name)');
  assert.deepEqual(action.edit!.changes![uriOf(broken())], [{ range: at(1, 6, 21), newText: 'broken-procedure' }]);
});

test('add the AIP metadata to an AIP-like skill', async () => {
  const file = path.join(root, 'csv-report', 'SKILL.md');
  const text = readFileSync(file, 'utf8').replace(/metadata:\n  aip:\n.*\n.*\n/, '');
  const [action] = await actions(file, at(0, 0), text);
  assert.equal(action.title, 'Add the AIP 0.3 metadata');
  const fixed = applyTextEdits(text, action.edit!.changes![uriOf(file)]);
  assert.equal(fixed, readFileSync(file, 'utf8'));
});

test('add a missing output to the step that runs right before the consumer', async () => {
  const file = path.join(root, 'csv-report', 'SKILL.md');
  const original = readFileSync(file, 'utf8');
  const text = original.replace(
    '      - name: stats\n        type: list[object]\n    outputs:\n      - name: focus-column',
    '      - name: stats\n        type: list[object]\n      - name: threshold\n        type: float\n    outputs:\n      - name: focus-column',
  );
  const line = text.split('\n').findIndex((entry) => entry === '      - name: threshold');
  const found = await actions(file, at(line, 16), text);
  const add = found.find((action) => action.title === 'Add output "threshold" to step "profile-columns"')!;
  const fixed = applyTextEdits(text, add.edit!.changes![uriOf(file)]);
  assert.match(
    fixed,
    /      - name: stats\n        type: list\[object\]\n      - name: threshold\n        type: float\n\n  - name: choose-focus/,
  );
});

test('case and separator fixes for paths', async () => {
  const file = path.join(root, 'release-notes', 'SKILL.md');
  const text = readFileSync(file, 'utf8').replace('references/style.md', 'references/Style.md');
  const line = text.split('\n').findIndex((entry) => entry.includes('references/Style.md'));
  const [action] = await actions(file, at(line, text.split('\n')[line].indexOf('references/Style.md') + 2), text);
  assert.equal(action.title, 'Change to "references/style.md"');
});
