import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type {
  CodeLens,
  DocumentSymbol,
  FoldingRange,
  SelectionRange,
  SymbolInformation,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { copyExamples, positionOf, startServer, uriOf, type ServerSession } from '../support/lspClient';
import { skillFiles, skillHash } from '../../server/src/workspace/skillHash';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import type { GraphJson } from '../../server/src/protocol';

const root = copyExamples();
const csvFile = path.join(root, 'csv-report', 'SKILL.md');
const csvText = readFileSync(csvFile, 'utf8');
let session: ServerSession;
let csv: string;
before(async () => {
  session = await startServer({ root, pull: true });
  csv = await session.open(csvFile);
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

const at = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

test('document symbols: the skill, its steps, their ports as children', async () => {
  const [skill] = await session.connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', {
    textDocument: { uri: csv },
  });
  assert.equal(skill.name, 'csv-report');
  assert.equal(skill.detail, 'aip-0.3');
  assert.deepEqual(
    skill.children!.map((step) => [
      step.name,
      step.detail,
      step.children!.map((port) => `${port.name} (${port.detail})`),
    ]),
    [
      [
        'load-table',
        'scripts/load_table.py',
        ['csv-path (input: string)', 'table (output: object)', 'column-types (output: object)'],
      ],
      [
        'profile-columns',
        'scripts/profile_columns.py',
        ['table (input: object)', 'column-types (input: object)', 'stats (output: list[object])'],
      ],
      ['choose-focus', 'agent', ['stats (input: list[object])', 'focus-column (output: string)']],
      [
        'write-report',
        'scripts/write_report.py',
        ['stats (input: list[object])', 'focus-column (input: string)', 'report-path (output: string)'],
      ],
    ],
  );
  assert.deepEqual(skill.children![0].selectionRange, at(23, 10, 20));
});

test('workspace symbols: skills and steps across the workspace', async () => {
  const symbols = await session.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'report' });
  assert.deepEqual(
    symbols
      .map((symbol) => [
        symbol.name,
        symbol.kind,
        symbol.containerName ?? null,
        path.relative(root, new URL(symbol.location.uri).pathname),
      ])
      .sort(),
    [
      ['csv-report', 2, null, 'csv-report/SKILL.md'],
      ['write-report', 12, 'csv-report', 'csv-report/SKILL.md'],
    ],
  );
});

test('rename a step: its name and every depends_on naming it', async () => {
  const position = positionOf(csvText, 'name: choose-focus', 8);
  const prepared = await session.connection.sendRequest<{ range: unknown; placeholder: string }>(
    'textDocument/prepareRename',
    { textDocument: { uri: csv }, position },
  );
  assert.deepEqual(prepared, { range: at(48, 10, 22), placeholder: 'choose-focus' });
  const edit = await session.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
    textDocument: { uri: csv },
    position,
    newName: 'pick-focus',
  });
  assert.deepEqual(edit.changes![csv], [
    { range: at(48, 10, 22), newText: 'pick-focus' },
    { range: at(62, 34, 46), newText: 'pick-focus' },
  ]);
});

test('rename a value from an input: its producing output and every input it feeds', async () => {
  const edit = await session.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
    textDocument: { uri: csv },
    position: positionOf(csvText, 'name: stats', 8, 3),
    newName: 'column-stats',
  });
  assert.deepEqual(
    edit.changes![csv].map((change) => change.range.start.line),
    [45, 53, 64],
  );
  assert.ok(edit.changes![csv].every((change) => change.newText === 'column-stats'));
});

test('rename refuses a clash and a name that is not a name', async () => {
  await assert.rejects(
    session.connection.sendRequest('textDocument/rename', {
      textDocument: { uri: csv },
      position: positionOf(csvText, 'name: choose-focus', 8),
      newName: 'load-table',
    }),
    /A step named "load-table" already exists here/,
  );
  await assert.rejects(
    session.connection.sendRequest('textDocument/rename', {
      textDocument: { uri: csv },
      position: positionOf(csvText, 'name: table', 8),
      newName: 'column-types',
    }),
    /A value named "column-types" already exists here/,
  );
  await assert.rejects(
    session.connection.sendRequest('textDocument/rename', {
      textDocument: { uri: csv },
      position: positionOf(csvText, 'name: choose-focus', 8),
      newName: 'two words',
    }),
    /not a valid step name/,
  );
  assert.equal(
    await session.connection.sendRequest('textDocument/prepareRename', {
      textDocument: { uri: csv },
      position: { line: 10, character: 2 },
    }),
    null,
  );
});

test('folding: frontmatter, the procedure fence, each step', async () => {
  const ranges = await session.connection.sendRequest<FoldingRange[]>('textDocument/foldingRange', {
    textDocument: { uri: csv },
  });
  assert.deepEqual(
    ranges.map((range) => [range.startLine, range.endLine]),
    [
      [0, 7],
      [9, 74],
      [23, 34],
      [36, 46],
      [48, 57],
      [59, 70],
    ],
  );
});

test('selection ranges grow from the value through its list, step and steps to the block and the file', async () => {
  const [selection] = await session.connection.sendRequest<SelectionRange[]>('textDocument/selectionRange', {
    textDocument: { uri: csv },
    positions: [positionOf(csvText, 'choose-focus]', 2)],
  });
  const chain: unknown[] = [];
  for (let current: SelectionRange | undefined = selection; current; current = current.parent)
    chain.push(current.range);
  const span = (startLine: number, start: number, endLine: number, end: number) => ({
    start: { line: startLine, character: start },
    end: { line: endLine, character: end },
  });
  // value → the depends_on list → the step → the steps list → the procedure block → the file
  assert.deepEqual(chain, [
    at(62, 34, 46),
    at(62, 16, 47),
    span(59, 4, 71, 0),
    span(23, 2, 71, 0),
    span(10, 0, 74, 0),
    span(0, 0, 75, 0),
  ]);
});

test('code lens: the graph preview and Compile at the top, consumers and external inputs per step', async () => {
  const lenses = await session.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
    textDocument: { uri: csv },
  });
  assert.deepEqual(
    lenses.map((lens) => [lens.range.start.line, lens.command!.title, lens.command!.command]),
    [
      [0, 'Open graph preview', 'skillgraph.openPreviewToSide'],
      [0, 'Compile…', 'skillgraph.compileSkill'],
      [23, '1 consumer · external input: csv-path', 'skillgraph.showReferences'],
      [36, '2 consumers', 'skillgraph.showReferences'],
      [48, '1 consumer', 'skillgraph.showReferences'],
      [59, '0 consumers', 'skillgraph.showReferences'],
    ],
  );
});

test('skillgraph/graph returns the same graph as the CLI', async () => {
  const graph = await session.connection.sendRequest<GraphJson>('skillgraph/graph', { uri: csv });
  assert.equal(graph.skill.format, 'aip-0.3');
  assert.deepEqual(
    graph.nodes.map((node) => node.id),
    ['load-table', 'profile-columns', 'choose-focus', 'write-report', 'input:csv-path'],
  );
  assert.equal(graph.edges.filter((edge) => edge.kind === 'data').length, 6);
  assert.equal(
    await session.connection.sendRequest('skillgraph/graph', { uri: uriOf(path.join(root, 'nope', 'SKILL.md')) }),
    null,
  );
});

test('skillgraph/compileTargets and skillgraph/compile: the targets that fit, each beside the skill; the compiled files of the open text, nothing written', async () => {
  const info = await session.connection.sendRequest<{
    skillFile: string;
    targets: { id: string; title: string; outDir: string; singleFile: string | null }[];
  }>('skillgraph/compileTargets', { uri: csv });
  assert.deepEqual(
    info.targets.map((target) => [target.id, path.relative(root, target.outDir), target.singleFile]),
    [
      ['ir', 'compiled-ir/csv-report', 'skill.ir.json'],
      ['aip', 'compiled-aip/csv-report', null],
      ['agent-skill', 'compiled-agent-skill/csv-report', null],
      ['mermaid', 'compiled-mermaid/csv-report', 'graph.mmd'],
      ['dot', 'compiled-dot/csv-report', 'graph.dot'],
    ],
  );
  // An AIP 0.3 skill is offered only its migration to 0.5, never the 0.3 it already is.
  assert.equal(info.targets[1].title, 'AIP 0.5 package (migrated from 0.3)');
  const outDir = info.targets[2].outDir;
  const answer = await session.connection.sendRequest<{
    files: { path: string; text?: string; base64?: string }[];
    diagnostics: unknown[];
  }>('skillgraph/compile', { uri: csv, target: 'agent-skill', outDir });
  assert.deepEqual(answer.diagnostics, []);
  assert.deepEqual(
    answer.files.map((file) => file.path),
    [
      'SKILL.md',
      'references/choosing-a-focus.md',
      'scripts/load_table.py',
      'scripts/profile_columns.py',
      'scripts/write_report.py',
    ],
  );
  assert.match(answer.files[0].text!, /^---\nname: csv-report\n[\s\S]*### 1\. load-table\n/);
  assert.equal(
    Buffer.from(answer.files[2].base64!, 'base64').toString('utf8'),
    readFileSync(path.join(root, 'csv-report', 'scripts', 'load_table.py'), 'utf8'),
  );
  const migrated = await session.connection.sendRequest<{
    files: { path: string; text?: string }[];
    diagnostics: { severity: string }[];
  }>('skillgraph/compile', { uri: csv, target: 'aip', outDir: info.targets[1].outDir });
  assert.deepEqual(
    migrated.diagnostics.filter((item) => item.severity === 'error'),
    [],
  );
  const migratedSkill = migrated.files.find((file) => file.path === 'SKILL.md')!.text!;
  assert.match(migratedSkill, /\n {2}aip-version: "?0\.5a1"?\n---\n\n# AIP runtime — format 0\.5a1\n/);
  assert.equal(
    migrated.files.find((file) => file.path === 'source/aip-0.3-SKILL.md')!.text,
    readFileSync(path.join(root, 'csv-report', 'SKILL.md'), 'utf8'),
  );
  assert.deepEqual(
    await session.connection.sendRequest('skillgraph/compile', {
      uri: csv,
      target: 'aip',
      outDir: info.targets[1].outDir,
      aipVersion: '0.3',
    }),
    { error: 'this skill is already AIP 0.3; `--to aip` migrates it to 0.5' },
  );
  assert.throws(() => readFileSync(path.join(info.targets[1].outDir, 'SKILL.md')));
  assert.throws(() => readFileSync(path.join(outDir, 'SKILL.md')));
});

test('skillgraph/checkCompiled: a revision of the compiled files is checked as the compile checks its own; names leaving the package are refused', async () => {
  const outDir = path.join(root, 'compiled-agent-skill', 'csv-report');
  const compiled = await session.connection.sendRequest<{ files: { path: string; text?: string; base64?: string }[] }>(
    'skillgraph/compile',
    { uri: csv, target: 'agent-skill', outDir },
  );
  const skillMd = compiled.files[0].text!;
  const broken = compiled.files.map((file) =>
    file.path === 'SKILL.md'
      ? { path: 'SKILL.md', text: skillMd.replace('name: csv-report', 'name: CSV report') }
      : file,
  );
  const checked = await session.connection.sendRequest<{
    diagnostics: { uri: string; code: string; severity: string; range: { start: { line: number } } }[];
  }>('skillgraph/checkCompiled', { uri: csv, target: 'agent-skill', outDir, files: broken });
  assert.deepEqual(
    checked.diagnostics
      .filter((item) => item.severity === 'error')
      .map((item) => [path.relative(root, new URL(item.uri).pathname), item.code, item.range.start.line]),
    [
      ['compiled-agent-skill/csv-report/SKILL.md', 'invalid_name', 1],
      ['compiled-agent-skill/csv-report/SKILL.md', 'name_mismatch', 1],
    ],
  );
  const clean = await session.connection.sendRequest<{ diagnostics: unknown[] }>('skillgraph/checkCompiled', {
    uri: csv,
    target: 'agent-skill',
    outDir,
    files: compiled.files,
  });
  assert.deepEqual(clean.diagnostics, []);
  assert.deepEqual(
    await session.connection.sendRequest('skillgraph/checkCompiled', {
      uri: csv,
      target: 'agent-skill',
      outDir,
      files: [...compiled.files, { path: '../escape.md', text: 'x' }],
    }),
    { error: 'Unknown target, output folder or file name.' },
  );
});

test('skillgraph/compile to ir pins the revision compiled: the hash of the folder, the unsaved text in place of its file', async () => {
  const dir = path.join(root, 'csv-report');
  const onDisk = skillHash(skillFiles(new NodeFileSystem(), dir));
  const hashOf = async () => {
    const answer = await session.connection.sendRequest<{ files: { path: string; text?: string }[] }>(
      'skillgraph/compile',
      { uri: csv, target: 'ir', outDir: path.join(root, 'compiled-ir', 'csv-report') },
    );
    return (JSON.parse(answer.files[0].text!) as { hash: string }).hash;
  };
  assert.equal(await hashOf(), onDisk);
  const edit = (version: number, text: string) =>
    session.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: csv, version },
      contentChanges: [{ text }],
    });
  await edit(900, csvText.replace('Compute per-column statistics.', 'Compute statistics per column.'));
  const unsaved = await hashOf();
  assert.match(unsaved, /^sha256:[0-9a-f]{64}$/);
  assert.notEqual(unsaved, onDisk);
  await edit(901, csvText);
  assert.equal(await hashOf(), onDisk);
});
