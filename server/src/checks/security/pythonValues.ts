import type { SyntaxNode } from '@lezer/common';
import { childrenOf, literalOf, textOf, type PythonSyntax } from '../../parse/python/python';
import { lineOf, sourcesOf, UNKNOWN, type Value } from './scriptEffects';

// What a Python expression's value is, as far as a reader of its text can tell: the text of strings, paths and
// addresses built from literals (f-strings, `+`, `/`, `%`, `.format`), and what each value holds, carried through
// the expressions that build on it. Calls are the caller's to say (pythonEffects.ts): this file only combines.

/** The file's names: what the imports bind (`rq` → `requests`), and where each offset's line starts. */
export interface PythonFile {
  py: PythonSyntax;
  imports: Map<string, string>;
  lineStarts: number[];
}

/** The line (1-based) an offset is on. */
export function lineAt(file: PythonFile, offset: number): number {
  return lineOf(file.lineStarts, offset);
}

/** The names each import binds, to the dotted name they stand for. */
export function importsOf(py: PythonSyntax): Map<string, string> {
  const imports = new Map<string, string>();
  for (let node = py.tree.topNode.firstChild; node; node = node.nextSibling) {
    if (node.name !== 'ImportStatement') continue;
    // `from a.b import c as d, e` / `import a.b as c, d.e`: the words, in order, with `.`, `as` and `,` between.
    const words: string[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling)
      if (child.name !== '(' && child.name !== ')') words.push(textOf(py, child));
    const importAt = words.indexOf('import');
    const from = words[0] === 'from' ? words.slice(1, importAt).join('') : undefined;
    for (const name of words
      .slice(importAt + 1)
      .join(' ')
      .split(',')) {
      const [dotted, alias] = name
        .replace(/\s*\.\s*/g, '.')
        .trim()
        .split(/\s+as\s+/);
      if (!dotted || dotted === '*') continue;
      if (from !== undefined) imports.set(alias ?? dotted, `${from}.${dotted}`);
      else imports.set(alias ?? dotted.split('.')[0], alias ? dotted : dotted.split('.')[0]);
    }
  }
  return imports;
}

/** The dotted name a node spells, with its first word read through the imports (`rq.post` → `requests.post`). */
export function canonicalName(file: PythonFile, node: SyntaxNode | null): string | undefined {
  const parts: string[] = [];
  for (let at = node; at;) {
    if (at.name === 'VariableName') {
      parts.unshift(textOf(file.py, at));
      break;
    }
    const children = childrenOf(at);
    if (at.name !== 'MemberExpression' || children.length !== 2 || children[1].name !== 'PropertyName')
      return undefined;
    parts.unshift(textOf(file.py, children[1]));
    at = children[0];
  }
  if (parts.length === 0) return undefined;
  const imported = file.imports.get(parts[0]);
  return imported ? [imported, ...parts.slice(1)].join('.') : parts.join('.');
}

/** A string literal's value: its text, and where it stands in the file when it is written as it reads. */
export function stringValue(file: PythonFile, node: SyntaxNode): Value {
  const literal = literalOf(file.py, node);
  if (literal.kind !== 'string') return { sources: [] };
  const { value, offsets } = literal;
  const asWritten = offsets.length === value.length + 1 && offsets[value.length] - offsets[0] === value.length;
  return { text: value, sources: [], ...(asWritten ? { at: offsets[0] } : {}) };
}

/** Text joined from parts, an unknown part standing as `UNKNOWN`. */
export function joined(values: readonly Value[], separator = ''): string {
  return values.map((value) => value.text ?? UNKNOWN).join(separator);
}

/** A path joined as `os.path.join` and `/` join it: a later absolute part starts it again. */
export function joinedPath(values: readonly Value[]): string {
  let path = '';
  for (const value of values) {
    const part = value.text ?? UNKNOWN;
    path = path === '' || /^[/~]/.test(part) ? part : `${path.replace(/[/\\]$/, '')}/${part}`;
  }
  return path;
}

/** `"…%s…" % x`, `"…{}…".format(x)`: the template with each placeholder filled by the next value. */
export function formatted(template: string, values: readonly Value[], placeholder: RegExp): string {
  let next = 0;
  return template.replace(placeholder, () => values[next++]?.text ?? UNKNOWN);
}

/** An f-string: its literal text, and the value of each replacement (`evaluate` reads them). */
export function formatString(file: PythonFile, node: SyntaxNode, evaluate: (node: SyntaxNode) => Value): Value {
  const raw = textOf(file.py, node);
  const quote = /^[a-zA-Z]*("""|'''|"|')/.exec(raw);
  let text = '';
  const parts: Value[] = [];
  let at = node.from + (quote ? quote[0].length : 0);
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.name !== 'FormatReplacement') continue;
    text += file.py.text.slice(at, child.from);
    const inner = childrenOf(child).find((item) => !/^Format|^[{}]$/.test(item.name));
    const value = inner ? evaluate(inner) : { sources: [] };
    parts.push(value);
    text += value.text ?? UNKNOWN;
    at = child.to;
  }
  text += file.py.text.slice(at, node.to - (quote ? quote[1].length : 0));
  return { text, sources: sourcesOf(parts) };
}

/**
 * A string or f-string as written between its quotes, and where that starts: a command read as the shell reader reads
 * it (`{url}` a word), each finding then in place.
 */
export function asWritten(file: PythonFile, node: SyntaxNode): { text: string; at: number } | undefined {
  if (node.name !== 'String' && node.name !== 'FormatString') return undefined;
  const raw = textOf(file.py, node);
  const open = /^[a-zA-Z]*("""|'''|"|')/.exec(raw);
  if (!open || raw.length < open[0].length + open[1].length) return undefined;
  return { text: raw.slice(open[0].length, raw.length - open[1].length), at: node.from + open[0].length };
}

/** A call's arguments, each with its value: positional (with their nodes), by keyword, and spread (`*a`, `**k`). */
export function argumentValues(file: PythonFile, call: SyntaxNode, evaluate: (node: SyntaxNode) => Value) {
  const positional: Value[] = [];
  const positionalNodes: SyntaxNode[] = [];
  const keywords = new Map<string, { value: Value; node: SyntaxNode }>();
  const spread: Value[] = [];
  const argList = call.getChild('ArgList');
  const parts = argList ? childrenOf(argList) : [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    if (part.name === 'VariableName' && parts[index + 1]?.name === 'AssignOp' && parts[index + 2]) {
      keywords.set(textOf(file.py, part), { value: evaluate(parts[index + 2]), node: parts[index + 2] });
      index += 2;
    } else if (part.name === '*' || part.name === '**') {
      if (parts[index + 1]) spread.push(evaluate(parts[index + 1]));
      index++;
    } else {
      positional.push(evaluate(part));
      positionalNodes.push(part);
    }
  }
  return { positional, positionalNodes, keywords, spread };
}
