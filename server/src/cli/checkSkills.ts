import { availableParallelism } from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';
import { analyzeSkill } from '../analyze';
import type { ExplicitSettings } from '../config/skillConfig';
import type { FoundSkill } from '../workspace/discover';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { reportSkill, type SkillReport } from './reporters/report';
import { RunSettings } from '../config/runSettings';

/**
 * Below this many skills a second thread saves nothing (measured on 2 cores: 300 skills slower, 1,000 even or slower,
 * 2,000 0–15% faster, 10,000 1.8× faster).
 */
const PARALLEL_FROM = 2000;
const MAX_AUTO_JOBS = 4;
/** Skills handed to a thread at a time: large enough to keep messages rare, small enough to balance uneven skills. */
const BATCH = 16;
/** The argument that makes the CLI's entry serve check batches in a thread instead of running a command. */
export const CHECK_THREAD_FLAG = '--skillgraph-check-thread';

/**
 * worker_threads is loaded only by runs that start threads (it costs a one-skill run several milliseconds of start-up).
 */
function workerThreads(): typeof WorkerThreads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  return require('node:worker_threads') as typeof WorkerThreads;
}

interface WorkerSetup {
  explicit: ExplicitSettings;
  withFixes: boolean;
}
type Batch = { index: number; found: FoundSkill }[];
type BatchDone = { index: number; report: SkillReport }[];

export interface CheckOptions {
  /** The flags given (profile, strictness, catalogs): each thread reads the configurations under them itself. */
  explicit: ExplicitSettings;
  /** The settings of this thread's analyses (the caller's, whose configurations and catalogs are read already). */
  settings: RunSettings;
  /** Each finding's fix tier is reported (JSON). */
  withFixes: boolean;
  /** Threads to analyse on, this one included (see jobsFor). */
  jobs: number;
  /** The disk as this thread reads it (the caller's, so listings made while discovering serve the analyses). */
  fs: FileSystem;
  onProgress?: (done: number) => void;
}

/** One batch analysed on the calling thread: the same work whichever thread runs it. */
function analyseBatch(fs: FileSystem, settings: RunSettings, withFixes: boolean, batch: Batch): BatchDone {
  return batch.map(({ index, found }) => ({
    index,
    report: reportSkill(found, analyzeSkill(fs, found.file, settings.analyzeOptions(found.file)), withFixes),
  }));
}

/** How many threads a run of `skills` skills uses. */
export function jobsFor(skills: number, requested: number | undefined): number {
  const wanted = requested ?? (skills >= PARALLEL_FROM ? Math.min(availableParallelism(), MAX_AUTO_JOBS) : 1);
  return Math.max(1, Math.min(wanted, Math.ceil(skills / BATCH)));
}

/**
 * Analyses every skill and returns each one's report in the order given.
 * Skills are independent, so large runs spread them over worker threads
 * (each with its own heap, which also spreads garbage collection) while this
 * thread works through batches too; the result is the same as analysing them
 * one after another.
 */
export async function checkSkills(entry: string, skills: FoundSkill[], options: CheckOptions): Promise<SkillReport[]> {
  const fs = options.fs;
  const reports: SkillReport[] = new Array(skills.length);
  let next = 0;
  let done = 0;
  const takeBatch = (): Batch => {
    const batch = skills.slice(next, next + BATCH).map((found, offset) => ({ index: next + offset, found }));
    next += batch.length;
    return batch;
  };
  const finish = (results: BatchDone) => {
    for (const { index, report } of results) reports[index] = report;
    done += results.length;
    options.onProgress?.(done);
  };
  const analyseHere = (batch: Batch) => analyseBatch(fs, options.settings, options.withFixes, batch);

  const startWorker = () => {
    const worker = new (workerThreads().Worker)(entry, {
      argv: [CHECK_THREAD_FLAG],
      workerData: { explicit: options.explicit, withFixes: options.withFixes } satisfies WorkerSetup,
    });
    const inFlight: Batch[] = [];
    let started = false;
    const send = () => {
      const batch = takeBatch();
      if (batch.length === 0) return;
      inFlight.push(batch);
      worker.postMessage(batch);
    };
    const stopIfIdle = () => {
      if (inFlight.length === 0) void worker.terminate();
    };
    worker.on('message', (message: BatchDone | 'ready') => {
      if (message === 'ready') {
        // Work goes to a thread once it has loaded (on a small run this one may have finished it all by then),
        // two batches at a time, so it never waits while this thread is busy with a batch of its own.
        started = true;
        send();
        send();
      } else {
        inFlight.shift();
        finish(message);
        send();
      }
      stopIfIdle();
    });
    // An error is followed by 'exit'; there the thread's unfinished batches are done here.
    worker.on('error', () => undefined);
    const exited = new Promise<void>((resolve) =>
      worker.on('exit', () => {
        // A thread that stops early leaves its batches to this one: the run is slower, never incomplete.
        for (const batch of inFlight.splice(0)) finish(analyseHere(batch));
        resolve();
      }),
    );
    const stopIfNotStarted = () => {
      if (!started) stopIfIdle();
    };
    return { exited, stopIfNotStarted };
  };
  const workers = Array.from({ length: options.jobs - 1 }, startWorker);
  for (let batch = takeBatch(); batch.length > 0; batch = takeBatch()) {
    finish(analyseHere(batch));
    // Let the threads' results in and hand them more work before the next batch.
    if (workers.length > 0) await new Promise((resolve) => setImmediate(resolve));
  }
  for (const worker of workers) worker.stopIfNotStarted();
  await Promise.all(workers.map((worker) => worker.exited));
  return reports;
}

/** The thread side of checkSkills: analyses each batch it is handed and posts back the reports. */
export function serveCheckBatches(): void {
  const { parentPort, workerData } = workerThreads();
  const { explicit, withFixes } = workerData as WorkerSetup;
  const fs = new ListingCache(new NodeFileSystem());
  const settings = new RunSettings(fs, explicit);
  parentPort!.on('message', (batch: Batch) => parentPort!.postMessage(analyseBatch(fs, settings, withFixes, batch)));
  parentPort!.postMessage('ready');
}
