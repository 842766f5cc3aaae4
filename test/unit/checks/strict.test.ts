import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill } from '../../../server/src/analyze';
import { applyChanges } from '../../../server/src/fixes/chooseFixes';
import type { TextChange } from '../../../server/src/checks/engine/fix';
import { fixesFor } from '../../../server/src/fixes/skillFixes';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { expectAt, expectNone, unmark, withCode } from '../../support/fixture';

/** A skill analysed with `strict` on or off. */
function analyzed(marked: string, strict: boolean, profile?: 'claude-code', bom = false) {
  const { text, spans } = unmark(marked);
  const file = path.join('/skills/tool', 'SKILL.md');
  // A byte-order mark is no character of the text the spans count.
  const fs = new MemoryFileSystem({ [file]: bom ? `\ufeff${text}` : text });
  return { analysis: analyzeSkill(fs, file, { strict, ...(profile ? { profile } : {}) }), spans };
}

test('restricted_yaml: strict reports flow collections, anchors, aliases and tags, as the reference validator reads', () => {
  const marked = [
    '---',
    'name: tool',
    'description: Does things. Use when testing.',
    'allowed-tools: «[Read, Bash]»',
    'metadata: «{team: x}»',
    'license: &lic «MIT»',
    'compatibility: «*lic»',
    'x-note: !!str «tagged»',
    '---',
    '',
  ].join('\n');
  const { analysis, spans } = analyzed(marked, true);
  const found = expectAt(analysis, 'restricted_yaml', spans);
  assert.deepEqual(
    found.map((item) => item.severity),
    ['error', 'error', 'error', 'error', 'error'],
  );
  // A list in brackets and a map in braces have a safe fix: the same entries in block style.
  const fixed = (index: number) => {
    const [fix] = fixesFor(analysis, found[index]);
    assert.equal(fix.tier, 'safe');
    return applyChanges(analysis.text, fix.edits as TextChange[]);
  };
  assert.match(fixed(0), /\nallowed-tools:\n {2}- Read\n {2}- Bash\nmetadata: \{team: x\}\n/);
  assert.match(fixed(1), /\nmetadata:\n {2}team: x\nlicense/);
  // An anchor, an alias and a tag say something no other writing says: no fix.
  for (const index of [2, 3, 4]) assert.deepEqual(fixesFor(analysis, found[index]), []);
  assert.match(found[2].message, /An anchor \(`&lic`\)/);
  assert.match(found[3].message, /An alias \(`\*lic`\)/);
  assert.match(found[4].message, /A tag \(`!!str`\)/);
  // Without strict, clients read all of it.
  expectNone(analyzed(marked, false).analysis, 'restricted_yaml');
});

test('strict: keys only the specification has, a byte-order mark, whatever the profile; the default stays what clients accept', () => {
  const marked = '---\nname: tool\ndescription: Does things.\n«when_to_use»: Always.\n---\n';
  const strict = analyzed(marked, true, 'claude-code', true);
  const [unknown] = expectAt(strict.analysis, 'unknown_frontmatter_key', strict.spans);
  assert.equal(unknown.severity, 'error');
  assert.match(unknown.message, /for the reference validator/);
  assert.equal(withCode(strict.analysis, 'utf8_bom')[0].severity, 'error');
  const lenient = analyzed(marked, false, 'claude-code', true);
  expectNone(lenient.analysis, 'unknown_frontmatter_key');
  assert.equal(withCode(lenient.analysis, 'utf8_bom')[0].severity, 'information');
});
