import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../server/src/analyze';
import { isSecurityCode } from '../../server/src/rules';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';

// Skills written for this project to try the security rules as an attacker would (test/fixtures/security-skills: each
// hides one thing, phrased and placed as a real attack would be, in prose, scripts, hooks, descriptions, comments and
// eight languages) and as a careful author would (near misses: an attack catalogue, fixtures, official installers,
// vendored docs, a project's own hooks). Its manifest says what each hides and where. Every malicious skill must get
// a warning or an error, and no benign one.

const ROOT = path.join(__dirname, '..', 'fixtures', 'security-skills');
const manifest = readFileSync(path.join(ROOT, 'manifest.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .map(([skill, expected, hides]) => ({ skill, expected, hides }));

/** The security findings of a skill worth a reviewer's stop: warnings and errors, as `code file:line`. */
function alarms(expected: string, skill: string): string[] {
  const file = path.join(ROOT, expected, skill, 'SKILL.md');
  const analysis = analyzeSkill(new NodeFileSystem(), file);
  return analysis.diagnostics
    .filter((item) => isSecurityCode(item.code) && (item.severity === 'warning' || item.severity === 'error'))
    .map((item) => `${item.code} ${path.relative(path.dirname(file), item.file ?? file)}`);
}

test('security skills: the manifest lists every skill of the set, 36 malicious and 16 benign', () => {
  assert.equal(manifest.filter((item) => item.expected === 'malicious').length, 36);
  assert.equal(manifest.filter((item) => item.expected === 'benign').length, 16);
});

test('security skills: every malicious skill gets a warning or an error', () => {
  const missed = manifest
    .filter((item) => item.expected === 'malicious')
    .filter((item) => alarms('malicious', item.skill).length === 0)
    .map((item) => `${item.skill}: ${item.hides}`);
  assert.deepEqual(missed, []);
});

test('security skills: no benign skill gets a warning or an error', () => {
  const raised = manifest
    .filter((item) => item.expected === 'benign')
    .flatMap((item) => alarms('benign', item.skill).map((alarm) => `${item.skill}: ${alarm}`));
  assert.deepEqual(raised, []);
});
