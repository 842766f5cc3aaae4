import { parsePython, type PythonSyntax } from './python/python';

/**
 * What was read from each file of a package, kept across analyses: a file
 * whose text did not change is not read again, and a Python file that did
 * change is parsed again only where it changed. The language server keeps
 * one per skill, as it keeps YAML chunks per document; the CLI reads each
 * file once and needs none.
 */
export class ParseCache {
  private readonly pythonFiles = new Map<string, PythonSyntax>();
  private readonly memos = new Map<string, { text: string; value: unknown }>();

  python(file: string, text: string): PythonSyntax {
    const previous = this.pythonFiles.get(file);
    if (previous?.text === text) return previous;
    const syntax = parsePython(file, text, previous);
    this.pythonFiles.set(file, syntax);
    return syntax;
  }

  private readonly readings = new Map<string, ReusedReadings<unknown>>();

  /** What the last reading of this file and kind made of each statement, by its text, for the next (ReusedReadings). */
  reused<T>(kind: string, file: string): ReusedReadings<T> {
    const key = `${kind}\u0000${file}`;
    let reused = this.readings.get(key);
    if (!reused) this.readings.set(key, (reused = new ReusedReadings()));
    return reused as ReusedReadings<T>;
  }

  /**
   * `read(text)` for this file and kind of reading, reused while the text is the same. Results are shared: never change
   * them.
   */
  memo<T>(kind: string, file: string, text: string, read: () => T): T {
    const key = `${kind}\u0000${file}`;
    const known = this.memos.get(key);
    if (known?.text === text) return known.value as T;
    const value = read();
    this.memos.set(key, { text, value });
    return value;
  }
}

/**
 * What one reading of a file made of each statement of its text (a call in
 * flow.py), by the statement's text, for the next reading: a statement whose text is
 * unchanged reads the same, only moved. Only the last reading's readings are
 * kept, so memory follows the current text.
 */
export class ReusedReadings<T> {
  private last = new Map<string, { at: number; value: T }>();
  private next = new Map<string, { at: number; value: T }>();

  /**
   * What the last reading made of `text` and where the statement then started,
   * for the reader to move and to note where it now starts. Once per reading:
   * the same text again (a pasted copy) is read afresh, into its own value.
   * `usable` may refuse it (readings that share objects: see reusedFlowStatements.ts).
   */
  take(text: string, usable: (value: T) => boolean = () => true): { at: number; value: T } | undefined {
    if (this.next.has(text)) return undefined;
    const known = this.last.get(text);
    if (!known || !usable(known.value)) return undefined;
    this.next.set(text, known);
    return known;
  }

  /** What this reading made of `text`, starting at `at`, unless a statement of the same text was taken or kept. */
  keep(text: string, at: number, value: T): void {
    if (!this.next.has(text)) this.next.set(text, { at, value });
  }

  /** Ends a reading: what it did not use is dropped. */
  done(): void {
    this.last = this.next;
    this.next = new Map();
  }
}
