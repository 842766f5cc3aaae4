import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import type { RuleCode } from '../../../server/src/rules';
import { applyChanges, bestTier, chosenFix, compatibleFixes } from '../../../server/src/fixes/chooseFixes';
import type { Fix, TextChange } from '../../../server/src/checks/engine/fix';
import { fixSkill } from '../../../server/src/fixes/fixSkill';
import { fixesFor } from '../../../server/src/fixes/skillFixes';
import { suppressionEdit } from '../../../server/src/fixes/suppressionFixes';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { analyzeFixture, fetchProcedure, frontmatter, withCode } from '../../support/fixture';

/** The text of the skill's SKILL.md with a fix's text changes applied. */
function applied(analysis: SkillAnalysis, fix: Fix): string {
  const changes = fix.edits.filter((edit): edit is TextChange => edit.kind === 'replace');
  return applyChanges(analysis.text, changes);
}

function only(analysis: SkillAnalysis, code: RuleCode) {
  const found = withCode(analysis, code);
  assert.equal(found.length, 1, `one ${code} finding`);
  return { item: found[0], fixes: fixesFor(analysis, found[0]) };
}

test('unquoted_colon: quoting is safe and preferred; a folded block scalar is the other safe way', () => {
  const { analysis } = analyzeFixture('deploy', '---\nname: deploy\ndescription: Use when: deploying\n---\nBody.\n');
  const { fixes } = only(analysis, 'unquoted_colon');
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.tier, fix.preferred]),
    [
      ['Quote the value of "description"', 'safe', true],
      ['Make "description" a folded block scalar', 'safe', false],
    ],
  );
  assert.equal(applied(analysis, fixes[0]), '---\nname: deploy\ndescription: "Use when: deploying"\n---\nBody.\n');
  assert.equal(applied(analysis, fixes[1]), '---\nname: deploy\ndescription: >-\n  Use when: deploying\n---\nBody.\n');
});

test('argument-hint read as a list: quoting the text written is safe', () => {
  const { analysis } = analyzeFixture(
    'dated',
    '---\nname: dated\ndescription: Reports by date.\nargument-hint: [optional: date]\n---\nBody.\n',
    {},
    'claude-code',
  );
  const { fixes } = only(analysis, 'portable_value');
  assert.equal(fixes[0].tier, 'safe');
  assert.match(applied(analysis, fixes[0]), /\nargument-hint: "\[optional: date\]"\n/);
});

test('a path with the wrong case or backslashes: safe; a suggested name or a nearest file: unsafe', () => {
  const { analysis } = analyzeFixture(
    'guide',
    `${frontmatter('guide')}\nSee [the guide](References\\Guide.md) and \`references/gide.md\`.\n`,
    { 'references/guide.md': '# Guide\n' },
  );
  const slashes = withCode(analysis, 'backslash_path').concat(withCode(analysis, 'path_case_mismatch'));
  assert.ok(slashes.length > 0);
  for (const item of slashes) assert.equal(bestTier(fixesFor(analysis, item)), 'safe');
  const { fixes } = only(analysis, 'missing_file');
  assert.equal(fixes[0].tier, 'unsafe');
  assert.match(applied(analysis, fixes[0]), /`references\/guide\.md`/);
});

test('an unknown top-level key moves under metadata (unsafe); a misspelt one is renamed first', () => {
  const moved = analyzeFixture(
    'tool',
    '---\nname: tool\ndescription: Does things.\nauthor: Ada\nmetadata:\n  team: infra\n---\n',
    {},
    'agentskills',
  ).analysis;
  const { fixes } = only(moved, 'unknown_frontmatter_key');
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.tier, fix.preferred]),
    [['Move "author" under metadata', 'unsafe', true]],
  );
  assert.equal(
    applied(moved, fixes[0]),
    '---\nname: tool\ndescription: Does things.\nmetadata:\n  team: infra\n  author: Ada\n---\n',
  );
  const created = analyzeFixture('tool', '---\nname: tool\ndescription: Does things.\nversion: 2\n---\n').analysis;
  assert.equal(
    applied(created, only(created, 'unknown_frontmatter_key').fixes[0]),
    '---\nname: tool\ndescription: Does things.\nmetadata:\n  version: "2"\n---\n',
    'metadata holds strings: a number moves as one',
  );
  // Every unknown key is one finding, and its fix moves every key it can; a multi-line value stays where it is.
  const several = analyzeFixture(
    'tool',
    '---\nname: tool\ndescription: Does things.\nauthor: Ada\ntags:\n  - a\nversion: 2\n---\n',
  ).analysis;
  const [move] = only(several, 'unknown_frontmatter_key').fixes;
  assert.deepEqual([move.title, move.preferred], ['Move "author" and "version" under metadata', true]);
  assert.equal(
    applied(several, move),
    '---\nname: tool\ndescription: Does things.\ntags:\n  - a\nmetadata:\n  author: Ada\n  version: "2"\n---\n',
  );
  const typo = analyzeFixture('tool', '---\nname: tool\ndescription: Does things.\nlicence: MIT\n---\n').analysis;
  assert.deepEqual(
    only(typo, 'unknown_frontmatter_key').fixes.map((fix) => [fix.title, fix.preferred]),
    [
      ['Change to "license"', true],
      ['Move "licence" under metadata', false],
    ],
  );
});

test('an unused suppression: the code removed, or the whole comment when nothing in it silences anything', () => {
  const body = [
    '<!-- skillgraph-disable-next-line missing_file, body_too_long -->',
    'Read [a](references/a.md).',
    '<!-- skillgraph-disable-next-line missing_file -->',
    'Nothing here.',
    'Text <!-- skillgraph-disable-next-line misng_file -->',
    'Read [b](references/b.md).',
  ].join('\n');
  const { analysis } = analyzeFixture('skill', `${frontmatter('skill')}\n${body}\n`);
  const unused = withCode(analysis, 'unused_suppression');
  assert.equal(unused.length, 3);
  const [partial, whole, misspelt] = unused.map((item) => fixesFor(analysis, item));
  assert.match(
    applied(analysis, partial[0]),
    /<!-- skillgraph-disable-next-line missing_file -->\nRead \[a\]\(references\/a/,
  );
  assert.equal(partial[0].tier, 'safe');
  assert.doesNotMatch(applied(analysis, whole[0]), /\n<!-- skillgraph-disable-next-line missing_file -->\nNothing/);
  assert.match(applied(analysis, whole[0]), /Read \[a\]\(references\/a\.md\)\.\nNothing here\./);
  // A misspelt code: correcting it comes first (it then silences what it was written for); removing it is safe.
  assert.deepEqual(
    misspelt.map((fix) => [fix.title, fix.tier, fix.preferred]),
    [
      ['Change to "missing_file"', 'unsafe', true],
      ['Remove the suppression', 'safe', false],
    ],
  );
  assert.match(applied(analysis, misspelt[1]), /\nText\nRead \[b\]\(references\/b\.md\)/);
});

test('suppression comments: above a Markdown line, at the end of a YAML line, never inside a fence or a string', () => {
  const text = [
    '---',
    'name: skill',
    'description: Does things.',
    'website: https://example.test',
    '---',
    '  Read [a](references/a.md).',
    '```bash',
    'cat references/b.md',
    '```',
    '',
  ].join('\n');
  const { analysis } = analyzeFixture('skill', text, {}, 'agentskills');
  const edit = (code: RuleCode) => {
    const change = suppressionEdit(analysis, withCode(analysis, code)[0]);
    return change && applyChanges(analysis.text, [change]);
  };
  assert.match(
    edit('unknown_frontmatter_key')!,
    /\nwebsite: https:\/\/example\.test {2}# skillgraph-disable-line unknown_frontmatter_key\n/,
  );
  assert.match(
    edit('missing_file')!,
    /\n {2}<!-- skillgraph-disable-next-line missing_file -->\n {2}Read \[a\]\(references/,
  );
  // A finding in a fenced example: a comment there would be part of the example.
  const fenced = analyzeFixture(
    'skill',
    `${frontmatter('skill')}\n\`\`\`\nsee references/b.md\n\`\`\`\nThe [link](references/c.md).\n`,
  ).analysis;
  const inFence = withCode(fenced, 'missing_file').filter((item) =>
    fenced.text.slice(item.span.start).startsWith('references/b'),
  );
  for (const item of inFence) assert.equal(suppressionEdit(fenced, item), undefined);
  // A second code joins the comment already above the line.
  const joined = analyzeFixture(
    'skill',
    `${frontmatter('skill')}\n<!-- skillgraph-disable-next-line body_too_long -->\nRead [a](references/a.md).\n`,
  ).analysis;
  const [missing] = withCode(joined, 'missing_file');
  assert.match(
    applyChanges(joined.text, [suppressionEdit(joined, missing)!]),
    /<!-- skillgraph-disable-next-line body_too_long, missing_file -->\nRead/,
  );
});

test('choosing fixes: the preferred fix of an allowed tier; overlapping edits wait for the next round', () => {
  const { analysis } = analyzeFixture('deploy', '---\nname: deploy\ndescription: Use when: deploying\n---\nBody.\n');
  const { fixes } = only(analysis, 'unquoted_colon');
  assert.equal(chosenFix(fixes, { unsafe: false, onDisk: true })?.title, 'Quote the value of "description"');
  assert.equal(chosenFix(fixes, { unsafe: false, onDisk: true, codes: new Set(['crlf_line_endings']) }), undefined);
  // The two fixes of one finding change the same text: only the first is taken.
  assert.deepEqual(
    compatibleFixes(fixes).map((fix) => fix.title),
    ['Quote the value of "description"'],
  );
});

/** A skill on a memory disk, fixed with `choice`. */
function fixed(files: Record<string, string>, unsafe: boolean, strict = false) {
  const fs = new MemoryFileSystem(files);
  const file = Object.keys(files).find((name) => name.endsWith('SKILL.md'))!;
  return fixSkill(fs, file, { strict }, { unsafe, onDisk: true });
}

test('fixSkill: rounds until nothing is left to fix; the result checked again; a second run changes nothing', () => {
  const file = '/skills/tool/SKILL.md';
  const text = '---\r\nname: tool\r\ndescription: Use when: testing\r\nallowed-tools: [Read, Bash]\r\n---\r\nBody.\r\n';
  const first = fixed({ [file]: text }, false, true);
  assert.deepEqual(first.applied.map((placed) => placed.fix.diagnostic.code).sort(), [
    'crlf_line_endings',
    'restricted_yaml',
    'unquoted_colon',
  ]);
  assert.equal(
    first.files[0].after,
    '---\nname: tool\ndescription: "Use when: testing"\nallowed-tools:\n  - Read\n  - Bash\n---\nBody.\n',
  );
  assert.deepEqual(withCode(first.analysis, 'unquoted_colon'), []);
  const second = fixed({ [file]: first.files[0].after }, false, true);
  assert.deepEqual(second.applied, []);
  assert.deepEqual(second.files, []);
});

test('fixSkill: a fix whose result has an error the skill did not have is left out, and the rest applied', () => {
  // The folder name is no valid skill name: renaming the skill after it would add an error.
  const file = '/skills/My_Tool/SKILL.md';
  const result = fixed({ [file]: '---\nname: my-tool\ndescription: Use when: testing\n---\nBody.\n' }, true);
  assert.deepEqual(
    result.refused.map((placed) => placed.fix.diagnostic.code),
    ['name_mismatch'],
  );
  assert.deepEqual(
    result.applied.map((placed) => placed.fix.diagnostic.code),
    ['unquoted_colon'],
  );
  assert.match(result.files[0].after, /^name: my-tool$/m);
  // Where it was: line 2 (0-based 1), at the value.
  assert.deepEqual([result.refused[0].line, result.refused[0].character], [1, 6]);
});

test('fixSkill: a byte-order mark is removed on disk only; a stub script is created, never over a file', () => {
  const file = '/skills/tool/SKILL.md';
  const bom = fixed({ [file]: '\ufeff---\nname: tool\ndescription: Does things.\n---\nBody.\n' }, false);
  assert.equal(bom.files.length, 1);
  assert.equal(bom.files[0].markRemoved, true);
  assert.equal(bom.files[0].after, bom.files[0].before);
  const stub = fixed({ [file]: fetchProcedure('tool') }, true);
  const created = stub.files.find((item) => item.created);
  assert.ok(created, 'the stub is among the files');
  assert.equal(created.file, path.join('/skills/tool', 'scripts', 'fetch.py'));
  assert.match(created.after, /^"""Fetch the data\."""/);
  assert.deepEqual(withCode(stub.analysis, 'missing_script'), [], 'the skill checked with the stub in place');
});

test('fixSkill reads through the file system given and writes nothing to it', () => {
  const file = '/skills/deploy/SKILL.md';
  const fs = new MemoryFileSystem({ [file]: '---\nname: deploy\ndescription: Use when: deploying\n---\n' });
  const before = analyzeSkill(fs, file);
  fixSkill(fs, file, {}, { unsafe: true, onDisk: true });
  assert.equal(new TextDecoder().decode(fs.readFile(file)), before.text);
});
