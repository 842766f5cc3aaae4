import * as assert from 'node:assert/strict';
import type { SkillAnalysis } from '../../server/src/analyze';
import type { AipAnalysis } from '../../server/src/formats/aip';
import type { MetaAnalysis } from '../../server/src/formats/metaskill';
import type { SkillplusAnalysis } from '../../server/src/formats/skillplus';

// A test that reads a format's own part of an analysis (an AIP procedure, a MetaSkill's plan, a skill+ package) first
// holds the analysis to that format.

export function asAip(analysis: SkillAnalysis): AipAnalysis {
  assert.ok(analysis.format === 'aip-0.3' || analysis.format === 'aip-0.5', `an AIP skill, not ${analysis.format}`);
  return analysis;
}

export function asMeta(analysis: SkillAnalysis): MetaAnalysis {
  assert.ok(
    analysis.format === 'metaskill' || analysis.format === 'metaskill-sop',
    `a MetaSkill, not ${analysis.format}`,
  );
  return analysis;
}

export function asSkillplus(analysis: SkillAnalysis): SkillplusAnalysis {
  assert.ok(analysis.format === 'skillplus', `a skill+ package, not ${analysis.format}`);
  return analysis;
}
