import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { aip03, analyzeFixture, analyzeWithPreview, expectAt, expectNone, frontmatter } from '../../support/fixture';

// Whose file a missing path is: a link, a step's path, a path through `${CLAUDE_SKILL_DIR}`, one the sentence ties
// to this skill and one with a file of the skill near it are the skill's (`missing_file`); any other bare path in a
// body's prose may be the project's or the repository's (`unresolved_mention`, preview). Placement words make a path
// one not meant to exist in the skill at all.

const skill = (body: string) => `${frontmatter('skill')}\n${body}\n`;

/** Under preview, neither finding of a missing path in the body `quiet`; the analysis of the body `found`. */
function quietThenFound(quiet: string, found: string) {
  const fine = analyzeWithPreview('skill', skill(quiet)).analysis;
  expectNone(fine, 'missing_file');
  expectNone(fine, 'unresolved_mention');
  return analyzeWithPreview('skill', skill(found));
}

test('unresolved_mention: a bare path nothing ties to the skill, under preview only; a link stays missing_file', () => {
  const body = skill('Run `«scripts/release.sh»` once the notes are written; see [the notes](«references/notes.md»).');
  const plain = analyzeFixture('skill', body);
  expectNone(plain.analysis, 'unresolved_mention');
  expectAt(plain.analysis, 'missing_file', [plain.spans[1]]);
  const { analysis, spans } = analyzeWithPreview('skill', body);
  expectAt(analysis, 'missing_file', [spans[1]]);
  const [found] = expectAt(analysis, 'unresolved_mention', [spans[0]]);
  assert.equal(found.severity, 'information');
  assert.equal(found.data?.path, 'scripts/release.sh');
  assert.match(
    found.message,
    /^`scripts\/release\.sh` is named here, but the skill folder does not hold it: if it is a file of the skill, add it; if it is the project's or the repository's, say so/,
  );
});

test('missing_file: a bare path with a file of the skill near it is the skill\'s, with a "did you mean"', () => {
  const { analysis, spans } = analyzeWithPreview(
    'skill',
    skill(
      [
        'Read `«references/gide.md»` and `«references/cleaning.md»`, run `«scripts/run.sh»`.',
        'Open `«assets/favicon_pro.html»` for the paid page.',
        // No separator after the shorter name, or another extension: no variant of it.
        'Then `«assets/faviconpro.html»` and `«assets/favicon_pro.svg»`.',
        // Another skill's SKILL.md is not this one's moved.
        'Load `«references/review/SKILL.md»` for reviews.',
      ].join('\n\n'),
    ),
    {
      'references/guide.md': '# g\n',
      'references/cleaning-rules.md': '# c\n',
      'scripts/tools/run.sh': 'x\n',
      'assets/favicon.html': '<html></html>\n',
    },
  );
  const found = expectAt(analysis, 'missing_file', spans.slice(0, 4));
  assert.deepEqual(
    found.map((item) => item.data?.suggestion),
    ['references/guide.md', 'references/cleaning-rules.md', 'scripts/tools/run.sh', 'assets/favicon.html'],
  );
  assert.match(
    found[3].message,
    /^The file `assets\/favicon_pro\.html` does not exist in the skill folder; did you mean `assets\/favicon\.html`\?$/,
  );
  expectAt(analysis, 'unresolved_mention', spans.slice(4));
});

test("missing_file: a sentence that ties a path to this skill, or ${CLAUDE_SKILL_DIR}, makes it the skill's", () => {
  const { analysis, spans } = analyzeWithPreview(
    'skill',
    skill(
      [
        "Run this skill's `«scripts/build.py»` first.",
        'Read `«references/api.md»`, relative to this skill.',
        'The helper `«scripts/lint.py»` is bundled with this skill.',
        'Run `«scripts/own.sh»` in this skill.',
        '```bash\npython ${CLAUDE_SKILL_DIR}/«scripts/gen.py»\n```',
        'Then read $CLAUDE_SKILL_DIR/«references/style.md».',
        // "The skill" alone is not this one: a skill that writes skills calls the one it writes that.
        'The skill runs `«scripts/check.py»`.',
      ].join('\n\n'),
    ),
  );
  expectAt(analysis, 'missing_file', spans.slice(0, 6));
  expectAt(analysis, 'unresolved_mention', spans.slice(6));
});

test("missing_file: a procedure step's text names the step's own files", () => {
  const procedure = [
    'purpose: Test.',
    'trigger_when:',
    '  - Testing.',
    'steps:',
    '  - name: read',
    "    description: Reads «references/notes.md» first, then the project's scripts/ci.sh.",
    '',
  ].join('\n');
  const { skillMd, files } = aip03('skill', procedure);
  const { analysis, spans } = analyzeWithPreview('skill', skillMd, files);
  expectAt(analysis, 'missing_file', spans);
  expectNone(analysis, 'unresolved_mention');
});

test('missing_file, unresolved_mention: placement words make a path a file to make or one of the repository', () => {
  const { analysis, spans } = quietThenFound(
    [
      'Depending on the request, produce one or more of:\n\n- `assets/report.html` for the web\n- `references/summary.md`',
      '## Outputs\n\n- `assets/deck.html` the slides\n\n| File | What |\n|---|---|\n| `assets/chart.png` | the chart |',
      '## Steps\n\nRun `scripts/release.sh` from the repo root.',
      'When editing this skills pack, update `references/catalog.md`.',
      'After a change, run `scripts/sync.py --skill skills/flow`.',
    ].join('\n\n'),
    [
      'Depending on the request, use one or more of:\n\n- `«assets/report.html»` for the web',
      'Produce one or more of:\n\n- a page created via `«scripts/pack.py»`',
      '## Inputs\n\n- `«assets/deck.html»` the slides',
      '## Outputs\n\nThe page uses `«assets/style.css»`.',
      'Run `«scripts/release.sh»` from the notes folder.',
      'When editing the notes, update `«references/catalog.md»`.',
      'After a change, run `«scripts/sync.py» --skill «references/flow»`.',
    ].join('\n\n'),
  );
  expectNone(analysis, 'missing_file');
  expectAt(analysis, 'unresolved_mention', spans);
});

test('missing_file, unresolved_mention: a path the prose says is absent is checked for, not used', () => {
  const { analysis, spans } = quietThenFound(
    [
      'Report a gap when `references/policy.md` is absent.',
      '| Case | Action |\n|---|---|\n| `references/owners.md` is missing | ask the user |',
      'Warn if `assets/logo.svg` is missing from the bundle.',
    ].join('\n\n'),
    '`«references/policy.md»` is missing its summary: add one.',
  );
  expectNone(analysis, 'missing_file');
  expectAt(analysis, 'unresolved_mention', spans);
  // Tied to the skill, the same sentence is a use of the skill's file.
  const tied = analyzeWithPreview('skill', skill("This skill's `«references/policy.md»` is missing its summary."));
  expectAt(tied.analysis, 'missing_file', tied.spans);
});

test('missing_file: a file a command "adds" is one it makes; a file added to something else must exist', () => {
  // Near files of the skill (`scripts/run_evals.py`) make both mentions the skill's: only the verb decides.
  const { analysis, spans } = analyzeWithPreview(
    'skill',
    skill(
      [
        'Use `--kind container` (adds `Dockerfile` + `scripts/run.py`) for a sandbox.',
        'The scaffold added `scripts/run.py`.',
        'Add `«scripts/run.py»` to your CI.',
      ].join('\n\n'),
    ),
    { 'scripts/run_evals.py': 'x\n' },
  );
  const [found] = expectAt(analysis, 'missing_file', spans);
  assert.equal(found.data?.suggestion, 'scripts/run_evals.py');
  expectNone(analysis, 'unresolved_mention');
});
