import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { LibraryViewJson } from '../../server/src/protocol';
import { repository } from '../support/cliRun';
import { sharedServer, startServer, uriOf } from '../support/lspClient';

// The library view's request through the built server over stdio: the workspace's skills with their folders and
// library findings at their places, the edges between them, and what each client lists, following unsaved edits.

const LONG = `Summarises notes. ${'Use it for notes of any kind. '.repeat(55)}`.trim();
const root = repository(
  {
    '.claude/skills/deploy-site/SKILL.md':
      '---\nname: deploy-site\ndescription: Deploys the site to the host. Use when the site must go live.\n---\n\nUpload it.\n',
    // Line 5: a mention that resolves (11-22); line 6: the same again and one a letter off (27-39); line 7: a link.
    '.agents/skills/ship-docs/SKILL.md':
      '---\nname: ship-docs\ndescription: Ships the docs. Use when docs changed.\n---\n\nFirst run /deploy-site.\nThen run /deploy-site and /deploy-sitte.\nSee [it](../../../.claude/skills/deploy-site/SKILL.md).\n',
    'skills/notes/SKILL.md': `---\nname: notes\ndescription: ${LONG}\n---\n\nSum them up.\n`,
  },
  'sg-lsp-library-view-',
);
const deploy = path.join(root, '.claude', 'skills', 'deploy-site', 'SKILL.md');
const docs = path.join(root, '.agents', 'skills', 'ship-docs', 'SKILL.md');
const notes = path.join(root, 'skills', 'notes', 'SKILL.md');

const shared = sharedServer(root);

const ask = () => shared().connection.sendRequest('skillgraph/library', {}) as Promise<LibraryViewJson>;
const relative = (file: string) => path.relative(root, file);
const at = (range: { start: { line: number; character: number }; end: { character: number } }) => [
  range.start.line,
  range.start.character,
  range.end.character,
];

test('the view lists every skill of the workspace with its folder, scope and library findings where they are', async () => {
  const view = await ask();
  assert.deepEqual(
    view.skills.map((skill) => [relative(skill.file), skill.name, skill.folder, skill.scope, at(skill.range)]),
    [
      ['.agents/skills/ship-docs/SKILL.md', 'ship-docs', '.agents/skills', 'agents-repo', [1, 6, 15]],
      ['.claude/skills/deploy-site/SKILL.md', 'deploy-site', '.claude/skills', 'claude-project', [1, 6, 17]],
      ['skills/notes/SKILL.md', 'notes', 'skills', 'other', [1, 6, 11]],
    ],
  );
  const problems = view.skills.flatMap((skill) =>
    skill.problems.map((problem) => [relative(skill.file), problem.code, problem.severity, at(problem.range)]),
  );
  assert.deepEqual(problems, [['.agents/skills/ship-docs/SKILL.md', 'unknown_skill_mention', 'warning', [6, 27, 39]]]);
  assert.match(view.skills[0].problems[0].message, /did you mean `deploy-site`/);
});

test('mentions of one skill in another are one edge per kind, counted, at the first', async () => {
  const view = await ask();
  assert.deepEqual(
    view.edges.map((edge) => [relative(edge.from), relative(edge.to), edge.kind, edge.count, at(edge.range)]),
    [
      ['.agents/skills/ship-docs/SKILL.md', '.claude/skills/deploy-site/SKILL.md', 'slash', 2, [5, 11, 22]],
      ['.agents/skills/ship-docs/SKILL.md', '.claude/skills/deploy-site/SKILL.md', 'link', 1, [7, 9, 53]],
    ],
  );
});

test("each client's list: the skills it reads here, the others as installed, sizes as listed, Claude's cut", async () => {
  const view = await ask();
  const lists = view.lists.map((list) => ({
    client: list.client,
    budget: list.budget,
    entries: list.entries.map((entry) => [entry.name, entry.size, entry.installed, entry.cut]),
  }));
  const size = (name: string, description: string) => name.length + description.length;
  assert.deepEqual(lists, [
    {
      client: 'Codex',
      budget: 8000,
      entries: [
        [
          'deploy-site',
          size('deploy-site', 'Deploys the site to the host. Use when the site must go live.'),
          false,
          false,
        ],
        ['notes', size('notes', LONG), false, false],
        ['ship-docs', size('ship-docs', 'Ships the docs. Use when docs changed.'), true, false],
      ],
    },
    {
      client: 'Claude Code',
      budget: undefined,
      entries: [
        [
          'deploy-site',
          size('deploy-site', 'Deploys the site to the host. Use when the site must go live.'),
          true,
          false,
        ],
        ['notes', 'notes'.length + 1536, false, true],
        ['ship-docs', size('ship-docs', 'Ships the docs. Use when docs changed.'), false, false],
      ],
    },
  ]);
  assert.ok(LONG.length > 1536, "the long description is past Claude Code's cut");
  assert.equal(view.lists[1].entries[1].description, LONG.slice(0, 1536));
});

test('an unsaved edit of a description is in the next view, and a fixed mention leaves the problems', async () => {
  const uri = await shared().open(deploy);
  const text = '---\nname: deploy-site\ndescription: Publishes the site.\n---\n\nUpload it.\n';
  await shared().connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text }],
  });
  const docsUri = await shared().open(docs);
  await shared().connection.sendNotification('textDocument/didChange', {
    textDocument: { uri: docsUri, version: 2 },
    contentChanges: [
      {
        text: '---\nname: ship-docs\ndescription: Ships the docs. Use when docs changed.\n---\n\nFirst run /deploy-site.\n',
      },
    ],
  });
  const view = await ask();
  const shown = view.skills.find((skill) => skill.file === deploy)!;
  assert.equal(shown.description, 'Publishes the site.');
  assert.equal(
    view.lists[1].entries.find((entry) => entry.file === deploy)!.size,
    'deploy-site'.length + 'Publishes the site.'.length,
  );
  assert.deepEqual(
    view.skills.flatMap((skill) => skill.problems),
    [],
  );
  assert.deepEqual(
    view.edges.map((edge) => [edge.kind, edge.count]),
    [['slash', 1]],
  );
  assert.equal(view.skills.find((skill) => skill.file === notes)!.folder, 'skills');
  assert.equal(uriOf(deploy), uri);
});

test("with userSkillFolders, the user's ~/.claude/skills joins the library: a project skill it shadows is reported", async () => {
  const home = repository(
    {
      '.claude/skills/deploy-site/SKILL.md':
        '---\nname: deploy-site\ndescription: Deploys my way. Use when I deploy.\n---\n\nMy way.\n',
    },
    'sg-lsp-home-',
  );
  const findings = async (initializationOptions: object) => {
    const server = await startServer({ root, env: { HOME: home }, initializationOptions });
    try {
      const uri = await server.open(deploy);
      await server.waitForPush(uri);
      const view = (await server.connection.sendRequest('skillgraph/library', {})) as LibraryViewJson;
      return {
        pushed: (server.pushed.get(uri) ?? [])
          .filter((item) => item.code === 'shadowed_skill')
          .map((item) => String(item.message)),
        folders: view.skills.map((skill) => skill.folder),
        settings: await server.waitForLog((message) => message.includes('settings: ')),
      };
    } finally {
      await server.close();
    }
  };
  try {
    const asked = await findings({ userSkillFolders: true });
    assert.equal(asked.pushed.length, 1);
    assert.match(asked.pushed[0], /^Claude Code loads the personal skill `deploy-site` \(/);
    assert.ok(asked.folders.includes('~/.claude/skills'), asked.folders.join(', '));
    assert.match(asked.settings, /userSkillFolders on \(initializationOptions\)/);
    const notAsked = await findings({});
    assert.deepEqual(notAsked.pushed, []);
    assert.ok(!notAsked.folders.includes('~/.claude/skills'));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
