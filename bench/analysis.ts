import * as path from 'node:path';
import { parse } from 'yaml';
import { analyzeSkill } from '../server/src/analyze';
import { NodeFileSystem } from '../server/src/workspace/fileSystem';
import { yamlRegions } from './lib/floor.cjs';
import { writeAipSkill } from '../test/support/generate';
import { round, since, summarize, type Summary } from './lib/stats';

export interface AnalysisResult {
  steps: number;
  bytes: number;
  analysis: Summary;
  yamlParse: Summary;
  ratio: number;
}

const ITERATIONS: Record<number, number> = { 10: 300, 100: 100, 300: 50, 1000: 20 };

/** One SKILL.md analysed in full against the floor: the bare `yaml` parse of its two YAML regions. */
export function benchAnalysis(root: string): AnalysisResult[] {
  const fs = new NodeFileSystem();
  return [10, 100, 300, 1000].map((steps) => {
    const skill = writeAipSkill(path.join(root, 'analysis'), `procedure-${steps}`, steps);
    const regions = yamlRegions(skill.text);
    const iterations = ITERATIONS[steps];
    const analyse = () => analyzeSkill(fs, skill.file, { text: skill.text });
    const parseBare = () => {
      for (const region of regions) parse(region);
    };
    // Both sides warmed alike: in a fresh process the first sizes measured would otherwise time V8's compiler too.
    for (let i = 0; i < iterations / 5; i++) {
      analyse();
      parseBare();
    }
    // Alternated, so both sides see the same machine: this one's speed drifts with its neighbours.
    const analysis: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < iterations; i++) {
      let start = performance.now();
      analyse();
      analysis.push(since(start));
      start = performance.now();
      parseBare();
      floor.push(since(start));
    }
    const a = summarize(analysis);
    const y = summarize(floor);
    return {
      steps,
      bytes: Buffer.byteLength(skill.text),
      analysis: a,
      yamlParse: y,
      ratio: round(a.median / y.median),
    };
  });
}
