import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { readConfig } from '../../server/src/config/configFile';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { readIn, repository, runCli } from '../support/cliRun';

const skill = (name: string) => `---\nname: ${name}\ndescription: Does one thing. Use when testing.\n---\nBody.\n`;

/** The configuration `init` writes into a repository of `files`, and what Skillgraph reads of it. */
function initialised(files: Record<string, string>) {
  const root = repository(files);
  const result = runCli(root, 'init');
  assert.equal(result.status, 0, result.stderr);
  const file = path.join(root, '.skillgraph.yaml');
  return { root, result, text: readIn(root, '.skillgraph.yaml'), config: readConfig(new NodeFileSystem(), file) };
}

test('init: the profile of the one client folder all skills are in; a configuration that reads without a finding', () => {
  const { result, text, config } = initialised({
    '.claude/skills/review/SKILL.md': skill('review'),
    '.claude/skills/deploy/SKILL.md': skill('deploy'),
  });
  assert.match(result.stdout, /^Wrote \.skillgraph\.yaml for 2 skills\.\nNext: skillgraph check \. --update-baseline/);
  assert.match(text, /^profile: claude-code # all 2 skills are under \.claude\/skills\/$/m);
  assert.deepEqual(config.diagnostics, []);
  assert.equal(config.profile, 'claude-code');
  assert.equal(config.baseline?.endsWith('.skillgraph-baseline.json'), true);
  // Every setting is there, commented, for the team to find.
  for (const key of ['strict', 'rules', 'ignore', 'overrides', 'catalogs', 'baseline'])
    assert.match(text, new RegExp(`^#? ?${key}:`, 'm'));
});

test('init: skills in several client folders keep their folders; a plugin is Claude Code; elsewhere the default', () => {
  const mixed = initialised({
    '.claude/skills/review/SKILL.md': skill('review'),
    '.agents/skills/deploy/SKILL.md': skill('deploy'),
    'docs/SKILL.md': skill('docs'),
  }).text;
  assert.match(
    mixed,
    /^# Each skill is checked for the client whose folder holds it \(1 claude-code, 1 codex, 1 elsewhere: agentskills\)\.$/m,
  );
  assert.doesNotMatch(mixed, /^profile:/m);
  const plugin = initialised({ '.claude-plugin/plugin.json': '{}', 'skills/review/SKILL.md': skill('review') }).text;
  assert.match(plugin, /^profile: claude-code # the folder is a Claude Code plugin$/m);
  const plain = initialised({ 'skills/review/SKILL.md': skill('review') }).text;
  assert.match(plain, /^# profile: agentskills$/m);
});

test('init: SKILL.md files without frontmatter (build-time overlays) are listed to ignore', () => {
  const { text, config } = initialised({
    'skills/review/SKILL.md': skill('review'),
    'overlays/review/SKILL.md': '<!--variant:a:start-->\nMerged at build time.\n<!--variant:a:end-->\n',
  });
  assert.match(text, /\nignore:\n {2}- "overlays\/review\/\*\*"\n/);
  assert.deepEqual(config.diagnostics, []);
  const check = runCli(path.dirname(config.file), 'check');
  assert.match(check.stderr, /1 skill checked \(1 ignored by configuration\)/);
});

test('init never replaces a configuration unless --force, and extends one above it', () => {
  const root = repository({ '.skillgraph.yaml': 'rules: {}\n', 'team/skills/review/SKILL.md': skill('review') });
  const again = runCli(root, 'init');
  assert.equal(again.status, 2);
  assert.match(again.stderr, /\.skillgraph\.yaml already exists; nothing was written \(--force replaces it\)/);
  assert.equal(readIn(root, '.skillgraph.yaml'), 'rules: {}\n');
  assert.equal(runCli(root, 'init', '--force').status, 0);
  assert.match(readIn(root, '.skillgraph.yaml'), /^baseline:/m);
  const nested = runCli(root, 'init', 'team');
  assert.equal(nested.status, 0);
  assert.match(readIn(root, 'team/.skillgraph.yaml'), /^extends: "\.\.\/\.skillgraph\.yaml"$/m);
  assert.equal(runCli(root, 'init', 'nowhere').status, 2);
});
