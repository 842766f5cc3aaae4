import { parsePython, type PythonSyntax } from './python';

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

  /** `read(text)` for this file and kind of reading, reused while the text is the same. Results are shared: never change them. */
  memo<T>(kind: string, file: string, text: string, read: () => T): T {
    const key = `${kind}\u0000${file}`;
    const known = this.memos.get(key);
    if (known?.text === text) return known.value as T;
    const value = read();
    this.memos.set(key, { text, value });
    return value;
  }
}
