import { analyzeSkill, type AnalyzeOptions } from '../analyze';
import { emptyGraph, toGraphJson } from '../forms/graphJson';
import { IncrementalState } from '../incremental/incrementalState';
import type { FileSystem } from '../workspace/fileSystem';
import { diffGraphs, type GraphDiff } from './graphDiff';
import type { GraphJson } from '../protocol';

/** One revision of a skill: the files it is read from, its SKILL.md, how it is analysed and how its paths are shown. */
export interface Revision {
  fs: FileSystem;
  file: string;
  options: Omit<AnalyzeOptions, 'incremental'>;
  /** A file's path as the graph shows it (relative to the side's folder, so the two sides' paths compare). */
  shown?: (file: string) => string;
}

/**
 * The graphs of two revisions of one skill (either may be missing: a skill added or removed) and what changed between
 * them. The second is analysed as an edit of the first, with the state the language server keeps between keystrokes:
 * a pull request leaves most of a procedure's steps as they were, and their YAML, steps and per-step findings are
 * reused instead of read again. The second analysis then costs what changed and what must be asked of its own disk
 * (the files its steps name) or made again for its graph (the checks over the whole graph), not a whole analysis. What
 * the state keeps either does not depend on where the skill is or is checked against the file or the disk it was made
 * for, so two folders compare as well as two commits of one. The first graph is made before the second analysis, which
 * moves the reused steps in place.
 */
export function diffRevisions(
  before: Revision | undefined,
  after: Revision | undefined,
): { before?: GraphJson; after?: GraphJson; diff: GraphDiff } {
  const state = new IncrementalState();
  const graphOf = (side: Revision | undefined) =>
    side && toGraphJson(analyzeSkill(side.fs, side.file, { ...side.options, incremental: state }), side.shown);
  const oldGraph = graphOf(before);
  const newGraph = graphOf(after);
  if (!oldGraph && !newGraph) throw new Error('diffRevisions: neither revision was given');
  const diff = diffGraphs(oldGraph ?? emptyGraph(newGraph!), newGraph ?? emptyGraph(oldGraph!));
  return { ...(oldGraph ? { before: oldGraph } : {}), ...(newGraph ? { after: newGraph } : {}), diff };
}
