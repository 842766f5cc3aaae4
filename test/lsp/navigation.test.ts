import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Hover, Location } from 'vscode-languageserver-protocol';
import { copyExamples, positionOf, startServer, uriOf, type ServerSession } from '../support/lspClient';

const root = copyExamples();
const csvFile = path.join(root, 'csv-report', 'SKILL.md');
const csvText = readFileSync(csvFile, 'utf8');
const triageFile = path.join(root, 'ticket-triage', 'SKILL.md');
const triageText = readFileSync(triageFile, 'utf8');
let session: ServerSession;
let csv: string;
let triage: string;

before(async () => {
  session = await startServer({ root, pull: true });
  csv = await session.open(csvFile);
  triage = await session.open(triageFile);
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

const at = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

const request = <T>(method: string, uri: string, position: { line: number; character: number }, extra: object = {}) =>
  session.requestAt<T>(method, uri, position, extra);

test('definition: an input → the output producing it', async () => {
  const result = await request<Location[]>(
    'textDocument/definition',
    csv,
    positionOf(csvText, 'name: focus-column', 8, 2),
  );
  assert.deepEqual(result, [{ uri: csv, range: at(56, 14, 26) }]);
});

test('definition: a depends_on entry → that step; an external input → nothing', async () => {
  assert.deepEqual(await request<Location[]>('textDocument/definition', csv, positionOf(csvText, 'choose-focus]', 2)), [
    { uri: csv, range: at(48, 10, 22) },
  ]);
  assert.deepEqual(await request<Location[]>('textDocument/definition', csv, positionOf(csvText, 'csv-path', 1)), []);
});

test('definition: a script and a path in a description → the file', async () => {
  assert.deepEqual(
    await request<Location[]>('textDocument/definition', csv, positionOf(csvText, 'scripts/load_table.py', 3)),
    [{ uri: uriOf(path.join(root, 'csv-report', 'scripts', 'load_table.py')), range: at(0, 0, 0) }],
  );
  assert.deepEqual(
    await request<Location[]>('textDocument/definition', csv, positionOf(csvText, 'references/choosing-a-focus.md', 5)),
    [{ uri: uriOf(path.join(root, 'csv-report', 'references', 'choosing-a-focus.md')), range: at(0, 0, 0) }],
  );
});

test('definition: a router branch → its step (AIP 0.5)', async () => {
  assert.deepEqual(
    await request<Location[]>('textDocument/definition', triage, positionOf(triageText, '"true": file-bug', 10)),
    [{ uri: triage, range: at(positionOf(triageText, '- name: file-bug').line, 10, 18) }],
  );
});

test('references: an output → every input it feeds (and itself with the declaration)', async () => {
  const position = positionOf(csvText, 'name: stats', 8);
  const without = await request<Location[]>('textDocument/references', csv, position, {
    context: { includeDeclaration: false },
  });
  assert.deepEqual(without, [
    { uri: csv, range: at(53, 14, 19) },
    { uri: csv, range: at(64, 14, 19) },
  ]);
  const withDeclaration = await request<Location[]>('textDocument/references', csv, position, {
    context: { includeDeclaration: true },
  });
  assert.deepEqual(withDeclaration[0], { uri: csv, range: at(45, 14, 19) });
  assert.equal(withDeclaration.length, 3);
});

test('references: a step → every depends_on naming it; a script → the steps running it', async () => {
  assert.deepEqual(
    await request<Location[]>('textDocument/references', csv, positionOf(csvText, 'name: choose-focus', 8), {
      context: { includeDeclaration: false },
    }),
    [{ uri: csv, range: at(62, 34, 46) }],
  );
  assert.deepEqual(
    await request<Location[]>('textDocument/references', csv, positionOf(csvText, 'scripts/write_report.py', 2), {
      context: { includeDeclaration: false },
    }),
    [{ uri: csv, range: at(59, 10, 22) }],
  );
});

test('hover: an input shows its type, nullability, description and producer', async () => {
  const hover = await request<Hover>('textDocument/hover', csv, positionOf(csvText, 'name: stats', 8, 2));
  assert.deepEqual(hover.range, at(53, 14, 19));
  assert.equal(
    (hover.contents as { value: string }).value,
    '**input** `stats`: `list[object]`\n\nProduced by `profile-columns` as `list[object]`',
  );
  const external = await request<Hover>('textDocument/hover', csv, positionOf(csvText, 'csv-path', 1));
  assert.equal(
    (external.contents as { value: string }).value,
    '**input** `csv-path`: `string`\n\nPath of the CSV file.\n\nExternal input: the user or the environment supplies it.',
  );
});

test('hover: an output lists its consumers; a step shows script, I/O and dependencies', async () => {
  const output = await request<Hover>('textDocument/hover', csv, positionOf(csvText, 'name: stats', 8));
  assert.equal(
    (output.contents as { value: string }).value,
    '**output** `stats`: `list[object]`\n\nConsumed by `choose-focus`, `write-report`',
  );
  const step = await request<Hover>('textDocument/hover', csv, positionOf(csvText, 'name: write-report', 8));
  assert.equal(
    (step.contents as { value: string }).value,
    '**step** `write-report` — runs `scripts/write_report.py`\n\nWrite the Markdown report with the statistics and the chart of the focus column.\n\nstats: list[object], focus-column: string → report-path: string\n\nAfter `profile-columns`, `choose-focus`',
  );
});

test('hover: frontmatter and procedure keys show their schema description', async () => {
  const name = await request<Hover>('textDocument/hover', csv, positionOf(csvText, 'name: csv-report', 1));
  assert.match((name.contents as { value: string }).value, /^`name`: The skill's identifier: 1 to 64 characters/);
  const dependsOn = await request<Hover>('textDocument/hover', csv, positionOf(csvText, 'depends_on', 3));
  assert.match(
    (dependsOn.contents as { value: string }).value,
    /^`depends_on`: Names of the steps that must finish before this one/,
  );
  const branchOn = await request<Hover>('textDocument/hover', triage, positionOf(triageText, 'branch_on:', 2));
  assert.match(
    (branchOn.contents as { value: string }).value,
    /^`branch_on`: The state key whose value picks the branch/,
  );
});

test('hover: a script shows its leading docstring', async () => {
  const hover = await request<Hover>('textDocument/hover', triage, positionOf(triageText, 'scripts/file_bug.py', 4));
  assert.equal(
    (hover.contents as { value: string }).value,
    'script `scripts/file_bug.py`\n\nOpen a tracker issue for a bug ticket. Reads the state as JSON on stdin, writes the issue link as JSON.',
  );
});

test('hover and definition outside anything known answer null and []', async () => {
  assert.equal(await request('textDocument/hover', csv, { line: 0, character: 0 }), null);
  assert.deepEqual(await request('textDocument/definition', csv, { line: 200, character: 0 }), []);
});
