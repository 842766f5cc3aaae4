import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { startServer } from '../support/lspClient';

// A library too large to read before a document's findings (more than 500 skills left to read): the document's own
// findings come first, the library's once the server has read it between messages, in push and in pull mode.

const root = mkdtempSync(path.join(tmpdir(), 'sg-lsp-large-library-'));
after(() => rmSync(root, { recursive: true, force: true }));
const write = (name: string, description: string, body: string) => {
  mkdirSync(path.join(root, name), { recursive: true });
  const file = path.join(root, name, 'SKILL.md');
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  return file;
};
for (let index = 0; index < 600; index++)
  write(`skill-${String(index).padStart(3, '0')}`, `Skill ${index} of many. Use in test ${index}.`, 'Do the work.');
write('release-notes', 'Writes release notes. Use when a release is cut.', 'Write the notes.');
// Its own finding: a link to a file the skill lacks (line 5); the library's: a mention a letter off (line 6).
const digest = write(
  'release-digest',
  'Sums up the week. Use on Fridays.',
  'Read [the template](template.md).\nThen run /relase-notes.',
);
const codes = (items: { code?: string | number }[]) => items.map((item) => item.code).sort();

test("push: a large library's findings follow the document's own, without another edit", async () => {
  const session = await startServer({ root });
  try {
    const uri = await session.open(digest);
    const first = await session.waitForPush(uri);
    assert.equal(session.pushCounts.get(uri), 1);
    assert.deepEqual(codes(first), ['missing_file'], 'its own finding, before the library is read');
    const later = await session.waitForPush(uri, (items) => items.length === 2, 60000);
    assert.deepEqual(codes(later), ['missing_file', 'unknown_skill_mention']);
    assert.equal(session.pushedVersions.get(uri), 1, 'the same text, published again');
  } finally {
    await session.close();
  }
});

test("pull: the server asks for the findings again once the library is read, and they hold the library's", async () => {
  const session = await startServer({ root, pull: true });
  try {
    const uri = await session.open(digest);
    const before = session.refreshes();
    assert.deepEqual(codes(await session.pullDiagnostics(uri)), ['missing_file']);
    for (let waited = 0; session.refreshes() === before && waited < 1200; waited++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(session.refreshes() > before, 'a refresh once the library is read');
    assert.deepEqual(codes(await session.pullDiagnostics(uri)), ['missing_file', 'unknown_skill_mention']);
  } finally {
    await session.close();
  }
});
