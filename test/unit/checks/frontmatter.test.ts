import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import * as path from 'node:path';
import { analyzeSkill } from '../../../server/src/analyze';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { analyzeFixture, expectAt, expectNone, frontmatter, ROOT, unmark, withCode } from '../../support/fixture';

test('a valid plain skill has no diagnostics', () => {
  const { analysis } = analyzeFixture(
    'plain',
    `${frontmatter('plain', 'license: MIT\ncompatibility: Needs git.\nallowed-tools: Bash(git:*) Read\nmetadata:\n  author: me\n')}\n# Plain\n`,
  );
  assert.deepEqual(analysis.diagnostics, []);
  assert.equal(analysis.format, 'agent-skill');
  assert.equal(analysis.name, 'plain');
});

test('missing_required_frontmatter: on the opening ---, naming the key', () => {
  const { analysis, spans } = analyzeFixture('plain', '«---»\nname: plain\n---\n');
  const [found] = expectAt(analysis, 'missing_required_frontmatter', spans);
  assert.match(found.message, /missing the required key `description`/);
});

test('missing_required_frontmatter: claude-code defaults the name to the folder', () => {
  const { analysis } = analyzeFixture('plain', '---\ndescription: x\n---\n', {}, 'claude-code');
  expectNone(analysis, 'missing_required_frontmatter');
  const strict = analyzeFixture('plain', '---\ndescription: x\n---\n');
  assert.equal(strict.analysis.diagnostics.filter((item) => item.code === 'missing_required_frontmatter').length, 1);
});

test('invalid_name: on the value, uppercase and double hyphens', () => {
  const { analysis, spans } = analyzeFixture('Bad--Name', '---\nname: «Bad--Name»\ndescription: x\n---\n');
  const [found] = expectAt(analysis, 'invalid_name', spans);
  assert.match(found.message, /`name` has an invalid value "Bad--Name"/);
});

test('name_mismatch: name differs from the folder', () => {
  const { analysis, spans } = analyzeFixture('folder-name', '---\nname: «other-name»\ndescription: x\n---\n');
  const [found] = expectAt(analysis, 'name_mismatch', spans);
  assert.equal(found.data?.expected, 'folder-name');
});

test('name_mismatch: quiet when the name differs from its folder only in case, where invalid_name reports it', () => {
  const { analysis, spans } = analyzeFixture('release-notes', '---\nname: «Release-Notes»\ndescription: x\n---\n');
  expectAt(analysis, 'invalid_name', spans);
  expectNone(analysis, 'name_mismatch');
  // A folder in capitals with a valid lowercase name: the name breaks no rule, so the mismatch is the one finding.
  const folder = analyzeFixture('Release-Notes', '---\nname: «release-notes»\ndescription: x\n---\n');
  expectAt(folder.analysis, 'name_mismatch', folder.spans);
  expectNone(folder.analysis, 'invalid_name');
  // An invalid name that differs from its folder in more than case: two facts, two findings.
  const both = analyzeFixture('release-notes', '---\nname: «Changelog»\ndescription: x\n---\n');
  expectAt(both.analysis, 'invalid_name', both.spans);
  expectAt(both.analysis, 'name_mismatch', both.spans);
});

test('invalid_description: too long, counted after folding', () => {
  // Two lines of 524 characters fold into one line joined by a space, plus the final newline: 1050.
  const half = 'word '.repeat(105).trimEnd();
  const { analysis, spans } = analyzeFixture(
    'plain',
    `---\nname: plain\ndescription: «>\n  ${half}\n  ${half}\n»---\n`,
  );
  const [found] = expectAt(analysis, 'invalid_description', spans);
  assert.match(found.message, /1050 characters long; the limit is 1024/);
});

test('invalid_description: empty', () => {
  const { analysis, spans } = analyzeFixture('plain', '---\nname: plain\ndescription: «""»\n---\n');
  expectAt(analysis, 'invalid_description', spans);
});

test('invalid_compatibility: over 500 characters', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `${frontmatter('plain', `compatibility: «${'x'.repeat(501)}»\n`)}`,
  );
  expectAt(analysis, 'invalid_compatibility', spans);
});

test('invalid_allowed_tools: a map instead of one string', () => {
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain', 'allowed-tools: «{Read: all}»\n')}`);
  const [found] = expectAt(analysis, 'invalid_allowed_tools', spans);
  assert.match(found.message, /must be a string, not a map.*space-separated/);
});

test('portable_value: a YAML list of tools warns by default and is an error for the Claude API upload', () => {
  const marked = `${frontmatter('plain', 'allowed-tools: «[Read, Bash]»\nargument-hint: «[file]»\n')}`;
  const { analysis, spans } = analyzeFixture('plain', marked);
  const found = expectAt(analysis, 'portable_value', spans);
  assert.deepEqual(
    found.map((item) => item.severity),
    ['warning', 'warning'],
  );
  assert.match(
    found[0].message,
    /`allowed-tools` is a YAML list in brackets; the spec asks for one space-separated string\. The reference validator rejects the bracket form/,
  );
  expectNone(analysis, 'invalid_allowed_tools');
  const upload = analyzeFixture('plain', marked, {}, 'claude-api');
  assert.deepEqual(
    withCode(upload.analysis, 'portable_value').map((item) => item.severity),
    ['error', 'error'],
  );
});

test('invalid_license: not a string', () => {
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain', 'license: «{name: MIT}»\n')}`);
  expectAt(analysis, 'invalid_license', spans);
});

test('invalid_metadata: metadata that is not a map', () => {
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain', 'metadata: «[a, b]»\n')}`);
  const [found] = expectAt(analysis, 'invalid_metadata', spans);
  assert.match(found.message, /`metadata` must be a map, not a list/);
});

test('portable_value: metadata values that are a number or a nested map, which the reference validator turns into strings', () => {
  const marked = `${frontmatter('plain', 'metadata:\n  version: «1.0»\n  owner:\n    «team: x\n»')}`;
  const { analysis, spans } = analyzeFixture('plain', marked);
  const found = expectAt(analysis, 'portable_value', spans);
  assert.match(found[0].message, /`metadata\.version` is a number, not a string/);
  assert.match(found[1].message, /`metadata\.owner` is a map, not a string/);
  expectNone(analysis, 'invalid_metadata');
  // OpenSquilla reads its own nested metadata namespaces: nothing to report there.
  expectNone(analyzeFixture('plain', marked, {}, 'opensquilla').analysis, 'portable_value');
  assert.match(found[1].message, /the reference validator and most clients turn it into one/);
});

test('portable_value: a metadata value in brackets or braces is refused by the reference validator, not turned into a string', () => {
  const marked = `${frontmatter('plain', 'metadata:\n  labels: «[ui, forms]»\n  triggers:\n    «files: [a.ts]\n»  owner: «7»\n')}`;
  const { analysis, spans } = analyzeFixture('plain', marked);
  const [labels, triggers, owner] = expectAt(analysis, 'portable_value', spans);
  for (const flow of [labels, triggers])
    assert.match(flow.message, /written in brackets or braces, which the reference validator refuses/);
  assert.match(owner.message, /`metadata\.owner` is a number, not a string; the reference validator and most clients/);
});

test('invalid_frontmatter_field: a Claude Code field with a wrong value', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `${frontmatter('plain', 'effort: «extreme»\n')}`,
    {},
    'claude-code',
  );
  const [found] = expectAt(analysis, 'invalid_frontmatter_field', spans);
  assert.match(found.message, /not one of "low", "medium", "high", "xhigh", "max"/);
});

test('unknown_frontmatter_key: one finding per skill at the first unknown key, naming them all; a misspelt key apart', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `${frontmatter('plain', '«tags»: [a]\nowner: Ada\n«licence»: MIT\nversion: 2\nowner: Bo\n')}`,
  );
  const [merged, typo] = expectAt(analysis, 'unknown_frontmatter_key', spans);
  assert.equal(
    merged.message,
    'Unknown frontmatter keys `tags`, `owner` and `version` for the Agent Skills specification. Known keys: name, description, license, compatibility, metadata, allowed-tools.',
  );
  assert.deepEqual(merged.data, { key: 'tags', keys: ['tags', 'owner', 'version'] });
  // A key one letter off a known one is another fact (the value meant for `license` is lost), with its own fix.
  assert.match(typo.message, /^Unknown frontmatter key `licence` for .*\. Did you mean `license`\?/);
  assert.deepEqual(typo.data, { key: 'licence', suggestion: 'license' });
  // One unknown key reads as it did when each key was a finding of its own.
  const one = analyzeFixture('plain', `${frontmatter('plain', '«tags»: [a]\n')}`);
  const [single] = expectAt(one.analysis, 'unknown_frontmatter_key', one.spans);
  assert.match(single.message, /^Unknown frontmatter key `tags` for the Agent Skills specification\. Known keys:/);
});

test('unknown_frontmatter_key: severity follows the profile; a key only a client reads is one note by default', () => {
  const text = `${frontmatter('plain', '«model»: opus\n«tags»: [a]\n')}`;
  const base = analyzeFixture('plain', text);
  const [tags] = expectAt(base.analysis, 'unknown_frontmatter_key', [base.spans[1]]);
  assert.equal(tags.severity, 'warning');
  const [model] = expectAt(base.analysis, 'client_frontmatter_key', [base.spans[0]]);
  assert.equal(model.severity, 'information');
  const claudeCode = analyzeFixture('plain', text, {}, 'claude-code');
  const [unread] = expectAt(claudeCode.analysis, 'unknown_frontmatter_key', [claudeCode.spans[1]]);
  assert.equal(unread.severity, 'information');
  expectNone(claudeCode.analysis, 'client_frontmatter_key');
  // The upload rejects every key it does not know, a client's too: one error for both, at the first.
  const api = analyzeFixture('plain', text, {}, 'claude-api');
  const [rejected] = expectAt(api.analysis, 'unknown_frontmatter_key', [api.spans[0]]);
  assert.deepEqual([rejected.severity, rejected.data?.keys], ['error', ['model', 'tags']]);
  const vscode = analyzeFixture(
    'plain',
    `${frontmatter('plain', '«allowed-tools»: Read\nargument-hint: x\n')}`,
    {},
    'vscode',
  );
  expectAt(vscode.analysis, 'unknown_frontmatter_key', vscode.spans);
});

test('client_frontmatter_key: the keys only some clients read, in one note at the first, grouped by who reads them', () => {
  const claudeOnly = analyzeFixture(
    'plain',
    `${frontmatter('plain', '«argument-hint»: "[file]"\nmodel: sonnet\ntags: [a]\nwhen_to_use: Always.\n')}`,
  );
  const [note] = expectAt(claudeOnly.analysis, 'client_frontmatter_key', claudeOnly.spans);
  assert.equal(
    note.message,
    'Keys only some clients read: `argument-hint` (Claude Code, VS Code); `model`, `when_to_use` (Claude Code). Other clients ignore them; to check the skill as one of these clients reads it, use its profile.',
  );
  assert.deepEqual(note.data, { keys: ['argument-hint', 'model', 'when_to_use'] });
  const one = analyzeFixture('plain', `${frontmatter('plain', '«model»: sonnet\nwhen_to_use: Always.\n')}`);
  assert.equal(
    expectAt(one.analysis, 'client_frontmatter_key', one.spans)[0].message,
    'Keys only Claude Code reads: `model`, `when_to_use`. Other clients ignore them; to check the skill as Claude Code reads it, use the `claude-code` profile.',
  );
  const single = analyzeFixture('plain', `${frontmatter('plain', '«triggers»: [deploy]\n')}`);
  assert.equal(
    expectAt(single.analysis, 'client_frontmatter_key', single.spans)[0].message,
    'A key only OpenSquilla reads: `triggers`. Other clients ignore it; to check the skill as OpenSquilla reads it, use the `opensquilla` profile.',
  );
  // A client Skillgraph has no profile of: the note names it, and offers no profile.
  const cowork = analyzeFixture(
    'plain',
    `${frontmatter('plain', '«cowork»:\n  category: Analysis\n  icon: BarChart4\n')}`,
  );
  assert.equal(
    expectAt(cowork.analysis, 'client_frontmatter_key', cowork.spans)[0].message,
    'A key only Microsoft 365 Copilot Cowork reads: `cowork`. Other clients ignore it.',
  );
  expectNone(cowork.analysis, 'unknown_frontmatter_key');
  // The reference validator (`strict`) rejects every key the specification does not have, a client's too.
  const { text, spans } = unmark(`${frontmatter('plain', '«model»: sonnet\n')}`);
  const file = path.join(ROOT, 'plain', 'SKILL.md');
  const strict = analyzeSkill(new MemoryFileSystem({ [file]: text }), file, { strict: true });
  expectNone(strict, 'client_frontmatter_key');
  assert.equal(expectAt(strict, 'unknown_frontmatter_key', spans)[0].severity, 'error');
  // Where the consumer is one client, another's key is a key it does not read.
  const codex = analyzeFixture(
    'plain',
    `${frontmatter('plain', '«model»: sonnet\nwhen_to_use: Always.\n')}`,
    {},
    'codex',
  );
  expectNone(codex.analysis, 'client_frontmatter_key');
  assert.deepEqual(expectAt(codex.analysis, 'unknown_frontmatter_key', codex.spans)[0].data?.keys, [
    'model',
    'when_to_use',
  ]);
});

test('description_truncated: claude-code cuts description + when_to_use at 1536', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `---\nname: plain\ndescription: «${'d'.repeat(1000)}»\nwhen_to_use: ${'w'.repeat(600)}\n---\n`,
    {},
    'claude-code',
  );
  expectAt(analysis, 'description_truncated', spans);
  expectNone(
    analyzeFixture(
      'plain',
      `---\nname: plain\ndescription: ${'d'.repeat(1000)}\nwhen_to_use: ${'w'.repeat(600)}\n---\n`,
    ).analysis,
    'description_truncated',
  );
});

test('agent_without_fork: agent needs context: fork', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `${frontmatter('plain', '«agent»: explorer\n')}`,
    {},
    'claude-code',
  );
  expectAt(analysis, 'agent_without_fork', spans);
  expectNone(
    analyzeFixture('plain', `${frontmatter('plain', 'agent: explorer\ncontext: fork\n')}`, {}, 'claude-code').analysis,
    'agent_without_fork',
  );
});

test('xml_in_frontmatter and reserved_name: claude-api only', () => {
  const text = '---\nname: «claude-helper»\ndescription: «Wraps <tool> calls»\n---\n';
  const { analysis, spans } = analyzeFixture('claude-helper', text, {}, 'claude-api');
  expectAt(analysis, 'xml_in_frontmatter', [spans[1]]);
  const [reserved] = expectAt(analysis, 'reserved_name', [spans[0]]);
  assert.match(reserved.message, /"claude"/);
  const base = analyzeFixture('claude-helper', text);
  expectNone(base.analysis, 'xml_in_frontmatter');
  expectNone(base.analysis, 'reserved_name');
});

test('upload_too_large: claude-api, a folder over 8 MB', () => {
  const big = 'x'.repeat(3 * 1024 * 1024);
  const files = { 'assets/a.bin': big, 'assets/b.bin': big, 'assets/c.bin': big };
  const { analysis, spans } = analyzeFixture('plain', `«---»\nname: plain\ndescription: x\n---\n`, files, 'claude-api');
  expectAt(analysis, 'upload_too_large', spans);
  expectNone(analyzeFixture('plain', `${frontmatter('plain')}`, files).analysis, 'upload_too_large');
});
