import type { SyntaxNode, Tree, TreeFragment } from '@lezer/common';
import type * as PythonGrammar from './pythonGrammar';
import type { Span } from '../text/lineIndex';
import { unsharedCopy } from '../text/unsharedCopy';
import { changedRegion } from '../text/textChange';

let grammar: typeof PythonGrammar | undefined;

/** The Python grammar is loaded on first use (see pythonGrammar.ts): only skill+ packages need it. */
function lezer(): typeof PythonGrammar {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  grammar ??= require('./pythonGrammar') as typeof PythonGrammar;
  return grammar;
}

/**
 * Python read with `@lezer/python`, never imported or run: a syntax tree
 * with offsets, and literal values (strings with the file offset of each
 * character, numbers, booleans, None, lists) for the static subsets that
 * skill+ files are written in.
 */
export interface PythonSyntax {
  file: string;
  text: string;
  tree: Tree;
  /** Where the parser had to recover: the text there is not Python. */
  errors: Span[];
}

/**
 * Parses Python. Given the same file's previous syntax, only the changed
 * region is parsed again (lezer reuses the rest of the old tree): the
 * language server reparses flow.py on every keystroke.
 */
export function parsePython(file: string, text: string, previous?: PythonSyntax): PythonSyntax {
  const { parser } = lezer();
  const tree = previous ? parser.parse(text, changedFragments(previous, text)) : parser.parse(text);
  const errors: Span[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push({ start: node.from, end: Math.max(node.to, node.from + 1), file });
    },
  });
  return { file, text, tree, errors };
}

/**
 * The old tree's fragments that the edit from `previous.text` to `text` left untouched (one changed region: the common
 * prefix and suffix kept).
 */
function changedFragments(previous: PythonSyntax, text: string): readonly TreeFragment[] {
  const old = previous.text;
  const { before: start, after } = changedRegion(old, text);
  const endOld = old.length - after;
  const endNew = text.length - after;
  const { TreeFragment } = lezer();
  return TreeFragment.applyChanges(TreeFragment.addTree(previous.tree), [
    { fromA: start, toA: endOld, fromB: start, toB: endNew },
  ]);
}

/** A literal as Python would evaluate it; anything else is `dynamic`. */
export type PyLiteral =
  | { kind: 'string'; value: string; offsets: number[]; span: Span }
  | { kind: 'number'; value: number; span: Span }
  | { kind: 'bool'; value: boolean; span: Span }
  | { kind: 'none'; value: null; span: Span }
  | { kind: 'list'; items: PyLiteral[]; span: Span }
  | { kind: 'dynamic'; span: Span };

export function spanOf(py: PythonSyntax, node: SyntaxNode): Span {
  // Statement-like nodes (a decorator, a body line) take their newline along: a range ends at the last character
  // written.
  let end = node.to;
  while (end > node.from && /\s/.test(py.text[end - 1])) end--;
  return { start: node.from, end, file: py.file };
}

export function textOf(py: PythonSyntax, node: SyntaxNode): string {
  return py.text.slice(node.from, node.to);
}

/** The children of a node, leaving out punctuation tokens. */
export function childrenOf(node: SyntaxNode): SyntaxNode[] {
  const children: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (!['(', ')', '[', ']', '{', '}', ',', ':', '.'].includes(child.name)) children.push(child);
  }
  return children;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/**
 * One string token (`"…"`, `'…'`, triple-quoted, with `r`/`u`/`b` prefixes) decoded, each character with its offset.
 */
function decodeString(py: PythonSyntax, node: SyntaxNode): { value: string; offsets: number[] } | undefined {
  const raw = textOf(py, node);
  const prefix = /^[rRuUbB]*/.exec(raw)![0];
  if (/[fF]/.test(prefix)) return undefined;
  const rest = raw.slice(prefix.length);
  const quote = rest.startsWith('"""') || rest.startsWith("'''") ? rest.slice(0, 3) : rest[0];
  if (!quote || !rest.endsWith(quote) || rest.length < quote.length * 2) return undefined;
  const start = node.from + prefix.length + quote.length;
  const body = rest.slice(quote.length, rest.length - quote.length);
  const isRaw = /[rR]/.test(prefix);
  // Most strings hold no backslash: the value is the body, each character where it stands.
  if (isRaw || !body.includes('\\')) {
    const offsets: number[] = new Array(body.length + 1);
    for (let i = 0; i <= body.length; i++) offsets[i] = start + i;
    // Copied out of the file's text: a flow node kept for the next keystroke would otherwise keep this version of the
    // whole file.
    return { value: unsharedCopy(body), offsets };
  }
  let value = '';
  const offsets: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\' && !isRaw && i + 1 < body.length) {
      const next = body[i + 1];
      if (next === '\n') {
        i++;
        continue;
      }
      if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const code = parseInt(body.slice(i + 2, i + 2 + length), 16);
        if (!Number.isNaN(code)) {
          const decoded = String.fromCodePoint(code);
          for (const unit of decoded) {
            value += unit;
            offsets.push(start + i);
          }
          i += 1 + length;
          continue;
        }
      }
      value += ESCAPES[next] ?? `\\${next}`;
      offsets.push(start + i);
      if (!(next in ESCAPES)) offsets.push(start + i + 1);
      i++;
      continue;
    }
    value += char;
    offsets.push(start + i);
  }
  offsets.push(start + body.length);
  return { value, offsets };
}

/**
 * The literal value of an expression node: strings (also adjacent ones, joined), numbers, booleans, None, lists of
 * them.
 */
export function literalOf(py: PythonSyntax, node: SyntaxNode): PyLiteral {
  const span = spanOf(py, node);
  switch (node.name) {
    case 'String': {
      const decoded = decodeString(py, node);
      return decoded ? { kind: 'string', ...decoded, span } : { kind: 'dynamic', span };
    }
    case 'ContinuedString': {
      let value = '';
      const offsets: number[] = [];
      for (const part of childrenOf(node)) {
        const decoded = part.name === 'String' ? decodeString(py, part) : undefined;
        if (!decoded) return { kind: 'dynamic', span };
        value += decoded.value;
        offsets.push(...decoded.offsets.slice(0, -1));
      }
      offsets.push(node.to);
      return { kind: 'string', value, offsets, span };
    }
    case 'Number': {
      const value = Number(textOf(py, node).replace(/_/g, ''));
      return Number.isNaN(value) ? { kind: 'dynamic', span } : { kind: 'number', value, span };
    }
    case 'UnaryExpression': {
      const [operator, operand] = childrenOf(node);
      const inner = operand ? literalOf(py, operand) : undefined;
      if (operator && textOf(py, operator) === '-' && inner?.kind === 'number')
        return { kind: 'number', value: -inner.value, span };
      return { kind: 'dynamic', span };
    }
    case 'Boolean':
      return { kind: 'bool', value: textOf(py, node) === 'True', span };
    case 'None':
      return { kind: 'none', value: null, span };
    case 'ArrayExpression':
    case 'TupleExpression':
      return { kind: 'list', items: childrenOf(node).map((item) => literalOf(py, item)), span };
    default:
      return { kind: 'dynamic', span };
  }
}

/** A string literal's text without its quotes and prefix: where renaming it or pointing into it belongs. */
export function innerSpan(literal: Extract<PyLiteral, { kind: 'string' }>): Span {
  return { start: literal.offsets[0], end: literal.offsets[literal.offsets.length - 1], file: literal.span.file };
}

/** Whether a literal holds anything computed (a variable, a call, an f-string). */
export function isDynamic(literal: PyLiteral): boolean {
  return literal.kind === 'dynamic' || (literal.kind === 'list' && literal.items.some(isDynamic));
}

export interface CallArguments {
  positional: SyntaxNode[];
  keywords: Map<string, { name: SyntaxNode; value: SyntaxNode }>;
  /** `*args`, `**kwargs`: what cannot be read statically. */
  spread: SyntaxNode[];
}

/** The arguments of a call (or a decorator, or a class's bases), keyword arguments by name. */
export function argumentsOf(py: PythonSyntax, call: SyntaxNode): CallArguments {
  const result: CallArguments = { positional: [], keywords: new Map(), spread: [] };
  const argList = call.getChild('ArgList');
  if (!argList) return result;
  const children = childrenOf(argList);
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.name === 'VariableName' && children[i + 1]?.name === 'AssignOp' && children[i + 2]) {
      result.keywords.set(textOf(py, child), { name: child, value: children[i + 2] });
      i += 2;
    } else if (child.name === 'ArithOp' || child.name === '*' || child.name === '**') {
      result.spread.push(child);
    } else result.positional.push(child);
  }
  return result;
}

/** `a.b.c` of a MemberExpression or VariableName as its dotted parts, or undefined for anything else. */
export function dottedName(py: PythonSyntax, node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.name === 'VariableName') return textOf(py, node);
  if (node.name === 'MemberExpression') {
    const children = childrenOf(node);
    if (children.length === 2 && children[1].name === 'PropertyName') {
      const left = dottedName(py, children[0]);
      return left === undefined ? undefined : `${left}.${textOf(py, children[1])}`;
    }
  }
  return undefined;
}
