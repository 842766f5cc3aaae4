import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Location } from 'vscode-languageserver-protocol';
import { writeAipSkill } from '../support/generate';
import { CHUNK_THRESHOLD } from '../../server/src/parse/yaml/yamlChunks';
import { positionOf, startServer, uriOf, type ServerSession } from '../support/lspClient';

// A procedure large enough to be parsed chunk by chunk. One server takes it
// through a series of edits (each moving every later chunk), another opens
// the final text directly: every answer must be the same.
const root = mkdtempSync(path.join(tmpdir(), 'sg-large-'));
const skill = writeAipSkill(root, 'procedure-120', 120);
const uri = uriOf(skill.file);
let edited: ServerSession;
let fresh: ServerSession;
let text = skill.text;

/** An insertion right after `marker`, as an editor sends it: a position in the previous text and what goes there. */
function insertAfter(marker: string, insert: string): object {
  const position = positionOf(text, marker, marker.length);
  text = text.replace(marker, marker + insert);
  return { range: { start: position, end: position }, text: insert };
}

before(async () => {
  assert.ok(skill.text.length > 2 * CHUNK_THRESHOLD);
  edited = await startServer({ root, pull: true });
  await edited.open(skill.file, skill.text);
  await edited.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  const changes = [
    insertAfter('step-0001\n    description: >\n', '      Read the guide first.\n'),
    insertAfter('and pass the result on', ' quickly'),
    // Renames a step that later steps depend on: their references now dangle.
    insertAfter('- name: step-0060', 'x'),
    insertAfter('purpose: >\n', '  Edited at the top again.\n'),
  ];
  for (const [i, change] of changes.entries()) {
    await edited.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: i + 2 },
      contentChanges: [change],
    });
    await edited.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  }
  fresh = await startServer({ root, pull: true });
  await fresh.open(skill.file, text);
});
after(async () => {
  await edited?.close();
  await fresh?.close();
  rmSync(root, { recursive: true, force: true });
});

function both<T>(method: string, params: object): Promise<[T, T]> {
  return Promise.all([
    edited.connection.sendRequest<T>(method, { textDocument: { uri }, ...params }),
    fresh.connection.sendRequest<T>(method, { textDocument: { uri }, ...params }),
  ]);
}

test('a large procedure after edits answers as one opened with the same text', async () => {
  const [diagnosticsAfterEdits, diagnosticsFresh] = await both<{ items: unknown[] }>('textDocument/diagnostic', {});
  assert.ok(diagnosticsFresh.items.length > 0);
  assert.deepEqual(diagnosticsAfterEdits, diagnosticsFresh);

  const [symbols, symbolsFresh] = await both<unknown[]>('textDocument/documentSymbol', {});
  assert.deepEqual(symbols, symbolsFresh);
  const [folding, foldingFresh] = await both<unknown[]>('textDocument/foldingRange', {});
  assert.ok(foldingFresh.length > 120);
  assert.deepEqual(folding, foldingFresh);

  // Positions late in the file, behind every moved chunk.
  const late = [
    positionOf(text, 'step-0110', 3),
    positionOf(text, '        type:', 10, 200),
    positionOf(text, 'step-0060x', 9),
  ];
  const [selection, selectionFresh] = await both<unknown[]>('textDocument/selectionRange', { positions: late });
  assert.deepEqual(selection, selectionFresh);
  for (const position of late) {
    const [hover, hoverFresh] = await both<unknown>('textDocument/hover', { position });
    assert.deepEqual(hover, hoverFresh);
  }
});

test('definition from an input late in the edited procedure lands on its producing output', async () => {
  const consumer = text.indexOf('step-0100');
  const inputName = /inputs:\n {6}- name: (\S+)/.exec(text.slice(consumer))![1];
  const inputAt = positionOf(
    text,
    `- name: ${inputName}`,
    8,
    text.slice(0, consumer).split(`- name: ${inputName}`).length,
  );
  const [locations, locationsFresh] = await both<Location[]>('textDocument/definition', { position: inputAt });
  assert.deepEqual(locations, locationsFresh);
  // The output is declared once, before any step reads it.
  const declared = positionOf(text, `- name: ${inputName}`, 8);
  assert.deepEqual(locations, [
    { uri, range: { start: declared, end: { line: declared.line, character: declared.character + inputName.length } } },
  ]);
});
