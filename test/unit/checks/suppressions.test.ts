import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnostic } from '../../../server/src/checks/engine/diagnostic';
import { similarDescriptions } from '../../../server/src/library/libraryChecks';
import { libraryFindingsIn } from '../../../server/src/rules/libraryFindings';
import { aip03, analyzeFixture, expectAt, expectNone, frontmatter, withCode } from '../../support/fixture';

const skill = (body: string, extra = '') => `${frontmatter('skill', extra)}\n${body}\n`;

test('Markdown: disable-next-line silences the named code on the line below, and only there', () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill(
      '<!-- skillgraph-disable-next-line missing_file -- generated at build time -->\nRead [built](references/built.md).\nRead [other](«references/other.md»).',
    ),
  );
  expectAt(analysis, 'missing_file', spans);
  expectNone(analysis, 'unused_suppression');
});

test('Markdown: disable … enable silences a code between them; several codes, or all of them', () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill(
      [
        '<!-- skillgraph-disable missing_file, path_escapes_skill -->',
        'Read [a](references/a.md) and [b](../other/b.md).',
        '<!-- skillgraph-enable missing_file -->',
        'Read [c](«references/c.md») and [d](../other/d.md).',
        '<!-- skillgraph-disable -->',
        'Read [e](references/e.md).',
      ].join('\n'),
    ),
  );
  expectAt(analysis, 'missing_file', spans);
  expectNone(analysis, 'path_escapes_skill');
  expectNone(analysis, 'unused_suppression');
});

test('YAML: disable-line on the line of a finding in the frontmatter and in a procedure', () => {
  const { analysis } = analyzeFixture(
    'skill',
    `---\nname: skill\ndescription: Does things.\nwebsite: https://example.test  # skillgraph-disable-line unknown_frontmatter_key\n---\n`,
  );
  expectNone(analysis, 'unknown_frontmatter_key');
  expectNone(analysis, 'unused_suppression');
  const procedure = [
    'purpose: Test.',
    'steps:',
    '  - name: fetch',
    '    description: Fetch.',
    '    script: scripts/fetch.py  # skillgraph-disable-line missing_script -- written by the setup step',
    '  - name: load',
    '    description: Load.',
    '    script: «scripts/load.py»',
    '',
  ].join('\n');
  const { skillMd, files } = aip03('skill', procedure);
  const aip = analyzeFixture('skill', skillMd, files);
  expectAt(aip.analysis, 'missing_script', aip.spans);
  expectNone(aip.analysis, 'unused_suppression');
});

test('unused_suppression: a suppression that silences nothing, or names no rule, is itself a finding', () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill(
      '<!-- skillgraph-disable-next-line «missing_file» -->\nAll good here.\n<!-- skillgraph-disable-next-line «misssing_file» -->\nRead [x](references/x.md).\n«<!-- skillgraph-disable-next-line -->»\nNothing.',
    ),
  );
  const found = expectAt(analysis, 'unused_suppression', spans);
  assert.match(found[0].message, /No `missing_file` finding is reported on the lines this suppression covers/);
  assert.match(found[1].message, /No rule has the code `misssing_file`; did you mean `missing_file`\?/);
  assert.equal(found[1].data?.suggestion, 'missing_file');
  // The misspelt code suppresses nothing: the finding below it stays.
  assert.equal(withCode(analysis, 'missing_file').length, 1);
});

test("a library code is the library's to judge: the analysis neither uses it nor calls it unused; the library's pass does", () => {
  const { analysis, spans } = analyzeFixture(
    'skill',
    skill(
      [
        '<!-- skillgraph-disable-next-line similar_descriptions, missing_file -->',
        'Read [a](references/a.md).',
        '<!-- skillgraph-disable-next-line «shadowed_skill» -->',
        'Read.',
      ].join('\n'),
    ),
  );
  // The analysis: missing_file silenced; neither library code reported unused.
  expectNone(analysis, 'missing_file');
  expectNone(analysis, 'unused_suppression');
  // The library's pass: a finding the first comment covers is silenced, the second comment silences nothing.
  const text = analysis.source;
  const at = text.indexOf('Read [a]');
  const finding = diagnostic(similarDescriptions, analysis.file, { start: at, end: at + 4 }, 'alike');
  const kept = libraryFindingsIn(analysis.file, text, [finding], { strict: false, preview: false, severities: {} });
  assert.deepEqual(
    kept.map((item) => [item.code, text.slice(item.span.start, item.span.end)]),
    [['unused_suppression', text.slice(spans[0].start, spans[0].end)]],
  );
  // Off in the skill's settings: nothing of the library's is reported.
  assert.deepEqual(
    libraryFindingsIn(analysis.file, text, [finding], {
      strict: false,
      preview: false,
      severities: { similar_descriptions: 'off', unused_suppression: 'off' },
    }),
    [],
  );
});
