import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../../server/src/analyze';
import { IncrementalState } from '../../../server/src/incremental/incrementalState';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { CORPUS } from '../../support/corpus';
import { asMeta } from '../../support/formatParts';

// The language server keeps a MetaSkill step read from a YAML node the chunk
// cache kept, moving its spans and its templates' offsets: after any edit
// the plan must equal a fresh reading of the same text, and only the steps
// whose text changed are read again.

const DIR = path.join(CORPUS, 'metaskill', 'opensquilla-opensquilla');

/** A plan as the checks and features read it, without the YAML nodes (compared by the chunk tests). */
function planOf(analysis: SkillAnalysis): unknown {
  return JSON.parse(JSON.stringify(asMeta(analysis).metaPlan, (key, value) => (key === 'node' ? undefined : value)));
}

test('kept MetaSkill steps equal a fresh reading after edits above, inside and between them; only an edited step is read again', () => {
  const fs = new NodeFileSystem();
  const skills = readdirSync(DIR).filter(
    (name) =>
      existsSync(path.join(DIR, name, 'SKILL.md')) &&
      /^composition:/m.test(readFileSync(path.join(DIR, name, 'SKILL.md'), 'utf8')),
  );
  assert.ok(skills.length >= 5, `${skills.length} MetaSkills`);
  let kept = 0;
  for (const name of skills) {
    const file = path.join(DIR, name, 'SKILL.md');
    const original = readFileSync(file, 'utf8');
    const caches = { incremental: new IncrementalState() };
    let last = analyzeSkill(fs, file, { text: original, ...caches });
    const ids = [...original.matchAll(/^ {4}- id: (\S+)$/gm)].map((match) => match[1]);
    const middle = ids[Math.floor(ids.length / 2)];
    const versions: [string, (text: string) => string, number][] = [
      // A longer description: every step moves down, none is read again.
      ['text above the steps', (text) => text.replace(/^description: /m, 'description: Added words. '), 0],
      // An id one letter longer: that step is read again, the later ones move by one.
      ['an edited step', (text) => text.replace(`    - id: ${middle}\n`, `    - id: ${middle}x\n`), 1],
      ['the same text', (text) => text, 0],
      // A step's text shrinks, back to the original id.
      ['the edit undone', (text) => text.replace(`    - id: ${middle}x\n`, `    - id: ${middle}\n`), 1],
    ];
    let text = original;
    for (const [label, change, changed] of versions) {
      text = change(text);
      const analysis = analyzeSkill(fs, file, { text, ...caches });
      assert.deepEqual(planOf(analysis), planOf(analyzeSkill(fs, file, { text })), `${name}: ${label}`);
      assert.deepEqual(analysis.diagnostics, analyzeSkill(fs, file, { text }).diagnostics, `${name}: ${label}`);
      const before = asMeta(last).metaPlan!.steps;
      const after = asMeta(analysis).metaPlan!.steps;
      assert.equal(after.length, before.length);
      assert.equal(
        after.filter((step) => !before.includes(step)).length,
        changed,
        `${name}: ${label}: steps read again`,
      );
      kept += after.length - changed;
      last = analysis;
    }
  }
  assert.ok(kept > 500, `${kept} steps kept`);
});

test('a step without an id is kept only where it stood: its id is its position', () => {
  const fs = new NodeFileSystem();
  const file = path.join(DIR, 'meta-short-drama', 'SKILL.md');
  const original = readFileSync(file, 'utf8');
  const ids = [...original.matchAll(/^ {4}- id: (\S+)$/gm)].map((match) => match[1]);
  // The tenth step loses its id; then the first step is removed, so it stands one place earlier.
  const unnamed = original.replace(`    - id: ${ids[9]}\n`, '    -\n');
  const first = unnamed.indexOf(`    - id: ${ids[0]}\n`);
  const removed = unnamed.slice(0, first) + unnamed.slice(unnamed.indexOf(`    - id: ${ids[1]}\n`));
  const caches = { incremental: new IncrementalState() };
  const before = asMeta(analyzeSkill(fs, file, { text: unnamed, ...caches })).metaPlan!.steps;
  const after = analyzeSkill(fs, file, { text: removed, ...caches });
  assert.deepEqual(planOf(after), planOf(analyzeSkill(fs, file, { text: removed })));
  const step = asMeta(after).metaPlan!.steps[8];
  assert.equal(step.id, 'steps[8]');
  assert.ok(!before.includes(step), 'read again at its new position');
  assert.ok(before.includes(asMeta(after).metaPlan!.steps[9]), 'a named step below it is kept');
});

test('a key repeated inside a step is reported as a fresh reading reports it while it is typed and removed; one in a step left alone stays reported', () => {
  const fs = new NodeFileSystem();
  const file = path.join(DIR, 'meta-short-drama', 'SKILL.md');
  const original = readFileSync(file, 'utf8');
  const ids = [...original.matchAll(/^ {4}- id: (\S+)$/gm)].map((match) => match[1]);
  // The line after a step's id, written twice: the same key twice in one mapping, the last value (the same) kept.
  const repeatLine = (text: string, id: string) => {
    const match = new RegExp(`^ {4}- id: ${id}\\n( {6}[\\w-]+: [^\\n]*\\n)`, 'm').exec(text);
    assert.ok(match, `step ${id} has a key line after its id`);
    return text.replace(match[0], `${match[0]}${match[1]}`);
  };
  const early = repeatLine(original, ids[3]);
  const middle = ids[Math.floor(ids.length / 2)];
  const caches = { incremental: new IncrementalState() };
  const repeated = (analysis: SkillAnalysis) =>
    analysis.diagnostics
      .filter((item) => item.code === 'duplicate_key')
      .map((item) => analysis.text.slice(item.span.start, item.span.end + 40).split('\n')[0]);
  for (const [label, text, count] of [
    ['one step with a repeated key', early, 1],
    ['a second one typed', repeatLine(early, middle), 2],
    ['the second removed', early, 1],
    ['the first removed too', original, 0],
  ] as const) {
    const analysis = analyzeSkill(fs, file, { text, ...caches });
    const fresh = analyzeSkill(fs, file, { text });
    assert.equal(repeated(analysis).length, count, label);
    assert.deepEqual(repeated(analysis), repeated(fresh), label);
    assert.deepEqual(analysis.diagnostics, fresh.diagnostics, label);
  }
});
