import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkLibrary } from '../../../server/src/library/libraryChecks';
import { buildLibrary } from '../../../server/src/library/libraryModel';
import { libraryView } from '../../../server/src/library/libraryView';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { repository } from '../../support/cliRun';

// The library view's model of a library: where each skill's folder is shown (the user's from `~`), how a plugin's
// skills and a shadowed one appear in each client's list, and a finding placed on its line.

const skill = (name: string, description: string, body = '') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

test('plugins are listed by Claude Code under their namespace and never by Codex; the loaded one of a name is listed', () => {
  const root = repository(
    {
      'repo/.claude/skills/deploy/SKILL.md': skill('deploy', 'Deploys the team way. Use when deploying.'),
      'repo/skills/deploy/SKILL.md': skill('deploy', 'Deploys another way. Use when deploying.'),
      'plugins/acme/.claude-plugin/plugin.json': '{"name": "acme"}',
      'plugins/acme/skills/lint/SKILL.md': skill('lint', 'Lints. Use before a commit.'),
      'outside/tools/fmt/SKILL.md': skill('fmt', 'Formats. Use before a commit.'),
      'home/.agents/skills/notes/SKILL.md': skill('notes', 'Takes notes. Use in meetings.'),
    },
    'sg-library-view-',
  );
  try {
    const files = [
      'repo/.claude/skills/deploy/SKILL.md',
      'repo/skills/deploy/SKILL.md',
      'plugins/acme/skills/lint/SKILL.md',
      'outside/tools/fmt/SKILL.md',
      'home/.agents/skills/notes/SKILL.md',
    ].map((relative) => path.join(root, relative));
    const fs = new NodeFileSystem();
    const library = buildLibrary(fs, files, path.join(root, 'home'));
    const view = libraryView({
      library,
      findings: checkLibrary(library),
      roots: [path.join(root, 'repo'), path.join(root, 'plugins')],
      home: path.join(root, 'home'),
      textOf: (file) => readFileSync(file, 'utf8'),
    });
    const byName = (name: string) => view.skills.filter((item) => item.name === name);
    // Relative to the workspace folder holding it; outside every one, its whole path.
    assert.deepEqual(
      view.skills.map((item) => [item.name, item.folder]),
      [
        ['notes', '~/.agents/skills'],
        ['fmt', path.join(root, 'outside', 'tools').split(path.sep).join('/')],
        ['acme:lint', 'acme/skills'],
        ['deploy', '.claude/skills'],
        ['deploy', 'skills'],
      ],
    );
    assert.deepEqual(
      byName('deploy').map((item) => item.problems.map((problem) => [problem.code, problem.range.start.line])),
      [[['shadowed_skill', 1]], [['shadowed_skill', 1]]],
    );
    const [codex, claude] = view.lists;
    assert.deepEqual(
      codex.entries.map((entry) => [entry.name, entry.installed]),
      [
        ['deploy', false],
        ['fmt', false],
        ['notes', true],
      ],
    );
    assert.deepEqual(
      claude.entries.map((entry) => [entry.name, entry.installed, entry.description]),
      [
        ['acme:lint', true, 'Lints. Use before a commit.'],
        ['deploy', true, 'Deploys the team way. Use when deploying.'],
        ['fmt', false, 'Formats. Use before a commit.'],
        ['notes', false, 'Takes notes. Use in meetings.'],
      ],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('names and mentions are placed as the library read them: only a skill with findings is read again', () => {
  const root = repository(
    {
      // CRLF line ends and a name on the third line: places as the editor counts them.
      'skills/deploy/SKILL.md':
        '---\r\ndescription: Deploys the site. Use when it must go live.\r\nname: deploy\r\n---\r\n',
      'skills/docs/SKILL.md': skill(
        'docs',
        'Ships the docs. Use when docs changed.',
        'Intro.\n\nThen run /deploy and /deplyo.',
      ),
    },
    'sg-library-view-places-',
  );
  try {
    const deploy = path.join(root, 'skills', 'deploy', 'SKILL.md');
    const docs = path.join(root, 'skills', 'docs', 'SKILL.md');
    const library = buildLibrary(new NodeFileSystem(), [deploy, docs], path.join(root, 'home'));
    const read: string[] = [];
    const view = libraryView({
      library,
      findings: checkLibrary(library),
      roots: [root],
      home: path.join(root, 'home'),
      textOf: (file) => {
        read.push(path.relative(root, file));
        return readFileSync(file, 'utf8');
      },
    });
    const at = (range: { start: { line: number; character: number }; end: { character: number } }) => [
      range.start.line,
      range.start.character,
      range.end.character,
    ];
    assert.deepEqual(
      view.skills.map((item) => [item.name, at(item.range), item.problems.map((problem) => at(problem.range))]),
      [
        ['deploy', [2, 6, 12], []],
        // `/deplyo` names no skill: the one finding, on the body's last line.
        ['docs', [1, 6, 10], [[7, 22, 28]]],
      ],
    );
    assert.deepEqual(
      view.edges.map((edge) => [path.relative(root, edge.from), path.relative(root, edge.to), at(edge.range)]),
      [[path.join('skills', 'docs', 'SKILL.md'), path.join('skills', 'deploy', 'SKILL.md'), [7, 10, 16]]],
    );
    assert.deepEqual(read, [path.join('skills', 'docs', 'SKILL.md')]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
