// `skillgraph diff` on two revisions of a 1,000-step procedure against one analysis of it, in a process of their own:
// what the diff costs is an analysis of the first revision, one of the second as an edit of it, their graphs and the
// comparison; the target is that the diff costs at most two analyses.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeSkill } from '../server/src/analyze';
import { toGraphJson } from '../server/src/forms/graphJson';
import { diffGraphs } from '../server/src/diff/graphDiff';
import { diffRevisions, type Revision } from '../server/src/diff/revisionDiff';
import { NodeFileSystem } from '../server/src/workspace/fileSystem';
import { runNode } from './lib/run';
import { commitAll } from '../test/support/cliRun';
import { writeAipSkill } from '../test/support/generate';
import { round, since, summarize, type Summary } from './lib/stats';
import { loadShellGrammar } from '../server/src/parse/shell/shellGrammar';

/**
 * Rounds of the in-process timing. A round of the diff varies by half between rounds here (collections, a shared
 * machine): with 15 rounds, the ratio of the medians moved from 1.78× to 2.14× between five runs of the same code; with
 * 40, from 1.83× to 1.95× in eight. About ten seconds.
 */
const ROUNDS = 40;
/** Rounds of the commands, each a process: fewer, as each costs a start-up. */
const COMMAND_ROUNDS = 7;
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const EXAMPLES = path.join(__dirname, '..', 'examples');
/** Skills in the library whose diff against HEAD is timed (the examples copied over and over, every format). */
const LIBRARY_SKILLS = 600;
const LIBRARY_ROUNDS = 3;

export interface DiffResult {
  steps: number;
  /** What the second revision changes. */
  changes: { nodes: number; edges: number; findings: number };
  analysis: Summary;
  diff: Summary;
  ratio: number;
  /**
   * The preview's changes since a revision on an edit: the revision's graph is kept (the server keeps it per commit),
   * so an edit costs one analysis of the edited text, its graph and the comparison.
   */
  onEdit: Summary;
  onEditRatio: number;
  /**
   * The same as a user runs it: `skillgraph diff before after` against `skillgraph check` of the first revision, each a
   * process (start-up, a cold JIT, reading and printing included).
   */
  commands: { check: Summary; diff: Summary; ratio: number };
  /** `skillgraph diff` against HEAD in a git repository of many skills, one changed, against `check` of them. */
  library: { skills: number; check: Summary; diff: Summary; ratio: number };
}

/** A repository of LIBRARY_SKILLS skills committed once, then one step of one skill renamed in the working tree. */
function libraryRepository(root: string): string {
  const dir = path.join(root, 'diff-library');
  rmSync(dir, { recursive: true, force: true });
  const examples = readdirSync(EXAMPLES).filter((name) => name !== 'mistakes');
  for (let index = 0; index < LIBRARY_SKILLS; index++) {
    const name = examples[index % examples.length];
    cpSync(path.join(EXAMPLES, name), path.join(dir, 'skills', `${name}-${index}`), { recursive: true });
  }
  commitAll(dir, 'a library');
  const changed = path.join(dir, 'skills', 'csv-report-0', 'SKILL.md');
  writeFileSync(changed, readFileSync(changed, 'utf8').replaceAll('choose-focus', 'pick-focus'));
  return dir;
}

/**
 * `check` and `diff` (each runs its command, checks that it did its work and gives its time), alternating: `uncounted`
 * rounds first, then `rounds` counted.
 */
function alternating(
  rounds: number,
  uncounted: number,
  check: () => number,
  diff: () => number,
): { check: Summary; diff: Summary; ratio: number } {
  const checkMs: number[] = [];
  const diffMs: number[] = [];
  for (let i = 0; i < uncounted + rounds; i++) {
    const [checked, diffed] = [check(), diff()];
    if (i < uncounted) continue;
    checkMs.push(checked);
    diffMs.push(diffed);
  }
  const [checkSummary, diffSummary] = [summarize(checkMs), summarize(diffMs)];
  return { check: checkSummary, diff: diffSummary, ratio: round(diffSummary.median / checkSummary.median) };
}

/** `skillgraph diff` (against HEAD) and `skillgraph check` of the library, alternating. */
function benchLibrary(root: string): DiffResult['library'] {
  const dir = libraryRepository(root);
  const timed = alternating(
    LIBRARY_ROUNDS,
    0,
    () => {
      const checked = runNode(CLI, ['check', '.'], { cwd: dir, memory: false });
      if (checked.stdout.length === 0) throw new Error(`check exited ${checked.status}: ${checked.stderr}`);
      return checked.ms;
    },
    () => {
      const diffed = runNode(CLI, ['diff', '--format', 'json'], { cwd: dir, memory: false });
      const report = diffed.status === 0 ? (JSON.parse(diffed.stdout) as { skills: unknown[] }) : undefined;
      if (report?.skills.length !== 1) throw new Error(`diff exited ${diffed.status}: ${diffed.stderr}`);
      return diffed.ms;
    },
  );
  return { skills: LIBRARY_SKILLS, ...timed };
}

/**
 * `skillgraph diff` of the two folders against `skillgraph check` of the first, alternating; the first round warms
 * the disk cache and is not counted.
 */
function benchCommands(root: string, beforeDir: string): DiffResult['commands'] {
  return alternating(
    COMMAND_ROUNDS,
    1,
    () => {
      // The check finds no error.
      const checked = runNode(CLI, ['check', beforeDir], { memory: false });
      if (checked.status !== 0) throw new Error(`check exited ${checked.status}: ${checked.stderr}`);
      return checked.ms;
    },
    () => {
      // The diff reports the one skill and the errors it introduces.
      const diffed = runNode(CLI, ['diff', 'before', 'after', '--format', 'json'], { cwd: root, memory: false });
      const report = diffed.status === 1 ? (JSON.parse(diffed.stdout) as { skills: unknown[] }) : undefined;
      if (report?.skills.length !== 1) throw new Error(`diff exited ${diffed.status}: ${diffed.stderr}`);
      return diffed.ms;
    },
  );
}

/**
 * The second revision renames ten steps (their dependants then name a step that is gone), retypes twenty outputs and
 * drops one step's script: the kinds of change a pull request makes, spread over the procedure.
 */
function revise(text: string): string {
  let revised = text;
  for (let i = 0; i < 10; i++) {
    const id = `step-${String(50 + i * 90).padStart(4, '0')}`;
    revised = revised.replace(`- name: ${id}\n`, `- name: ${id}-renamed\n`);
  }
  let retyped = 0;
  revised = revised.replace(/type: integer/g, (match) => (retyped++ < 20 ? 'type: float' : match));
  return revised.replace(/\n {4}script: scripts\/step_0500\.py/, '');
}

/** What is timed in one process: the two revisions, the analysis, the diff and the preview's path, alternating. */
type InProcess = Omit<DiffResult, 'commands' | 'library'> & { beforeDir: string };

function timeInProcess(root: string, steps: number): InProcess {
  const fs = new NodeFileSystem();
  const before = writeAipSkill(path.join(root, 'diff', 'before'), `procedure-${steps}`, steps);
  const afterDir = path.join(root, 'diff', 'after', `procedure-${steps}`);
  cpSync(path.dirname(before.file), afterDir, { recursive: true });
  const afterFile = path.join(afterDir, 'SKILL.md');
  writeFileSync(afterFile, revise(readFileSync(before.file, 'utf8')));
  const analyse = () => analyzeSkill(fs, before.file);
  // What `skillgraph diff before after` does for the skill: the two revisions, each shown relative to its side.
  const revision = (file: string, base: string): Revision => ({
    fs,
    file,
    options: {},
    shown: (target) => path.relative(base, target),
  });
  const diff = () =>
    diffRevisions(
      revision(before.file, path.join(root, 'diff', 'before')),
      revision(afterFile, path.join(root, 'diff', 'after')),
    ).diff;
  const kept = toGraphJson(analyzeSkill(fs, before.file));
  const onEdit = () => diffGraphs(kept, toGraphJson(analyzeSkill(fs, afterFile)));
  // All warmed alike, then alternated, so every side sees the same machine.
  for (let i = 0; i < 3; i++) {
    analyse();
    diff();
    onEdit();
  }
  const analysisMs: number[] = [];
  const diffMs: number[] = [];
  const onEditMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const [run, times] of [
      [analyse, analysisMs],
      [diff, diffMs],
      [onEdit, onEditMs],
    ] as const) {
      const start = performance.now();
      run();
      times.push(since(start));
    }
  }
  const result = diff();
  const analysis = summarize(analysisMs);
  const measured = summarize(diffMs);
  const edited = summarize(onEditMs);
  return {
    steps,
    changes: { nodes: result.nodes.length, edges: result.edges.length, findings: result.findings.length },
    analysis,
    diff: measured,
    ratio: round(measured.median / analysis.median),
    onEdit: edited,
    onEditRatio: round(edited.median / analysis.median),
    beforeDir: path.dirname(before.file),
  };
}

/**
 * The in-process timing runs in a process of its own, as `skillgraph diff` does: run last in the bench's process, after
 * the 10,000-skill library and catalog, it shared a heap those left behind, whose collections fall more on the diff
 * (which keeps its first revision while it reads the second) than on the analysis. The same code measured 1.74× and
 * 2.16× in two such runs, and from 1.86× to 2.07× in seven runs alone (of 15 rounds each, as it then timed).
 */
export function benchDiff(root: string, steps = 1000): DiffResult {
  const child = runNode(__filename, [root, String(steps)], { memory: false, execArgv: ['--import', 'tsx'] });
  if (child.status !== 0) throw new Error(`the diff bench exited ${child.status}: ${child.stderr}`);
  const { beforeDir, ...timed } = JSON.parse(child.stdout) as InProcess;
  return {
    ...timed,
    commands: benchCommands(path.join(root, 'diff'), beforeDir),
    library: benchLibrary(root),
  };
}

if (require.main === module) {
  const [root, steps] = process.argv.slice(2);
  // This process analyses: it reads shell with the shell's grammar, as the CLI does.
  void loadShellGrammar().then(() => process.stdout.write(JSON.stringify(timeInProcess(root, Number(steps)))));
}
