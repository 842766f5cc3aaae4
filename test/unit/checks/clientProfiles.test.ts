import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import * as path from 'node:path';
import type { Span } from '../../../server/src/parse/text/lineIndex';
import type { RuleCode } from '../../../server/src/rules';
import { fixesFor } from '../../../server/src/fixes/skillFixes';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { analyzeFixture, expectAt, expectNone, ROOT, unmark, withCode } from '../../support/fixture';

/** Asserts that `code` is reported exactly at `spans` of `file` (another file of the skill than SKILL.md). */
function expectIn(analysis: SkillAnalysis, code: RuleCode, file: string, spans: Span[]) {
  const text = analysis.sources.get(file) ?? '';
  assert.deepEqual(
    withCode(analysis, code).map((item) => [item.file, item.span.file, text.slice(item.span.start, item.span.end)]),
    spans.map((span) => [file, file, text.slice(span.start, span.end)]),
  );
}

// Each profile follows its client as the client behaves now; every difference is asserted here, with the client
// behaviour it follows (docs/profiles.md says which release and why).

const LONG = 'Does one thing well. '.repeat(60).trim();

test('a skill without `name`: a warning for VS Code (1.139 warns "Skill should provide a name."), nothing for Claude Code and Codex (they use the folder name)', () => {
  const skill = '---\ndescription: Drafts release notes. Use when the user asks for notes.\n---\n\nBody.\n';
  assert.deepEqual(
    withCode(analyzeFixture('notes', skill, {}, 'vscode').analysis, 'missing_required_frontmatter').map(
      (item) => item.severity,
    ),
    ['warning'],
  );
  expectNone(analyzeFixture('notes', skill, {}, 'claude-code').analysis, 'missing_required_frontmatter');
  // Codex's loader (codex-rs/core-skills/src/loader.rs) falls back to the folder's name too.
  expectNone(analyzeFixture('notes', skill, {}, 'codex').analysis, 'missing_required_frontmatter');
  // The specification (and every other profile that needs it) still requires it.
  assert.equal(
    withCode(analyzeFixture('notes', skill, {}, 'agentskills').analysis, 'missing_required_frontmatter').length,
    1,
  );
});

test('claude-code: a description over 1,024 characters is listed cut at 1,536, not rejected; the specification rejects it', () => {
  const skill = `---\nname: notes\ndescription: ${LONG}\n---\n\nBody.\n`;
  assert.ok(LONG.length > 1024 && LONG.length <= 1536);
  expectNone(analyzeFixture('notes', skill, {}, 'claude-code').analysis, 'invalid_description');
  expectNone(analyzeFixture('notes', skill, {}, 'claude-code').analysis, 'description_truncated');
  assert.equal(withCode(analyzeFixture('notes', skill, {}, 'agentskills').analysis, 'invalid_description').length, 1);
  assert.equal(withCode(analyzeFixture('notes', skill, {}, 'codex').analysis, 'invalid_description').length, 1);
});

test("angle_bracket_in_description: a warning, as only Codex's skill-creator validator rejects `<` and `>` (its loader loads the skill)", () => {
  const { analysis, spans } = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: Turns a «<»file> into notes. Use when asked.\n---\n\nBody.\n',
    {},
    'codex',
  );
  assert.equal(expectAt(analysis, 'angle_bracket_in_description', spans)[0].severity, 'warning');
  // Written over several lines, the whole value is marked.
  const folded = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: «>\n  Turns a file into notes\n  when a > b. Use when asked.\n»---\n\nBody.\n',
    {},
    'codex',
  );
  expectAt(folded.analysis, 'angle_bracket_in_description', folded.spans);
  expectNone(
    analyzeFixture(
      'notes',
      '---\nname: notes\ndescription: Turns a <file> into notes. Use when asked.\n---\n',
      {},
      'claude-code',
    ).analysis,
    'angle_bracket_in_description',
  );
});

test('invalid_hooks: Claude Code runs hooks of the shape it knows; a missing command, an unknown type and a misspelt event are reported where they are', () => {
  const { analysis, spans } = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: Drafts notes. Use when asked.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - «type»: command\n  «PostToolUSE»:\n    - hooks:\n        - type: «shell»\n          command: echo hi\n  Stop:\n    - hooks:\n        - type: command\n          command: echo done\n          once: true\n---\n\nBody.\n',
    {},
    'claude-code',
  );
  const found = expectAt(analysis, 'invalid_hooks', spans);
  assert.match(found[0].message, /missing the required key `command`/);
  assert.match(found[1].message, /Did you mean `PostToolUse`\?/);
  assert.match(found[2].message, /"shell", which is not one of "command", "prompt"/);
  // Other profiles do not read hooks.
  expectNone(analyzeFixture('notes', analysis.text, {}, 'agentskills').analysis, 'invalid_hooks');
});

test('argument_hint_mismatch: `$ARGUMENTS` without `argument-hint`, and `argument-hint` with no argument read (Claude Code appends them)', () => {
  const reads = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: Drafts notes. Use when asked.\n---\n\nSummarise «$ARGUMENTS» for the user.\n',
    {},
    'claude-code',
  );
  expectAt(reads.analysis, 'argument_hint_mismatch', reads.spans);
  const hinted = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: Drafts notes. Use when asked.\n«argument-hint»: "[version]"\n---\n\nSummarise the release.\n',
    {},
    'claude-code',
  );
  expectAt(hinted.analysis, 'argument_hint_mismatch', hinted.spans);
  // A hint with `$0`, or with named arguments, reads them; `$ARGUMENTS[1]` with a hint is what Claude Code documents.
  for (const body of ['Summarise $0.', 'Summarise $ARGUMENTS[1].'])
    expectNone(
      analyzeFixture(
        'notes',
        `---\nname: notes\ndescription: Drafts notes. Use when asked.\nargument-hint: "[version]"\n---\n\n${body}\n`,
        {},
        'claude-code',
      ).analysis,
      'argument_hint_mismatch',
    );
  expectNone(
    analyzeFixture(
      'notes',
      '---\nname: notes\ndescription: Drafts notes. Use when asked.\nargument-hint: "[version]"\narguments: [version]\n---\n\nSummarise $version.\n',
      {},
      'claude-code',
    ).analysis,
    'argument_hint_mismatch',
  );
});

test("placeholder_collision: in a shell session's block, `$B$6` is two variables, not a spreadsheet's row", () => {
  const fm = '---\nname: notes\ndescription: Drafts notes. Use when asked.\n---\n\n';
  for (const label of ['console', 'shell-session', 'sh-session', 'shellsession']) {
    const body = `\`\`\`${label}\n$ cp "$B$6" out/\n\`\`\`\n\nIn the sheet, \`=B5*(1+$B«$6»)\`.\n`;
    const { analysis, spans } = analyzeFixture('notes', fm + body, {}, 'claude-code');
    expectAt(analysis, 'placeholder_collision', spans);
  }
});

test('placeholder_collision: `$N` written for awk, a shell script, a regex or a spreadsheet, which Claude Code replaces with an argument', () => {
  const fm = '---\nname: notes\ndescription: Drafts notes. Use when asked.\n---\n\n';
  const body = [
    "Count users: `awk -F, -v OFS=' ' '{ print «$3», $1 }' access.csv | sort -u`.",
    '',
    '```bash',
    'bash -c \'. «$1» && write_ticket "$2"\' _ lib.sh title',
    'gh issue view $0',
    '```',
    '',
    '```',
    '#!/usr/bin/env bash',
    'echo "usage: «$0» <file>"',
    'cat "$1"',
    '```',
    '',
    '```perl',
    'print «$1» if /^(\\w+)/;',
    '```',
    '',
    "Rename with `name.replace(/(\\w+)-(\\w+)/, '«$2»-$1')`.",
    '',
    'Grow revenue by `=B5*(1+$B«$6»)`, and the rate is in `Assumptions!C$9`.',
    '',
    "Prices: $5 a seat; `gh pr view $0`; an escaped `awk '{ print \\$1 }'`; `echo $PWD$1` in prose.",
    '',
    '```sh',
    'cp "$PWD$1" out/',
    '```',
    '',
  ].join('\n');
  const { analysis, spans } = analyzeFixture('notes', fm + body, {}, 'claude-code');
  const found = expectAt(analysis, 'placeholder_collision', spans);
  assert.match(
    found[0].message,
    /replaces `\$3` with the fourth of them, in code too\. Here it is a field of the line, in an awk program: the model would read the argument in its place \(and 1 more `\$N` here\)\. Write `\\\$3`/,
  );
  assert.match(found[1].message, /Here it is the script's own parameter, in a shell script: .* \(and 1 more/);
  assert.match(found[2].message, /replaces `\$0` with the first of them.* in a shell script: .* \(and 1 more/);
  assert.match(found[5].message, /Here it is an absolute row, in a spreadsheet reference: .* \(and 1 more/);
  // The quick fix escapes every `$N` of the stretch, and the text then reads as written.
  const [fix] = fixesFor(analysis, found[0]);
  assert.equal(fix.tier, 'unsafe');
  assert.equal(fix.title, 'Write \\$3 (and the 1 more here)');
  const edited = fix.edits.reduceRight(
    (text, edit) => (edit.kind === 'replace' ? text.slice(0, edit.start) + edit.newText + text.slice(edit.end) : text),
    analysis.text,
  );
  assert.match(edited, /'\{ print \\\$3, \\\$1 \}'/);
  const after = withCode(analyzeFixture('notes', edited, {}, 'claude-code').analysis, 'placeholder_collision');
  assert.deepEqual(
    after.map((item) => item.message),
    found.slice(1).map((item) => item.message),
  );
  // Other clients do not replace `$N`.
  expectNone(analyzeFixture('notes', unmark(fm + body).text).analysis, 'placeholder_collision');
});

test('${CLAUDE_SKILL_DIR}: a path through it names a file of the skill, in prose and in commands', () => {
  const { analysis, spans } = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: Drafts notes. Use when asked.\n---\n\nRun `python ${CLAUDE_SKILL_DIR}/«scripts/draft.py»`.\n\n```bash\npython ${CLAUDE_SKILL_DIR}/«scripts/publish.py»\npython ${CLAUDE_SKILL_DIR}/scripts/here.py\n```\n\nSee [the guide](${CLAUDE_SKILL_DIR}/references/guide.md).\n',
    { 'scripts/here.py': 'print(1)\n', 'references/guide.md': '# Guide\n' },
    'claude-code',
  );
  expectAt(analysis, 'missing_file', spans);
});

test('invalid_openai_yaml: what Codex cannot use in agents/openai.yaml, at its place in that file', () => {
  const { text: metadata, spans } = unmark(
    'interface:\n  display_name: "Notes"\n  icon_large: «"../logo.svg"»\n  brand_color: «"blue"»\n  «defualt_prompt»: "Use $notes"\ndependencies:\n  tools:\n    - type: «"npm"»\n      value: "github"\npolicy:\n  allow_implicit_invocation: «"no"»\n«polcy»: {}\n',
  );
  const { analysis } = analyzeFixture(
    'notes',
    '---\nname: notes\ndescription: Drafts notes. Use when asked.\n---\n\nBody.\n',
    { 'agents/openai.yaml': metadata },
    'codex',
  );
  expectIn(analysis, 'invalid_openai_yaml', path.join(ROOT, 'notes', 'agents', 'openai.yaml'), spans);
  // A file that does not parse is ignored by Codex as a whole; an icon that is not there is a missing file.
  const broken = analyzeFixture('notes', analysis.text, { 'agents/openai.yaml': 'interface: [\n' }, 'codex').analysis;
  assert.match(withCode(broken, 'invalid_openai_yaml')[0].message, /does not parse, so Codex ignores all of it/);
  const icon = analyzeFixture(
    'notes',
    analysis.text,
    { 'agents/openai.yaml': 'interface:\n  icon_small: "./assets/icon.png"\n' },
    'codex',
  ).analysis;
  assert.deepEqual(
    withCode(icon, 'missing_file').map((item) => item.message),
    ['The icon `assets/icon.png` does not exist in the skill folder; Codex shows the skill without it.'],
  );
  expectNone(
    analyzeFixture('notes', analysis.text, { 'agents/openai.yaml': 'interface:\n  display_name: "Notes"\n' }).analysis,
    'invalid_openai_yaml',
  );
});

test("short_description_too_long: Codex's loader does not load a skill whose `metadata.short-description` is over 1,024 characters", () => {
  const long = 'Drafts notes. '.repeat(80).trim();
  const skill = `---\nname: notes\ndescription: Drafts notes. Use when asked.\nmetadata:\n  short-description: «${long}»\n---\n\nBody.\n`;
  const { analysis, spans } = analyzeFixture('notes', skill, {}, 'codex');
  const [found] = expectAt(analysis, 'short_description_too_long', spans);
  assert.equal(found.severity, 'error');
  assert.match(found.message, /is 1119 characters; Codex does not load a skill whose short description is over 1024/);
  // Only Codex reads it.
  expectNone(analyzeFixture('notes', skill, {}, 'agentskills').analysis, 'short_description_too_long');
  // Measured as the loader lists it: each run of white space one space, characters (not UTF-16 units) counted.
  const spaced = `${'é'.repeat(1000)}${' '.repeat(40)}${'😀'.repeat(23)}`;
  expectNone(
    analyzeFixture(
      'notes',
      `---\nname: notes\ndescription: Drafts notes. Use when asked.\nmetadata:\n  short-description: "${spaced}"\n---\n`,
      {},
      'codex',
    ).analysis,
    'short_description_too_long',
  );
});

test('unknown_model (preview): `model` that is neither an alias Claude Code knows nor a Claude model id', () => {
  const analyzed = (model: string) => {
    const { text, spans } = unmark(
      `---\nname: notes\ndescription: Drafts notes. Use when asked.\nmodel: ${model}\n---\n`,
    );
    const file = path.join(ROOT, 'notes', 'SKILL.md');
    const fs = new MemoryFileSystem({ [file]: text });
    return { analysis: analyzeSkill(fs, file, { profile: 'claude-code', preview: true }), spans };
  };
  const other = analyzed('«gpt-4o»');
  assert.match(
    expectAt(other.analysis, 'unknown_model', other.spans)[0].message,
    /`gpt-4o`, which is not a model Claude Code knows\. It takes an alias/,
  );
  const typo = analyzed('«"Sonet[1m]"»');
  const [misspelt] = expectAt(typo.analysis, 'unknown_model', typo.spans);
  assert.deepEqual(
    fixesFor(typo.analysis, misspelt).map((fix) => [fix.title, fix.tier]),
    [['Change to "sonnet[1m]"', 'unsafe']],
  );
  for (const model of [
    'inherit',
    'Opus',
    'opusplan',
    'sonnet[1m]',
    'claude-sonnet-4-5',
    'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'claude-opus-4-1@20250805',
    'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc',
  ])
    expectNone(analyzed(model).analysis, 'unknown_model');
  // A preview rule: off unless asked for; and only Claude Code reads `model`.
  expectNone(analyzeFixture('notes', other.analysis.text, {}, 'claude-code').analysis, 'unknown_model');
});

test('claude-code: `allowed-tools` as a YAML list is one of the forms Claude Code documents; a hint read as a list still is not', () => {
  const marked =
    '---\nname: notes\ndescription: Drafts notes. Use when asked.\nallowed-tools: [Read, "Bash(git add:*)"]\nargument-hint: «[file]»\n---\n\nSummarise $ARGUMENTS.\n';
  const { analysis, spans } = analyzeFixture('notes', marked, {}, 'claude-code');
  expectAt(analysis, 'portable_value', spans);
  assert.equal(withCode(analyzeFixture('notes', marked).analysis, 'portable_value').length, 2);
});

test('invalid_openai_yaml: `policy.products`, which Codex reads, is a list of product names', () => {
  const skill = '---\nname: notes\ndescription: Drafts notes. Use when asked.\n---\n\nBody.\n';
  expectNone(
    analyzeFixture(
      'notes',
      skill,
      { 'agents/openai.yaml': 'policy:\n  products:\n    - codex\n    - CHATGPT\n' },
      'codex',
    ).analysis,
    'invalid_openai_yaml',
  );
  const { text: metadata, spans } = unmark('policy:\n  products: «codex»\n');
  const { analysis } = analyzeFixture('notes', skill, { 'agents/openai.yaml': metadata }, 'codex');
  expectIn(analysis, 'invalid_openai_yaml', path.join(ROOT, 'notes', 'agents', 'openai.yaml'), spans);
});
