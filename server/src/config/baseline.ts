import * as path from 'node:path';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';

// A baseline: the findings a team has accepted for now, so that a check
// reports only what is new. Each finding is kept as its file (relative to
// the baseline), its code and its own text (rules/fingerprint.ts), with a
// count: lines moving, and edits elsewhere in the file, leave it matched.

/** One accepted finding, as the baseline file holds it. */
export interface BaselineEntry {
  /** Relative to the baseline file's folder, with `/`. */
  file: string;
  code: string;
  /** The finding's own text, as `shownText` gives it. */
  text: string;
  /** How many findings of this code on this text the file may have. */
  count: number;
}

export interface Baseline {
  /** The absolute path of the baseline file. */
  file: string;
  entries: BaselineEntry[];
}

const VERSION = 1;

/** The baseline's key of a finding: its file (absolute) and fingerprint (`code:text`). */
const keyOf = (file: string, fingerprint: string) => `${file}\0${fingerprint}`;

/**
 * Reads a baseline file. A missing file is an empty baseline (a team runs
 * `--update-baseline` to make it); a file that is not a baseline is an
 * error with the reason, never a crash.
 */
export function readBaseline(fs: FileSystem, file: string): Baseline | { error: string } {
  const read = readText(fs, file);
  if (read.kind === 'missing') return { file, entries: [] };
  if (read.kind !== 'text') return { error: `${file} is not a text file` };
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    return { error: `${file} is not JSON: ${(error as Error).message}` };
  }
  const findings = (value as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(findings) || (value as { version?: unknown }).version !== VERSION)
    return { error: `${file} is not a Skillgraph baseline (version ${VERSION} with a list of findings)` };
  const entries = findings.filter(
    (entry): entry is BaselineEntry =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.file === 'string' &&
      typeof entry.code === 'string' &&
      typeof entry.text === 'string' &&
      Number.isInteger(entry.count) &&
      entry.count > 0,
  );
  return { file, entries };
}

/**
 * Matches findings against a baseline, each accepted entry used as many
 * times as its count: the findings of a file beyond that count are new.
 */
export class BaselineMatch {
  private readonly left = new Map<string, number>();
  private matchedCount = 0;

  constructor(readonly baseline: Baseline) {
    const dir = path.dirname(baseline.file);
    for (const entry of baseline.entries) {
      const key = keyOf(path.resolve(dir, entry.file), `${entry.code}:${entry.text}`);
      this.left.set(key, (this.left.get(key) ?? 0) + entry.count);
    }
  }

  /** Whether the baseline accepts this finding (then one use of its entry is taken). */
  accepts(file: string, fingerprint: string): boolean {
    const key = keyOf(path.resolve(file), fingerprint);
    const count = this.left.get(key) ?? 0;
    if (count === 0) return false;
    this.left.set(key, count - 1);
    this.matchedCount++;
    return true;
  }

  /** How many findings were accepted. */
  get matched(): number {
    return this.matchedCount;
  }

  /**
   * How many accepted findings were not found (fixed since): `--update-baseline` drops them. `counted` keeps the
   * entries of the files a run answers for (a shard counts its own skills' files).
   */
  stale(counted: (file: string) => boolean = () => true): number {
    let stale = 0;
    for (const [key, count] of this.left) if (counted(key.slice(0, key.indexOf('\0')))) stale += count;
    return stale;
  }
}

/**
 * The baseline with the findings of `files` (absolute paths) replaced by
 * `findings`: what `--update-baseline` writes when it checked those files
 * (the entries of files it did not check are kept).
 */
export function updatedBaseline(
  previous: Baseline,
  checked: (file: string) => boolean,
  findings: { file: string; fingerprint: string }[],
): Baseline {
  const dir = path.dirname(previous.file);
  const counts = new Map<string, BaselineEntry>();
  const add = (entry: BaselineEntry) => {
    const key = `${entry.file}\0${entry.code}\0${entry.text}`;
    const known = counts.get(key);
    if (known) known.count += entry.count;
    else counts.set(key, { file: entry.file, code: entry.code, text: entry.text, count: entry.count });
  };
  for (const entry of previous.entries) if (!checked(path.resolve(dir, entry.file))) add(entry);
  for (const finding of findings) {
    const colon = finding.fingerprint.indexOf(':');
    add({
      file: path.relative(dir, finding.file).split(path.sep).join('/'),
      code: finding.fingerprint.slice(0, colon),
      text: finding.fingerprint.slice(colon + 1),
      count: 1,
    });
  }
  const entries = [...counts.values()].sort(
    (a, b) => compare(a.file, b.file) || compare(a.code, b.code) || compare(a.text, b.text),
  );
  return { file: previous.file, entries };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The baseline file's text: one finding per line, sorted, so a change to it reads well in a diff. */
export function baselineText(baseline: Baseline): string {
  const lines = baseline.entries.map((entry) => `    ${JSON.stringify(entry)}`);
  const findings = lines.length > 0 ? `[\n${lines.join(',\n')}\n  ]` : '[]';
  return `{\n  "version": ${VERSION},\n  "findings": ${findings}\n}\n`;
}
