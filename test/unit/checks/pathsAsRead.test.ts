import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  analyzeAmong,
  analyzeFixture,
  analyzeWithPreview,
  expectAt,
  expectNone,
  frontmatter,
} from '../../support/fixture';
import { expandBraces } from '../../../server/src/checks/match/pathPatterns';

// Paths as a reader reads them: a placeholder, a template, a file the sentence puts elsewhere, an example or words
// with slashes are not files this skill must hold; a link names one file once; an index leads to many files at once.

const skill = (body: string) => `${frontmatter('skill')}\n${body}\n`;

test('expandBraces: only a group with a comma is alternatives; a group without one is a placeholder, kept', () => {
  assert.deepEqual(expandBraces('scripts/convert.{sh,ps1}'), ['scripts/convert.sh', 'scripts/convert.ps1']);
  assert.deepEqual(expandBraces('{baseDir}/references/a.md'), ['{baseDir}/references/a.md']);
  assert.deepEqual(expandBraces('references/{lang}-{a,b}.md'), ['references/{lang}-a.md', 'references/{lang}-b.md']);
  assert.equal(expandBraces('references/{a.md'), undefined);
});

test('missing_file: a placeholder root or name stands for a path the reader puts in; a template needs one variant', () => {
  const files = { 'references/setup-linux.md': '# l\n', 'references/guide.md': '# g\n' };
  const fine = analyzeFixture(
    'skill',
    skill(
      [
        'Read [the guide]({baseDir}/references/guide.md) and [notes]({root}/references/notes.md).',
        'Per platform, read `references/setup-{platform}.md`; new ones go in `references/{name}.md`.',
        'Then <skill>/references/guide.md, ${PACK}/scripts/run.sh and `scripts/{script-name}.{ext}`.',
      ].join('\n'),
    ),
    files,
  );
  expectNone(fine.analysis, 'missing_file');
  // A template with fixed text and no variant in the folder is reported as a pattern, never as the file it spells.
  const tied = analyzeFixture('skill', skill("Read this skill's `«references/build-{platform}.md»`."), files);
  const [found] = expectAt(tied.analysis, 'missing_file', tied.spans);
  assert.match(found.message, /`references\/build-\{platform\}\.md` \(no file matches\)\.$/);
  assert.doesNotMatch(found.message, /build-platform\.md/);
  // Named bare, whose files it stands for is unsaid.
  const { analysis, spans } = analyzeWithPreview('skill', skill('Read `«references/build-{platform}.md»`.'), files);
  expectNone(analysis, 'missing_file');
  const [bare] = expectAt(analysis, 'unresolved_mention', spans);
  assert.match(
    bare.message,
    /^`references\/build-\{platform\}\.md` is named here, but no file of the skill folder matches it/,
  );
});

test('missing_file: a file the sentence puts in a plugin, at a root above the skill or in another skill', () => {
  const quiet = [
    'Run `scripts/lint.sh` in the lint plugin.',
    'Run `scripts/release.sh` at the repository root.',
    "Use the deploy plugin's `scripts/deploy.sh`.",
    'The other skill keeps `references/style.md`.',
    'Append findings to `references/catalog.md` in the `code-review` skill.',
    'See `references/schema.md` in `data-contracts` for the fields.',
    '- `scripts/shared.py` available in this plugin',
    'Then `${CLAUDE_PLUGIN_ROOT}/scripts/hook.sh`, ${TOOLS_PLUGIN_ROOT}/references/a.md and $REPO_ROOT/assets/b.png.',
  ].join('\n\n');
  const elsewhere = analyzeWithPreview('skill', skill(quiet)).analysis;
  expectNone(elsewhere, 'missing_file');
  expectNone(elsewhere, 'unresolved_mention');
  // Placed in this very skill, it is the skill's own; named plainly, whose it is is unsaid.
  const { analysis, spans } = analyzeWithPreview(
    'skill',
    skill('Run `«scripts/own.sh»` in this skill. The plugin is large. Then read `«references/own.md»`.'),
  );
  expectAt(analysis, 'missing_file', [spans[0]]);
  expectAt(analysis, 'unresolved_mention', [spans[1]]);
});

// A link to another skill is the library's, not this rule's (paths.test.ts).
test('path_escapes_skill: says where a path out of the skill leads and how to name it portably', () => {
  const { analysis, spans } = analyzeAmong(
    'lint/skills/format',
    skill('Read [notes](«../review/references/notes.md»), run [c](«../../scripts/c.sh»).'),
    {},
  );
  const found = expectAt(analysis, 'path_escapes_skill', spans);
  assert.match(found[0].message, /into `review\/` beside it; .* copy the file into this skill, or name the skill/);
  assert.match(
    found[1].message,
    /to `scripts\/c\.sh` beside the `skills\/` folder .* `\$\{CLAUDE_PLUGIN_ROOT\}\/scripts\/c\.sh`/,
  );
});

/**
 * Under preview, no finding of a missing path in the body `quiet` (it is not meant to exist), and one at each marked
 * path of the body `found`: `unresolved_mention`, as nothing there ties a bare path to the skill.
 */
function mentionFoundOnlyIn(quiet: string, found: string): void {
  const fine = analyzeWithPreview('skill', skill(quiet)).analysis;
  expectNone(fine, 'missing_file');
  expectNone(fine, 'unresolved_mention');
  const { analysis, spans } = analyzeWithPreview('skill', skill(found));
  expectNone(analysis, 'missing_file');
  expectAt(analysis, 'unresolved_mention', spans);
}

test('missing_file, unresolved_mention: words with slashes in running prose are not paths; a name in code or with an extension is', () => {
  mentionFoundOnlyIn(
    'Keep the assets/code split, and route scripts/dispatch/KV calls through one queue.',
    'Run `«scripts/dispatch»`, then «scripts/dispatch/kv.py» and «scripts/tools»/; «references/My» Notes.md too.',
  );
});

test('missing_file, unresolved_mention: an example, a file to make, a file the prose says may be missing', () => {
  mentionFoundOnlyIn(
    [
      '**Example**: `scripts/rotate.py` turns pages.',
      'Save `references/summary.md` as the run ends.',
      'Create `references/new.md` for the notes.',
      'The report is written to `assets/report.html`.',
      'Initialize the `references/state.md` record first.',
      'Run `python scripts/quick_check.py <dir>` if available.',
      'If `references/house-style.md` does not exist, use the defaults.',
      'No `references/fallback.md` present means no fallback.',
      'The repo already has `scripts/bootstrap.sh`, so call it.',
      '**Bad:**\n\n- `references/../secrets.md` leaves the folder',
      'The container option creates `Dockerfile` + `scripts/serve.py`.',
      'Add more checks to `scripts/checks/` and implement probes in `scripts/probes/*.py`.',
    ].join('\n\n'),
    [
      'The run reads `«scripts/rotate.py»`. If `«scripts/setup.sh»` fails, stop. Read `«references/summary.md»`.',
      // Into one file, "add" changes the file, which must be there.
      'Add a step to `«scripts/deploy.sh»`.',
    ].join('\n\n'),
  );
});

test('unresolved_mention: emphasis around a path is Markdown, not a wildcard', () => {
  const { analysis, spans } = analyzeWithPreview(
    'skill',
    skill('### **scripts/** - the tools\n\nThe notes are *«references/*.md»* and **«scripts/run.py»**.'),
  );
  expectNone(analysis, 'missing_file');
  const found = expectAt(analysis, 'unresolved_mention', spans);
  assert.match(found[0].message, /^`references\/\*\.md` is named here, but no file of the skill folder matches it/);
});

test('missing_file: a link whose text names a path is one mention of its target, never two findings', () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill('Read [references/a.md](«references/a.md») and [`scripts/run.py`](«../../scripts/run.py»).'),
  );
  expectAt(analysis, 'missing_file', [spans[0]]);
  expectAt(analysis, 'path_escapes_skill', [spans[1]]);
});

test('nested_reference: one finding per index, at its mention, naming the files reached only through it', () => {
  const names = ['a', 'b', 'c', 'd', 'e'];
  const files: Record<string, string> = {
    'references/index.md': names.map((name) => `- [${name}](${name}.md)`).join('\n'),
  };
  for (const name of names) files[`references/${name}.md`] = `# ${name}\n`;
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill('Start at [the index](«references/index.md»); [again](references/index.md).'),
    files,
  );
  const [found] = expectAt(analysis, 'nested_reference', spans);
  assert.match(
    found.message,
    /^SKILL\.md reaches `references\/a\.md`, `references\/b\.md`, `references\/c\.md` and 2 more only through `references\/index\.md`; .* link them from SKILL\.md directly\.$/,
  );
  assert.deepEqual(
    found.data?.nested,
    names.map((name) => `references/${name}.md`),
  );
});

test('nested_reference: a file SKILL.md names as ./references/x.md, in a table cell or after a placeholder root', () => {
  const { analysis } = analyzeFixture(
    'skill',
    skill(
      [
        'Start at [the index](references/index.md); then `./references/a.md` and ./references/b.md.',
        '',
        '| File | When |',
        '|---|---|',
        '|references/c.md| setup |',
        '| [d]({baseDir}/references/d.md) | later |',
      ].join('\n'),
    ),
    {
      'references/index.md': '[a](a.md) [b](./b.md) [c](c.md) [d](d.md)\n',
      'references/a.md': '# a\n',
      'references/b.md': '# b\n',
      'references/c.md': '# c\n',
      'references/d.md': '# d\n',
    },
  );
  expectNone(analysis, 'nested_reference');
  expectNone(analysis, 'missing_file');
});

test('nested_reference: a folder SKILL.md names reaches the files right in it; a pattern, the files it matches', () => {
  const files = {
    'references/index.md': '[a](a.md) and [c](deep/c.md)\n',
    'references/a.md': '# a\n',
    'references/deep/c.md': '# c\n',
  };
  const analyzed = (body: string) =>
    analyzeFixture('skill', skill(`Start at [the index](«references/index.md»). ${body}`), files);
  expectNone(analyzed('Browse [references/](references/) and `references/deep`.').analysis, 'nested_reference');
  expectNone(analyzed('Topics are `references/{topic}.md`, `references/deep/*.md`.').analysis, 'nested_reference');
  // Not the files of a subfolder, nor those of another extension.
  const folder = analyzed('Browse [references/](references/).');
  const [throughFolder] = expectAt(folder.analysis, 'nested_reference', folder.spans);
  assert.deepEqual(throughFolder.data?.nested, ['references/deep/c.md']);
  const pattern = analyzed('Topics are `references/{topic}.txt`.');
  const [throughPattern] = expectAt(pattern.analysis, 'nested_reference', pattern.spans);
  assert.deepEqual(throughPattern.data?.nested, ['references/a.md', 'references/deep/c.md']);
});
