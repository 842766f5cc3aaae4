// What the CLI prints. Touching process.stdout or process.stderr loads Node's
// stream and socket modules (about 5 ms of a one-skill run whose output is a
// pipe, as in a hook or CI); a write to the descriptor does the same job.
// Where the descriptor is non-blocking and its pipe is full (EAGAIN), the
// rest goes through Node's stream, which waits for the reader, and so does
// everything after it on that descriptor, to keep the order.
import { writeSync } from 'node:fs';
import * as path from 'node:path';

type Descriptor = 1 | 2;

const streamed = new Set<Descriptor>();

/**
 * A reader that stops early (`skillgraph check | head`) closes the pipe: the run stops quietly, as other command-line
 * tools do.
 */
function closedEarly(): never {
  process.exit(process.exitCode ?? 0);
}

function streamOf(fd: Descriptor): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (!streamed.has(fd)) {
    streamed.add(fd);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      closedEarly();
    });
  }
  return stream;
}

function write(fd: Descriptor, text: string | Uint8Array): void {
  if (text.length === 0) return;
  if (streamed.has(fd)) {
    streamOf(fd).write(text);
    return;
  }
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') closedEarly();
    if (code !== 'EAGAIN') throw error;
    streamOf(fd).write(bytes.subarray(done));
  }
}

/**
 * Ends the process with `code` once what was printed has gone out. All of it
 * went out already unless a stream took over (EAGAIN); then Node's own exit
 * waits for the stream. Exiting at once skips the work V8 still has queued
 * (a scavenge a one-skill run pays 2 to 3 ms for).
 */
export function exitWith(code: number): void {
  if (streamed.size === 0) process.exit(code);
  process.exitCode = code;
}

/** Writes to standard output. */
export function printOut(text: string | Uint8Array): void {
  write(1, text);
}

/** Writes to standard error. */
export function printErr(text: string): void {
  write(2, text);
}

/** A path as the user reads it: relative to where they ran the command (`.` for that folder itself). */
export function shownPath(file: string): string {
  return path.relative(process.cwd(), file) || '.';
}

/** `1 error`, `2 errors`: a count with its noun, as the summaries print it. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
