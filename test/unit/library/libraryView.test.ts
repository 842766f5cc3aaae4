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
      [[], [['shadowed_skill', 1]]],
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
