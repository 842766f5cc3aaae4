import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../server/src/analyze';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { corpusAndExampleSkills, skillFilesUnder } from '../support/corpus';
import { writeGovernanceLibrary } from '../support/governanceLibrary';

// The library graph analyses a skill for its model only (`modelOnly`: the checks that only find problems are not
// run). On every skill of the corpus, the examples and the governance library, that model is the one a full analysis
// makes: same format, name, steps (with their places), edges, external inputs and procedure block.

/** An AIP skill's procedure as read; nothing for a skill of another format. */
const procedureOf = (analysis: SkillAnalysis) => ('procedure' in analysis ? analysis.procedure?.value : undefined);

test('an analysis for the model only makes the model a full analysis makes, on every skill of the corpus', () => {
  const fs = new NodeFileSystem();
  const governance = writeGovernanceLibrary();
  const files = [...corpusAndExampleSkills(), ...skillFilesUnder(governance)];
  let structured = 0;
  for (const file of files) {
    const full = analyzeSkill(fs, file);
    const modelOnly = analyzeSkill(fs, file, { modelOnly: true });
    assert.equal(modelOnly.format, full.format, file);
    assert.equal(modelOnly.name, full.name, file);
    assert.deepEqual(modelOnly.model, full.model, file);
    assert.deepEqual(procedureOf(modelOnly), procedureOf(full), file);
    if (full.model.nodes.length > 0) structured++;
  }
  rmSync(governance, { recursive: true, force: true });
  // The comparison is about procedures: 35 of these skills have steps (AIP, MetaSkill, skill+) as this is written.
  assert.ok(structured >= 30, `${structured} skills with steps`);
});
