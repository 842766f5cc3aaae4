import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { nativeFingerprint, shownByVsCode, type Finding } from '../../client/src/nativeFindings';

// VS Code 1.139's own messages, as it reported them on SKILL.md files in the e2e harness (docs/vscode.md).
const at = (line: number, character: number) => ({ start: { line, character } });
const theirs = (message: string, severity: number, line: number, character: number): Finding => ({
  message,
  severity,
  range: at(line, character),
});
const ours = (code: string, message: string, severity: number, line: number, character: number): Finding => ({
  message,
  severity,
  source: 'skillgraph',
  code: { value: code },
  range: at(line, character),
});

test('a Skillgraph finding VS Code shows at the same place, as severe or more, counts as shown', () => {
  const mismatch = theirs("The skill name 'other-name' should match the folder name 'wrong-folder'.", 1, 1, 6);
  assert.equal(shownByVsCode(ours('name_mismatch', '`name` is "other-name" but …', 1, 1, 6), [mismatch]), true);
  assert.equal(
    shownByVsCode(ours('invalid_name', '`name` has an invalid value "Bad_Name".', 0, 1, 6), [
      theirs('Skill name may only contain lowercase letters, numbers, and hyphens.', 0, 1, 6),
    ]),
    true,
  );
  assert.equal(
    shownByVsCode(ours('invalid_name', '`name` must be a string, not null.', 0, 1, 5), [
      theirs("The 'name' attribute must not be empty.", 0, 1, 5),
    ]),
    true,
  );
  assert.equal(
    shownByVsCode(
      ours('invalid_frontmatter_field', '`user-invocable` must be true or false, not a string.', 0, 5, 16),
      [theirs("The 'user-invocable' attribute must be 'true' or 'false'.", 0, 5, 16)],
    ),
    true,
  );
  assert.equal(
    shownByVsCode(
      ours('missing_required_frontmatter', 'The frontmatter is missing the required key `description`.', 1, 0, 0),
      [theirs('Skill should provide a description.', 1, 0, 0)],
    ),
    true,
  );
  // VS Code 1.139 warns of a missing name too (the e2e suite finds it in a real VS Code).
  assert.equal(
    shownByVsCode(
      ours('missing_required_frontmatter', 'The frontmatter is missing the required key `name`.', 1, 0, 0),
      [theirs('Skill should provide a name.', 1, 0, 0)],
    ),
    true,
  );
});

test('kept: more severe than VS Code’s, elsewhere, another finding, or not from VS Code', () => {
  const mismatch = theirs("The skill name 'other-name' should match the folder name 'wrong-folder'.", 1, 1, 6);
  // A stricter profile: Skillgraph's error beside VS Code's warning.
  assert.equal(shownByVsCode(ours('name_mismatch', '…', 0, 1, 6), [mismatch]), false);
  // VS Code's unsupported attribute is a hint: Skillgraph's warning says more.
  assert.equal(
    shownByVsCode(ours('unknown_frontmatter_key', 'Unknown frontmatter key `foo`', 1, 3, 0), [
      theirs("Attribute 'foo' is not supported by VS Code skills. Supported: …", 3, 3, 0),
    ]),
    false,
  );
  assert.equal(
    shownByVsCode(ours('unknown_frontmatter_key', 'Unknown frontmatter key `foo`', 3, 3, 0), [
      theirs("Attribute 'foo' is not supported by VS Code skills. Supported: …", 3, 3, 0),
    ]),
    true,
  );
  assert.equal(shownByVsCode(ours('name_mismatch', '…', 1, 2, 6), [mismatch]), false, 'another place');
  assert.equal(
    shownByVsCode(
      ours('missing_required_frontmatter', 'The frontmatter is missing the required key `name`.', 1, 0, 0),
      [theirs('Skill should provide a description.', 1, 0, 0)],
    ),
    false,
    'the other missing key',
  );
  assert.equal(shownByVsCode(ours('missing_script', '…', 1, 1, 6), [mismatch]), false, 'no VS Code counterpart');
  assert.equal(
    shownByVsCode(ours('name_mismatch', '…', 1, 1, 6), [{ ...mismatch, source: 'markdownlint' }]),
    false,
    'another extension',
  );
});

test('the fingerprint of VS Code’s findings ignores Skillgraph’s own', () => {
  const mismatch = theirs("The skill name 'a' should match the folder name 'b'.", 1, 1, 6);
  const mine = ours('unknown_frontmatter_key', 'x', 1, 3, 0);
  assert.equal(nativeFingerprint([mismatch, mine]), nativeFingerprint([mismatch]));
  assert.notEqual(nativeFingerprint([mismatch]), nativeFingerprint([]));
});
