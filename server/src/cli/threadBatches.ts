import { availableParallelism } from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';

// Work on many skills spread over worker threads: each skill is independent, so a large run hands batches to threads
// (each with its own heap, which also spreads garbage collection) while this thread works through batches too; the
// result is the same as doing them one after another, in the order given.

/**
 * Below this many skills a second thread saves nothing (measured on 2 cores: 300 skills slower, 1,000 even or slower,
 * 2,000 0–15% faster, 10,000 1.8× faster).
 */
const PARALLEL_FROM = 2000;
const MAX_AUTO_JOBS = 4;
/** Items handed to a thread at a time: large enough to keep messages rare, small enough to balance uneven skills. */
const BATCH = 16;
/** The argument that makes the CLI's entry serve batches in a thread instead of running a command. */
export const THREAD_FLAG = '--skillgraph-thread';

/**
 * worker_threads is loaded only by runs that start threads (it costs a one-skill run several milliseconds of start-up).
 */
function workerThreads(): typeof WorkerThreads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  return require('node:worker_threads') as typeof WorkerThreads;
}

/** How many threads a run over `skills` skills uses. */
export function jobsFor(skills: number, requested: number | undefined): number {
  const wanted = requested ?? (skills >= PARALLEL_FROM ? Math.min(availableParallelism(), MAX_AUTO_JOBS) : 1);
  return Math.max(1, Math.min(wanted, Math.ceil(skills / BATCH)));
}

type Batch<I> = { index: number; item: I }[];
type BatchDone<O> = { index: number; result: O }[];

/** What a thread is set up with: which work it serves (see serveBatches) and that work's settings. */
export interface ThreadSetup {
  work: string;
}

export interface BatchRun<I, O> {
  /** The CLI's entry file, which each thread runs with THREAD_FLAG. */
  entry: string;
  setup: ThreadSetup;
  /** Threads to work on, this one included (see jobsFor). */
  jobs: number;
  /** One item's work on this thread: the same work a thread does for it. */
  here: (item: I) => O;
  onProgress?: (done: number) => void;
}

/** Every item's result, in the order given. */
export async function inBatches<I, O>(items: I[], run: BatchRun<I, O>): Promise<O[]> {
  const results: O[] = new Array(items.length);
  let next = 0;
  let done = 0;
  const takeBatch = (): Batch<I> => {
    const batch = items.slice(next, next + BATCH).map((item, offset) => ({ index: next + offset, item }));
    next += batch.length;
    return batch;
  };
  const finish = (finished: BatchDone<O>) => {
    for (const { index, result } of finished) results[index] = result;
    done += finished.length;
    run.onProgress?.(done);
  };
  const workHere = (batch: Batch<I>): BatchDone<O> =>
    batch.map(({ index, item }) => ({ index, result: run.here(item) }));

  const startWorker = () => {
    const worker = new (workerThreads().Worker)(run.entry, { argv: [THREAD_FLAG], workerData: run.setup });
    const inFlight: Batch<I>[] = [];
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
    worker.on('message', (message: BatchDone<O> | 'ready') => {
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
        for (const batch of inFlight.splice(0)) finish(workHere(batch));
        resolve();
      }),
    );
    const stopIfNotStarted = () => {
      if (!started) stopIfIdle();
    };
    return { exited, stopIfNotStarted };
  };
  const workers = Array.from({ length: run.jobs - 1 }, startWorker);
  for (let batch = takeBatch(); batch.length > 0; batch = takeBatch()) {
    finish(workHere(batch));
    // Let the threads' results in and hand them more work before the next batch.
    if (workers.length > 0) await new Promise((resolve) => setImmediate(resolve));
  }
  for (const worker of workers) worker.stopIfNotStarted();
  await Promise.all(workers.map((worker) => worker.exited));
  return results;
}

/**
 * The thread side of inBatches: `serve` turns the thread's setup into one item's work; each batch handed over is
 * worked through and its results posted back.
 */
export function serveBatches(serve: (setup: ThreadSetup) => (item: unknown) => unknown): void {
  const { parentPort, workerData } = workerThreads();
  const work = serve(workerData as ThreadSetup);
  parentPort!.on('message', (batch: Batch<unknown>) =>
    parentPort!.postMessage(batch.map(({ index, item }) => ({ index, result: work(item) }))),
  );
  parentPort!.postMessage('ready');
}
