import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  analyzeFixture,
  analyzeWithPreview,
  expectAt,
  expectNone,
  frontmatter,
  withCode,
  type Fixture,
} from '../../support/fixture';

// Each warning is right where it fires: the cases here were written for these tests after the kinds of wrong
// findings a first run on public libraries showed (a file SKILL.md links, told to be linked; a pattern, a placeholder,
// an example or a file to make, told to exist; a slash command, told to be a path outside the skill).

const skill = (body: string, extra = '') => `${frontmatter('skill', extra)}\n${body}\n`;

test('nested_reference: not for a file SKILL.md already reaches; once per nested file, at the first way to it', () => {
  const direct = analyzeFixture('skill', skill('Read [a](references/a.md) and [b](references/b.md).'), {
    'references/a.md': 'Then [b](b.md).\n',
    'references/b.md': '# b\n',
  });
  expectNone(direct.analysis, 'nested_reference');
  // A bare mention reaches a file as a link does.
  const named = analyzeFixture('skill', skill('Read [a](references/a.md); `references/b.md` has the table.'), {
    'references/a.md': 'Then [b](b.md).\n',
    'references/b.md': '# b\n',
  });
  expectNone(named.analysis, 'nested_reference');

  const { analysis, spans } = analyzeFixture(
    'skill',
    skill(
      'Start with [a](«references/a.md»). Again [a](references/a.md), and [d](references/d.md) and [a](references/a.md).',
    ),
    {
      'references/a.md': 'See [c](c.md) and [c again](./c.md).\n',
      'references/d.md': 'See [c](c.md) and [e](e.md).\n',
      'references/c.md': '# c\n',
      'references/e.md': '# e\n',
    },
  );
  const found = withCode(analysis, 'nested_reference');
  assert.deepEqual(
    found.map((item) => [item.span, item.data?.nested, item.data?.through]),
    [
      [spans[0], ['references/c.md'], 'references/a.md'],
      [found[1].span, ['references/e.md'], 'references/d.md'],
    ],
  );
  assert.match(found[0].message, /SKILL\.md reaches `references\/c\.md` only through `references\/a\.md`/);
});

test('missing_file: brace alternatives and wildcards name several files, each of which must exist', () => {
  const files = { 'scripts/convert.sh': '#!/bin/sh\n', 'scripts/convert.ps1': 'x\n', 'references/api.md': '# a\n' };
  const fine = analyzeFixture(
    'skill',
    skill('Run `scripts/convert.{sh,ps1}` for your shell; the docs are `references/*.md`.'),
    files,
  );
  expectNone(fine.analysis, 'missing_file');
  const { analysis, spans } = analyzeWithPreview(
    'skill',
    skill("Run `«scripts/convert.{sh,bat}»`; pictures are in `«assets/*.png»`. Icons: this skill's `«assets/*.svg»`."),
    files,
  );
  // A pattern some of whose files the skill holds is the skill's; one it holds none of is, when tied to the skill.
  const found = expectAt(analysis, 'missing_file', [spans[0], spans[2]]);
  assert.match(found[0].message, /names files the skill folder does not hold: `scripts\/convert\.bat`\./);
  assert.match(found[1].message, /`assets\/\*\.svg` \(no file matches\)/);
  const [bare] = expectAt(analysis, 'unresolved_mention', [spans[1]]);
  assert.match(bare.message, /^`assets\/\*\.png` is named here, but no file of the skill folder matches it/);
});

test('missing_file: placeholders are not paths', () => {
  const { analysis } = analyzeFixture(
    'skill',
    skill('Write links as [text](url), [more](...), [x](<file>), or [y](path/to/guide.md); see [z]({{ref}}).'),
  );
  expectNone(analysis, 'missing_file');
});

/** Under preview, no finding of a missing path in the body `quiet`; the analysis of the body `found`, to look at. */
function quietOnlyIn(quiet: string, found: string): Fixture {
  const fine = analyzeWithPreview('skill', skill(quiet)).analysis;
  expectNone(fine, 'missing_file');
  expectNone(fine, 'unresolved_mention');
  return analyzeWithPreview('skill', skill(found));
}

test('missing_file, unresolved_mention: a path the prose gives as an example, or tells the agent to make, need not exist', () => {
  const { analysis, spans } = quietOnlyIn(
    'For example, a skill for PDFs might hold:\n\n- `scripts/rotate_pdf.py` turns pages\n- `references/forms.md` for forms\n\nSave this as `references/helper.py`:\n\nIt generates `assets/report.html` as it runs. The [assets](assets/) folder is intentionally empty.',
    // The same paths, given as the skill's own files, must exist.
    'This skill holds:\n\n- `«scripts/rotate_pdf.py»` turns pages\n\nRun `«references/helper.py»`. The script builds a page from `«assets/report.html»`.',
  );
  // Bare mentions: whose files they are is unsaid.
  expectNone(analysis, 'missing_file');
  expectAt(analysis, 'unresolved_mention', spans);
});

test('missing_file, unresolved_mention: a file the prose places in the project need not be in the skill', () => {
  const { analysis, spans } = quietOnlyIn(
    [
      "1. Open the project's scripts/build.sh and check it sets `-euo pipefail`.",
      '2. If the repository has a references/adr folder, read the newest record there.',
      "3. Compare the user's assets/logo.svg with the brand guide.",
      '4. Ask the user for their scripts/deploy.sh when it is not in the repo.',
      '5. In the target repo, scripts/ci/*.yml hold the pipelines.',
    ].join('\n'),
    // The skill's own files are still checked: named plainly, in a link (written relative to SKILL.md), or after a
    // sentence about the project has ended; a link is the skill's, a bare mention's owner is unsaid.
    "Run «scripts/check.sh» on the project. Read [the project's guide](«references/project.md»). The repository is large. Then run «scripts/report.sh».",
  );
  expectAt(analysis, 'missing_file', [spans[1]]);
  expectAt(analysis, 'unresolved_mention', [spans[0], spans[2]]);
});

test('missing_file: names the file of the skill a missing path most likely means', () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill('Read `«references/cleaning.md»`, [the guide](«references/guid.md») and `«scripts/run.sh»`.'),
    { 'references/cleaning-rules.md': '# c\n', 'references/guide.md': '# g\n', 'scripts/tools/run.sh': 'x\n' },
  );
  const found = expectAt(analysis, 'missing_file', spans);
  assert.deepEqual(
    found.map((item) => item.data?.suggestion),
    ['references/cleaning-rules.md', 'references/guide.md', 'scripts/tools/run.sh'],
  );
  assert.match(
    found[0].message,
    /does not exist in the skill folder; did you mean `references\/cleaning-rules\.md`\?$/,
  );
});

test('path_escapes_skill: a slash-command link is a command, not a path; an absolute path still escapes', () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill('Deploy with [deploy](/tools:deploy) or [review](/review); never read [secrets](«/etc/passwd»).'),
  );
  expectAt(analysis, 'path_escapes_skill', spans);
  expectNone(analysis, 'missing_file');
});

test('portable_value: an argument hint YAML reads as a list is a portability warning with its text to quote', () => {
  const { analysis, spans } = analyzeFixture('skill', frontmatter('skill', 'argument-hint: «[optional: date]»\n'));
  const [found] = expectAt(analysis, 'portable_value', spans);
  assert.equal(found.severity, 'warning');
  assert.match(found.message, /read as a YAML list, not as the text `\[optional: date\]`.*Quote the value/);
  assert.equal(found.data?.quoted, '"[optional: date]"');
  expectNone(analysis, 'invalid_frontmatter_field');
});

test('portable_value: what the reference validator does with a tool list depends on its form', () => {
  const block = analyzeFixture('skill', frontmatter('skill', 'allowed-tools:\n  - Read\n  - Bash\n'));
  assert.match(
    withCode(block.analysis, 'portable_value')[0].message,
    /Most clients and the reference validator accept a list/,
  );
  const bracketed = analyzeFixture('skill', frontmatter('skill', 'allowed-tools: [Read, Bash]\n'));
  assert.match(
    withCode(bracketed.analysis, 'portable_value')[0].message,
    /The reference validator rejects the bracket form/,
  );
});

test('invalid_description: a description of white space only is no description', () => {
  const { analysis, spans } = analyzeFixture('skill', `---\nname: skill\ndescription: «"   "»\n---\n`);
  const [found] = expectAt(analysis, 'invalid_description', spans);
  assert.equal(found.severity, 'error');
});
