import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeFixture, analyzeWithPreview, expectAt, expectNone, frontmatter } from '../../support/fixture';
import { analyzeSkill } from '../../../server/src/analyze';

test('missing_file: Markdown links that do not resolve; a bare mention is unresolved_mention (preview)', () => {
  const { analysis, spans } = analyzeWithPreview(
    'plain',
    `${frontmatter('plain')}\nSee [guide](«references/guide.md») and «scripts/run.sh».\nAlso [ok](references/ok.md#part), [web](https://example.test/x) and [top](#title).\n\n\`\`\`bash\nscripts/in-a-fence.sh\n\`\`\`\n`,
    { 'references/ok.md': '# ok\n' },
  );
  const [link] = expectAt(analysis, 'missing_file', [spans[0]]);
  assert.match(link.message, /The link target `references\/guide\.md` does not exist/);
  const [bare] = expectAt(analysis, 'unresolved_mention', [spans[1]]);
  assert.match(bare.message, /^`scripts\/run\.sh` is named here, but the skill folder does not hold it/);
});

test('missing_file: names with spaces, in a link in angle brackets and in prose; the titles links may carry', () => {
  const { analysis, spans } = analyzeWithPreview(
    'plain',
    [
      frontmatter('plain'),
      "Read [mine](<references/My File.md>), [gone](<«references/Gone File.md»>) and [t](references/ok.md 'Title').",
      'In prose: references/My File.md is there, «references/Your» File.md is not.',
      'In code: `references/My File.md` is there, `«references/Meeting Notes.md»` is not; `scripts/run in.txt` runs.',
      '',
    ].join('\n'),
    { 'references/My File.md': '# mine\n', 'references/ok.md': '# ok\n', 'scripts/run': '#!/bin/sh\n' },
  );
  const [link] = expectAt(analysis, 'missing_file', [spans[0]]);
  assert.match(link.message, /The link target `references\/Gone File\.md` does not exist/);
  // Bare mentions nothing ties to the skill: whose files they are is unsaid.
  const bare = expectAt(analysis, 'unresolved_mention', spans.slice(1));
  assert.match(bare[1].message, /^`references\/Meeting Notes\.md` is named here/);
});

test('path_case_mismatch: found only when case is ignored', () => {
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain')}\nRead [it](«references/Guide.md»).\n`, {
    'references/guide.md': '# g\n',
  });
  const [found] = expectAt(analysis, 'path_case_mismatch', spans);
  assert.equal(found.data?.replacement, 'references/guide.md');
});

test('path_escapes_skill: relative paths out of the folder and absolute paths are not followed', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `${frontmatter('plain')}\nSee [other](«../other/notes.md») and [abs](«/etc/passwd»).\n`,
  );
  expectAt(analysis, 'path_escapes_skill', spans);
});

test("path_escapes_skill: a link to another skill is the library's edge, not a path escaping the skill", () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    [
      frontmatter('plain'),
      'Then run [tdd](../tdd/SKILL.md), see [api](../../common/api/SKILL.md) and [caching](../caching/).',
      'Not skills: [notes](«../tdd/notes.md»), [far](«../../../build-server/»), [up](«../»), [file](«../caching»).',
      '',
    ].join('\n'),
  );
  expectAt(analysis, 'path_escapes_skill', spans);
});

test('path_escapes_skill: a link inside the skill that leads outside it', () => {
  const fixture = analyzeFixture('plain', `${frontmatter('plain')}\nSee [doc](references/doc.md).\n`, {
    'references/real.md': '# r\n',
  });
  fixture.fs.write('/outside/secret.md', 'secret\n');
  fixture.fs.symlink('/skills/plain/references/doc.md', '/outside/secret.md');
  const analysis = analyzeSkill(fixture.fs, '/skills/plain/SKILL.md');
  const found = analysis.diagnostics.filter((item) => item.code === 'path_escapes_skill');
  assert.equal(found.length, 1);
  assert.equal(analysis.text.slice(found[0].span.start, found[0].span.end), 'references/doc.md');
});

test('path_escapes_skill: a linked folder leading outside, and one that stays inside', () => {
  const fixture = analyzeFixture(
    'plain',
    `${frontmatter('plain')}\nSee [out](references/secret.md) and [in](docs/guide.md).\n`,
    { 'shared/guide.md': '# g\n' },
  );
  fixture.fs.write('/outside/secret.md', 'secret\n');
  fixture.fs.symlink('/skills/plain/references', '/outside');
  fixture.fs.symlink('/skills/plain/docs', '/skills/plain/shared');
  const analysis = analyzeSkill(fixture.fs, '/skills/plain/SKILL.md');
  const spans = (code: string) =>
    analysis.diagnostics
      .filter((item) => item.code === code)
      .map((item) => analysis.text.slice(item.span.start, item.span.end));
  assert.deepEqual(spans('path_escapes_skill'), ['references/secret.md']);
  assert.deepEqual(spans('missing_file'), []);
});

test('backslash_path: Windows separators', () => {
  const { analysis, spans } = analyzeFixture('plain', `${frontmatter('plain')}\nSee [doc](«references\\doc.md»).\n`, {
    'references/doc.md': '# d\n',
  });
  const [found] = expectAt(analysis, 'backslash_path', spans);
  assert.equal(found.data?.replacement, 'references/doc.md');
});

test('nested_reference: a referenced file that links on to another', () => {
  const { analysis, spans } = analyzeFixture(
    'plain',
    `${frontmatter('plain')}\nSee [a](«references/a.md») and [c](references/c.md).\n`,
    {
      'references/a.md': 'Then read [b](b.md).\n',
      'references/b.md': '# b\n',
      'references/c.md': 'Back to [skill](../SKILL.md).\n',
    },
  );
  const [found] = expectAt(analysis, 'nested_reference', spans);
  assert.match(found.message, /`references\/b\.md`/);
  expectNone(analysis, 'missing_file');
});
