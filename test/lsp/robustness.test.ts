import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { CORPUS } from '../support/corpus';
import { startServer, uriOf, type ServerSession } from '../support/lspClient';
import { random } from '../support/random';

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? allFiles(full) : [full];
  });
}

const root = mkdtempSync(path.join(tmpdir(), 'sg-fuzz-'));
let session: ServerSession;
before(async () => {
  session = await startServer({ root, pull: true });
});
after(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

const METHODS = [
  'textDocument/hover',
  'textDocument/definition',
  'textDocument/completion',
  'textDocument/references',
  'textDocument/prepareRename',
  'textDocument/codeAction',
  'textDocument/documentSymbol',
  'textDocument/foldingRange',
  'textDocument/codeLens',
  'textDocument/diagnostic',
  'textDocument/selectionRange',
];

function paramsFor(method: string, uri: string, position: { line: number; character: number }) {
  const textDocument = { uri };
  switch (method) {
    case 'textDocument/references':
      return { textDocument, position, context: { includeDeclaration: true } };
    case 'textDocument/codeAction':
      return { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } };
    case 'textDocument/documentSymbol':
    case 'textDocument/foldingRange':
    case 'textDocument/codeLens':
    case 'textDocument/diagnostic':
      return { textDocument };
    case 'textDocument/selectionRange':
      return { textDocument, positions: [position] };
    default:
      return { textDocument, position };
  }
}

test('every corpus file opened as a SKILL.md and edited at random: every request answered, the server alive', async () => {
  const files = allFiles(CORPUS);
  const next = random(7);
  let answered = 0;
  for (const [index, source] of files.entries()) {
    const dir = path.join(root, `s${index}`);
    mkdirSync(dir);
    const uri = uriOf(path.join(dir, 'SKILL.md'));
    let text = readFileSync(source, 'latin1').includes('\u0000')
      ? readFileSync(source, 'latin1')
      : readFileSync(source, 'utf8');
    await session.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text },
    });
    for (let edit = 0; edit < 3; edit++) {
      const lines = text.split('\n');
      const line = Math.floor(next() * lines.length);
      const character = Math.floor(next() * (lines[line].length + 1));
      const insert = [':', '\n', '- ', '[', '"', '---\n', 'steps:\n  - name: x\n', '  '][Math.floor(next() * 8)];
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: edit + 2 },
        contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: insert }],
      });
      lines[line] = lines[line].slice(0, character) + insert + lines[line].slice(character);
      text = lines.join('\n');
      const method = METHODS[Math.floor(next() * METHODS.length)];
      const position = { line: Math.floor(next() * (lines.length + 2)), character: Math.floor(next() * 80) };
      await session.connection.sendRequest(method, paramsFor(method, uri, position));
      answered++;
    }
    await session.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }
  assert.equal(answered, files.length * 3);
  assert.equal(session.process.exitCode, null, 'the server is still running');
  assert.doesNotMatch(session.stderr(), /Error/);
  assert.deepEqual(
    session.logs.filter((log) => log.type === 1),
    [],
    'no handler failed',
  );
});
