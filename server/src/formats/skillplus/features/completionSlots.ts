import * as path from 'node:path';
import type { SyntaxNode } from '@lezer/common';
import { FLOW_ARGUMENTS, FLOW_NODE_KINDS, type FlowNodeKind } from '../read/flow';
import { RULE_KEYS, SOFT_ON_FAIL, TIP_KEYS } from '../read/readTipsRules';
import { type SkillPlusPackage } from '../read/readPackage';
import { childrenOf, dottedName, textOf, type PythonSyntax } from '../../../parse/python/python';
import type { DocumentView } from '../../../analysis/documentView';
import type { SkillplusAnalysis } from '../read/analysis';

// Where the cursor is in a file of a skill+ package, per file kind: what completion offers there.

/** What the cursor is in: a predicate, a State path argument, an id list, a template, or a key. */
export type Slot =
  | { kind: 'predicate'; prefix: string; owner: 'tip' | 'soft-rule' | 'hard-rule' | 'until' }
  | { kind: 'into'; prefix: string; node: FlowNodeKind | undefined }
  | { kind: 'path'; prefix: string; want: 'list' | 'any' }
  | { kind: 'rule' | 'tool' | 'on_fail'; prefix: string }
  | { kind: 'template'; prefix: string }
  | { kind: 'keys'; prefix: string; keys: string[] };

export interface Request {
  view: DocumentView<SkillplusAnalysis>;
  pkg: SkillPlusPackage;
  offset: number;
}

/** The string literal under the cursor in a Python file, and the text of it before the cursor. */
function stringAt(py: PythonSyntax, offset: number): { node: SyntaxNode; prefix: string } | undefined {
  let node: SyntaxNode | null = py.tree.resolveInner(offset, -1);
  while (node && node.name !== 'String' && node.name !== 'FormatString') node = node.parent;
  if (!node || offset <= node.from) return undefined;
  const text = textOf(py, node);
  const quote = /^[A-Za-z]*("""|'''|"|')/.exec(text);
  if (!quote) return undefined;
  const start = node.from + quote[0].length;
  const closed = text.length >= quote[0].length + quote[1].length && text.endsWith(quote[1]);
  if (offset < start || (closed && offset > node.to - quote[1].length)) return undefined;
  return { node, prefix: py.text.slice(start, offset) };
}

/** The keyword an argument is passed as (`into=`), and the call or decorator it belongs to. */
function argumentOf(
  py: PythonSyntax,
  value: SyntaxNode,
): { keyword?: string; position: number; callee?: string } | undefined {
  let argument = value;
  if (argument.parent?.name === 'ArrayExpression') argument = argument.parent;
  const list = argument.parent;
  if (list?.name !== 'ArgList') return undefined;
  const children = childrenOf(list);
  const index = children.findIndex((child) => child.from === argument.from);
  const keyword =
    children[index - 1]?.name === 'AssignOp' && children[index - 2]?.name === 'VariableName'
      ? textOf(py, children[index - 2])
      : undefined;
  const position = children
    .slice(0, index)
    .filter(
      (child) =>
        child.name !== 'AssignOp' &&
        !(child.name === 'VariableName' && children[children.indexOf(child) + 1]?.name === 'AssignOp'),
    ).length;
  const owner = list.parent;
  const callee =
    owner?.name === 'CallExpression'
      ? dottedName(py, owner.firstChild)
      : owner?.name === 'Decorator'
        ? `@${textOf(py, owner.getChild('VariableName') ?? owner)}`
        : undefined;
  return { ...(keyword ? { keyword } : {}), position, ...(callee ? { callee } : {}) };
}

export function pythonSlot(request: Request): Slot | undefined {
  const py = request.pkg.python.get(request.view.file);
  if (!py) return undefined;
  const string = stringAt(py, request.offset);
  if (!string) return undefined;
  const argument = argumentOf(py, string.node);
  if (!argument) return undefined;
  const kind = argument.callee?.startsWith('flow.') ? (argument.callee.slice(5) as FlowNodeKind) : undefined;
  switch (argument.keyword) {
    case 'when':
      return argument.callee === '@rule' ? { kind: 'predicate', prefix: string.prefix, owner: 'hard-rule' } : undefined;
    case 'until':
      return { kind: 'predicate', prefix: string.prefix, owner: 'until' };
    case 'into':
      return { kind: 'into', prefix: string.prefix, node: kind && FLOW_NODE_KINDS.includes(kind) ? kind : undefined };
    case 'on':
      return { kind: 'path', prefix: string.prefix, want: 'any' };
    case 'over':
      return { kind: 'path', prefix: string.prefix, want: 'list' };
    case 'rule':
      return { kind: 'rule', prefix: string.prefix };
    case 'tool':
      return { kind: 'tool', prefix: string.prefix };
    case 'on_fail':
      return argument.callee === '@rule' ? { kind: 'on_fail', prefix: string.prefix } : undefined;
    case undefined:
      return argument.position === 1 && (kind === 'agent' || kind === 'ask' || kind === 'confirm')
        ? { kind: 'template', prefix: string.prefix }
        : undefined;
    default:
      return argument.keyword === 'instruction' || argument.keyword === 'question' || argument.keyword === 'prompt'
        ? { kind: 'template', prefix: string.prefix }
        : undefined;
  }
}

interface KeyLine {
  indent: number;
  key: string;
  item: boolean;
}

function keyLines(lines: string[]): KeyLine[] {
  return lines.flatMap((line) => {
    const match = /^(\s*)(-\s+)?([A-Za-z_][\w-]*):/.exec(line);
    return match ? [{ indent: match[1].length + (match[2]?.length ?? 0), key: match[3], item: !!match[2] }] : [];
  });
}

/** The current line up to the cursor, and the keys of the lines above (nearest first) and below it. */
function lineBefore(text: string, offset: number): { line: string; above: KeyLine[]; below: KeyLine[] } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return {
    line: text.slice(start, offset),
    above: keyLines(text.slice(0, start).split('\n').reverse()),
    below: end === -1 ? [] : keyLines(text.slice(end + 1).split('\n')),
  };
}

/** The value of a one-line YAML scalar before the cursor, without an opening quote. */
function scalarPrefix(value: string): string {
  return /^["']/.test(value) ? value.slice(1) : value;
}

/** The entry of a flow sequence (`[a, b|`) being typed, or the whole value. */
function entryPrefix(value: string): string {
  return value
    .slice(Math.max(value.lastIndexOf('['), value.lastIndexOf(',')) + 1)
    .trimStart()
    .replace(/^["']/, '');
}

export function markdownSlot(request: Request): Slot | undefined {
  const { view, pkg, offset } = request;
  const tip = pkg.tips.find((item) => item.file === view.file);
  const rule = pkg.rules.find((item) => item.file === view.file);
  const inReferences = path.basename(path.dirname(view.file)) === 'references';
  if (!tip && !rule && !inReferences && path.basename(path.dirname(view.file)) !== 'rules') return undefined;
  // The frontmatter as typed: it need not parse (a `[` just opened).
  const text = view.text;
  if (!text.startsWith('---')) return undefined;
  const close = text.slice(3).search(/\n---[ \t]*(\r?\n|$)/);
  if (close >= 0 && offset > close + 4) return undefined;
  const { line, above } = lineBefore(text, offset);
  if (offset < text.indexOf('\n') + 1) return undefined;
  const soft = !!rule?.onFail && SOFT_ON_FAIL.has(rule.onFail.value);
  const owner = inReferences ? 'tip' : soft ? 'soft-rule' : 'hard-rule';
  const keyValue = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
  if (keyValue?.[1] === 'when') return { kind: 'predicate', prefix: scalarPrefix(keyValue[2]), owner };
  if (keyValue?.[1] === 'on_fail' && !inReferences) return { kind: 'on_fail', prefix: scalarPrefix(keyValue[2]) };
  const item = /^\s+-\s+(.*)$/.exec(line);
  if (item && above[0]?.key === 'when') return { kind: 'predicate', prefix: scalarPrefix(item[1]), owner };
  if (/^[A-Za-z_]*$/.test(line)) {
    const present = new Set(above.map((entry) => entry.key));
    return {
      kind: 'keys',
      prefix: line,
      keys: (inReferences ? TIP_KEYS : RULE_KEYS).filter((key) => !present.has(key)),
    };
  }
  return undefined;
}

const NODE_KEYS = new Set<string>(FLOW_NODE_KINDS);

/**
 * The mapping a line at `indent` belongs to: its keys (above and below the line) and the key of the list item that
 * opens it.
 */
function mappingOf(above: KeyLine[], below: KeyLine[], indent: number): { head?: string; keys: Set<string> } {
  const keys = new Set<string>();
  for (const entry of below) {
    if (entry.indent < indent || (entry.indent === indent && entry.item)) break;
    if (entry.indent === indent) keys.add(entry.key);
  }
  for (const entry of above) {
    if (entry.indent > indent) continue;
    if (entry.indent < indent) break;
    keys.add(entry.key);
    if (entry.item) return { head: entry.key, keys };
  }
  return { keys };
}

export function yamlSlot(request: Request): Slot | undefined {
  const { view, pkg, offset } = request;
  if (pkg.flow?.file !== view.file) return undefined;
  const { line, above, below } = lineBefore(view.text, offset);
  const opening = /^\s*-\s+/.test(line) || /^\s*-$/.test(line);
  const indent = /^\s*(-\s+)?/.exec(line)![0].length;
  const mapping = opening ? { keys: new Set<string>() } : mappingOf(above, below, indent);
  const kind = mapping.head && NODE_KEYS.has(mapping.head) ? (mapping.head as FlowNodeKind) : undefined;
  const parent = above.find((entry) => entry.indent < indent);
  const keyValue = /^\s*(?:-\s+)?([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
  if (keyValue) {
    const [, key, value] = keyValue;
    if (key === 'until') return { kind: 'predicate', prefix: scalarPrefix(value), owner: 'until' };
    if (key === 'into') return { kind: 'into', prefix: scalarPrefix(value), node: kind };
    if (key === 'on') return { kind: 'path', prefix: scalarPrefix(value), want: 'any' };
    if (key === 'over') return { kind: 'path', prefix: scalarPrefix(value), want: 'list' };
    if (key === 'rule' || key === 'tool') return { kind: key, prefix: entryPrefix(value) };
    if (key === 'instruction' || key === 'question' || key === 'prompt')
      return { kind: 'template', prefix: scalarPrefix(value) };
    return undefined;
  }
  const item = /^\s*-\s+(.*)$/.exec(line);
  if (item && parent && ['rule', 'tool', 'until'].includes(parent.key)) {
    return parent.key === 'until'
      ? { kind: 'predicate', prefix: scalarPrefix(item[1]), owner: 'until' }
      : { kind: parent.key as 'rule' | 'tool', prefix: item[1] };
  }
  const key = /^\s*(?:-\s+)?([A-Za-z_]*)$/.exec(line);
  if (!key) return undefined;
  // A new item in a `nodes:` list: one kind key, whose value is the node's id.
  if (opening && (parent?.key === 'nodes' || parent?.key === 'otherwise'))
    return { kind: 'keys', prefix: key[1], keys: FLOW_NODE_KINDS };
  if (opening && parent?.key === 'stages') return { kind: 'keys', prefix: key[1], keys: ['id', 'goal', 'nodes'] };
  if (kind) {
    const container =
      kind === 'loop' || kind === 'fanout' ? ['nodes'] : kind === 'branch' ? ['cases', 'otherwise'] : [];
    return {
      kind: 'keys',
      prefix: key[1],
      keys: [...FLOW_ARGUMENTS[kind], ...container].filter((name) => !mapping.keys.has(name)),
    };
  }
  if (mapping.head === 'id')
    return { kind: 'keys', prefix: key[1], keys: ['goal', 'nodes'].filter((name) => !mapping.keys.has(name)) };
  return undefined;
}
