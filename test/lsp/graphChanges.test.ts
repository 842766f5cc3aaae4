import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { GraphChanges, Refusal } from '../../server/src/protocol';
import { gitIn, repository, writeIn } from '../support/cliRun';
import { REPO, sharedServer } from '../support/lspClient';

// The preview's "changes since a revision" through the built server over stdio: the skill as the editor has it
// (unsaved text included) against the skill as a git revision has it, read from git without checking it out.

const root = repository({}, 'sg-lsp-changes-');
cpSync(path.join(REPO, 'examples', 'csv-report'), path.join(root, 'skills', 'csv-report'), { recursive: true });
gitIn(root, 'init', '-q', '-b', 'main');
gitIn(root, 'add', '.');
gitIn(root, 'commit', '-q', '-m', 'csv-report');
const skill = path.join(root, 'skills', 'csv-report', 'SKILL.md');
const committed = readFileSync(skill, 'utf8');
/** The committed text with choose-focus's output renamed: write-report's input loses its producer. */
const edited = committed.replace(
  '- name: focus-column\n        type: string\n\n  - name: write-report',
  '- name: lead-column\n        type: string\n\n  - name: write-report',
);

const shared = sharedServer(root);
let version = 1;
/** Replaces an open document's text, as an editor does. */
async function edit(uri: string, text: string): Promise<void> {
  await shared().connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: ++version },
    contentChanges: [{ text }],
  });
}
const changes = (uri: string, revision: string) =>
  shared().connection.sendRequest('skillgraph/graphChanges', { uri, revision }) as Promise<GraphChanges | Refusal>;

test('an unsaved edit is compared with HEAD: the changed step is marked and the lost producer listed', async () => {
  assert.notEqual(edited, committed);
  const uri = await shared().open(skill, edited);
  const answer = (await changes(uri, 'HEAD')) as GraphChanges;
  assert.equal(answer.commit, gitIn(root, 'rev-parse', 'HEAD'));
  assert.equal(answer.existed, true);
  assert.deepEqual(answer.nodes['choose-focus'], {
    change: 'changed',
    text: 'changed step choose-focus: output "lead-column": string added; output "focus-column": string removed',
  });
  assert.deepEqual(
    answer.edges.map((edge) => `${edge.change} ${edge.from}>${edge.to} ${edge.label ?? ''}`),
    ['removed choose-focus>write-report focus-column', 'added input:focus-column>write-report focus-column'],
  );
  // The edge removed is drawn, so its mark has something to go on.
  assert.ok(answer.graph.edges.some((edge) => edge.from === 'choose-focus' && edge.label === 'focus-column'));
  assert.ok(
    answer.lines.some(
      (line) => line.mark === 'orphaned' && line.node === 'write-report' && line.text.includes('"focus-column"'),
    ),
  );
});

test('the same skill compared with its own revision (by branch) has no change', async () => {
  const uri = pathToFileURL(skill).href;
  await edit(uri, committed);
  const answer = (await changes(uri, 'main')) as GraphChanges;
  assert.deepEqual([answer.nodes, answer.edges, answer.lines], [{}, [], []]);
});

test('a skill the revision did not have is all added', async () => {
  const added = writeIn(
    root,
    'skills/new-one/SKILL.md',
    '---\nname: new-one\ndescription: Does one new thing. Use when asked.\n---\n\nDo it.\n',
  );
  const uri = await shared().open(added);
  const answer = (await changes(uri, 'HEAD')) as GraphChanges;
  assert.equal(answer.existed, false);
  assert.deepEqual(
    answer.graph.nodes.map((node) => node.id),
    Object.keys(answer.nodes),
  );
  assert.ok(Object.values(answer.nodes).every((mark) => mark.change === 'added'));
});

test('a revision git does not know, or one that looks like an option, is refused with the reason', async () => {
  const uri = pathToFileURL(skill).href;
  assert.deepEqual(await changes(uri, 'no-such-branch'), {
    error: `no-such-branch is not a revision of the repository at ${root}`,
  });
  assert.match(((await changes(uri, '--output=/tmp/x')) as Refusal).error, /^--output=\/tmp\/x is not a revision/);
});

test('in a repository before its first commit, HEAD has nothing yet: the skill is all added', async () => {
  const fresh = repository({}, 'sg-lsp-changes-');
  cpSync(path.join(REPO, 'examples', 'csv-report'), path.join(fresh, 'csv-report'), { recursive: true });
  gitIn(fresh, 'init', '-q');
  const uri = await shared().open(path.join(fresh, 'csv-report', 'SKILL.md'));
  const answer = (await changes(uri, 'HEAD')) as GraphChanges;
  assert.equal(answer.existed, false);
  assert.equal(answer.commit, gitIn(fresh, 'hash-object', '-t', 'tree', '/dev/null'), "git's empty tree");
  assert.deepEqual(
    answer.graph.nodes.map((node) => node.id),
    Object.keys(answer.nodes),
  );
  assert.ok(Object.keys(answer.nodes).includes('choose-focus'));
  assert.ok(Object.values(answer.nodes).every((mark) => mark.change === 'added'));
});

test('a skill outside any git repository is refused, not failed', async () => {
  const outside = repository({
    'lone/SKILL.md': '---\nname: lone\ndescription: Stands alone. Use never.\n---\n\nHi.\n',
  });
  const uri = await shared().open(path.join(outside, 'lone', 'SKILL.md'));
  assert.deepEqual(await changes(uri, 'HEAD'), { error: 'lone is not in a git repository' });
});

test("a file of the skill is read at a revision; a file outside the skill's folder is not", async () => {
  const uri = pathToFileURL(skill).href;
  await edit(uri, edited);
  const at = (file: string) =>
    shared().connection.sendRequest('skillgraph/fileAtRevision', { uri, file, revision: 'HEAD' });
  assert.deepEqual(await at(skill), { text: committed });
  assert.deepEqual(await at(path.join(path.dirname(skill), 'scripts', 'gone.py')), { text: '' });
  const readme = path.join(root, 'README.md');
  assert.deepEqual(await at(readme), { error: `${readme} is not in the skill's folder` });
});

test('a skill opened through a link to its repository is found in it, named as the editor names it', async () => {
  const link = path.join(tmpdir(), `sg-lsp-changes-link-${process.pid}`);
  symlinkSync(root, link);
  const uri = await shared().open(path.join(link, 'skills', 'csv-report', 'SKILL.md'), edited);
  const answer = (await changes(uri, 'HEAD').finally(() => rmSync(link))) as GraphChanges;
  assert.equal(answer.existed, true);
  assert.equal(answer.nodes['choose-focus']?.change, 'changed');
  assert.ok(answer.graph.nodes.every((node) => node.file.startsWith(link)));
});
