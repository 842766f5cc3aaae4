import { LinkFindings } from '../checks/links/linkFindings';
import { ReusedLineScan } from '../checks/security/reusedLineScan';
import { ParseCache } from '../parse/parseCache';
import { YamlChunkCache } from '../parse/yaml/yamlChunkCache';
import type { FileSystem } from '../workspace/fileSystem';
import { ReusedGraphChecks } from './reusedGraphChecks';
import { ReusedSteps } from './reusedSteps';
import { StepLists } from './stepLists';

/**
 * Everything one analysis of a skill may reuse from the analyses of its
 * earlier versions, so an edit costs about what it changed, not what the
 * skill holds. The language server keeps one per open skill and passes it
 * to every analysis of that skill (`analyzeSkill`'s `incremental`); `check`
 * analyses each skill once and passes none; `diff` passes one to analyse a
 * skill's second revision as an edit of its first (`diff/revisionDiff.ts`).
 * Each part says what it reuses and while what holds:
 *
 * - `yaml`: the SKILL.md's YAML, chunk by chunk, while a chunk's text is
 *   unchanged (its nodes moved to where the chunk now is);
 * - `files`: what was read from the skill's other files (a skill+
 *   package's Python and Markdown, what each file may hide), while a
 *   file's text is unchanged;
 * - `steps`: each step of a procedure or composition, while `yaml` hands
 *   back the YAML node it was read from (moved in place with it);
 * - `stepLists`: the lists every step adds a part to, remade only for the
 *   steps that changed;
 * - `graph`: the checks over the whole graph, while every name, type,
 *   reference and edge is as it was, in the same file;
 * - `links`: the findings about the paths steps and prose name, while the
 *   analyses read the same snapshot of the disk;
 * - `securityLines`: what the security rules that read a line at a time
 *   found in SKILL.md, for the lines an edit left alone (given the path of
 *   the SKILL.md read now, which a diff of two folders changes).
 *
 * Kept parts are moved in place, not copied, so an analysis made with a
 * state is current only until the next analysis with the same state: one
 * state serves one skill, one analysis at a time.
 */
export class IncrementalState {
  readonly yaml = new YamlChunkCache();
  readonly files = new ParseCache();
  readonly steps = new ReusedSteps();
  readonly stepLists = new StepLists(this.steps);
  readonly graph = new ReusedGraphChecks(this.steps);
  readonly links = new LinkFindings();
  readonly securityLines = new ReusedLineScan();

  /** Starts the next analysis, of `file` on `disk`. */
  nextAnalysis(disk: FileSystem, file: string): void {
    // Before the steps: the graph checks place their findings among the last analysis's steps.
    this.graph.nextAnalysis(file);
    this.steps.nextAnalysis();
    this.links.useDisk(disk);
  }
}
