// The bench on a workspace shaped like real collections (bench/lib/realShape.ts): references, scripts, data, assets
// and vendored doc trees in the real-world corpus's proportions. The other workspaces are a SKILL.md and little else,
// where reading every text file of a skill costs next to nothing; users' collections are not.
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { benchSkillsRefLibrary, type Alternated } from './ratios';
import { compareSecurity, type SecurityComparison } from './security';
import { writeRealShapedWorkspace, type RealShapedWorkspace } from './lib/realShapedWorkspace';

export interface RealShapedResult {
  /** Its `dir` relative to the repository. */
  workspace: RealShapedWorkspace & { seed: number };
  /** `check --jobs 1` with the security rules against without them. */
  security: SecurityComparison;
  /** `check` (every rule) against skills-ref's library on the same skills. */
  library: Alternated & { corpus: string };
}

/** The targets the issue sets on this workspace. */
export const REAL_SHAPED_TARGETS = { security: 1.15, library: 1.0 };

/** Writes the workspace afresh (the generator may have changed since the last run) and measures both comparisons. */
export function benchRealShaped(root: string, corpus: string, peers: string, count = 400, seed = 1): RealShapedResult {
  const dir = path.join(root, `real-shaped-${count}`);
  rmSync(dir, { recursive: true, force: true });
  const workspace = writeRealShapedWorkspace(dir, count, corpus, seed);
  return {
    workspace: { ...workspace, dir: path.relative(path.join(__dirname, '..'), dir), seed },
    security: compareSecurity(dir),
    library: benchSkillsRefLibrary(dir, `real-shaped (${count} skills)`, peers),
  };
}
