import * as path from 'node:path';
import type { SyntaxNode } from '@lezer/common';
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver-types';
import { itemsInScope } from '../../formats/skillplus';
import { FLOW_ARGUMENTS, FLOW_NODE_KINDS, type FlowNodeKind } from '../../formats/skillplus';
import { BUILTINS, EVENTS, SOFT_EVENTS } from '../../formats/skillplus';
import type { SkillPlusPackage } from '../../formats/skillplus';
import { resolveStatePath, typeName, type StateModel, type StateType } from '../../formats/skillplus';
import { ON_FAIL, RULE_KEYS, SOFT_ON_FAIL, TIP_KEYS } from '../../formats/skillplus';
import { RESERVED_WORDS } from '../../parse/predicate';
import { predicateCursor, type PredicateCursor } from '../../parse/predicateCursor';
import { childrenOf, dottedName, textOf, type PythonSyntax } from '../../parse/python';
import { rangeOf, type DocumentView } from '../document/documentView';

/** Host tools offered after `tool=` besides the package's scripts and the tools it already names. */
const HOST_TOOLS = ['web_search', 'Read', 'Bash'];
const BAREWORD = /^[A-Za-z_][A-Za-z0-9_.:/@-]*$/;
const MAX_SCRIPTS = 200;

/** What the cursor is in: a predicate, a State path argument, an id list, a template, or a key. */
type Slot =
  | { kind: 'predicate'; prefix: string; owner: 'tip' | 'soft-rule' | 'hard-rule' | 'until' }
  | { kind: 'into'; prefix: string; node: FlowNodeKind | undefined }
  | { kind: 'path'; prefix: string; want: 'list' | 'any' }
  | { kind: 'rule' | 'tool' | 'on_fail'; prefix: string }
  | { kind: 'template'; prefix: string }
  | { kind: 'keys'; prefix: string; keys: string[] };

interface Request {
  view: DocumentView;
  pkg: SkillPlusPackage;
  offset: number;
}

/** Completion in any file of a skill+ package. */
export function packageCompletion(view: DocumentView, offset: number): CompletionItem[] {
  const pkg = view.analysis.skillplus;
  if (!pkg) return [];
  const request = { view, pkg, offset };
  const slot = view.file.endsWith('.py')
    ? pythonSlot(request)
    : view.file.endsWith('.md')
      ? markdownSlot(request)
      : view.file.endsWith('.yaml') || view.file.endsWith('.yml')
        ? yamlSlot(request)
        : undefined;
  if (!slot) return [];
  switch (slot.kind) {
    case 'predicate':
      return predicateItems(request, predicateCursor(slot.prefix), slot.owner);
    case 'into':
      return pathItems(request, slot.prefix, (type) => fitsInto(slot.node, type), false);
    case 'path':
      return pathItems(request, slot.prefix, (type) => slot.want === 'any' || type.kind === 'list', false);
    case 'template': {
      const open = slot.prefix.lastIndexOf('{');
      if (open < 0 || slot.prefix.lastIndexOf('}') > open || slot.prefix[open - 1] === '{') return [];
      return pathItems(request, slot.prefix.slice(open + 1), () => true, true);
    }
    case 'rule':
      return words(
        request,
        slot.prefix,
        pkg.rules.map((rule) => ({
          label: rule.id,
          detail: `${rule.onFail?.value ?? '?'} · ${path.basename(rule.file)}`,
          kind: CompletionItemKind.Reference,
        })),
      );
    case 'tool':
      return words(
        request,
        slot.prefix,
        toolNames(request).map((label) => ({
          label,
          kind: label.startsWith('scripts/') ? CompletionItemKind.File : CompletionItemKind.Function,
        })),
      );
    case 'on_fail':
      return words(
        request,
        slot.prefix,
        ON_FAIL.map((label) => ({
          label,
          detail: SOFT_ON_FAIL.has(label) ? 'soft: its text is injected' : 'hard: a gate or a strong instruction',
          kind: CompletionItemKind.EnumMember,
        })),
      );
    case 'keys':
      return words(
        request,
        slot.prefix,
        slot.keys.map((label) => ({ label, kind: CompletionItemKind.Property, insertText: `${label}: ` })),
      );
  }
}

/** Items replacing the word being typed (`prefix` is what the word has so far). */
function words(
  request: Request,
  prefix: string,
  items: (Omit<CompletionItem, 'textEdit'> & { insertText?: string })[],
): CompletionItem[] {
  const word = /[A-Za-z0-9_.:/@-]*$/.exec(prefix)![0];
  const range = rangeOf(request.view, {
    start: request.offset - word.length,
    end: request.offset,
    file: request.view.file,
  });
  // Kept in the order given (a Literal's values as declared, fields as in the class), not alphabetically.
  return items.map(({ insertText, ...item }, index) => ({
    sortText: String(index).padStart(4, '0'),
    ...item,
    textEdit: { range, newText: insertText ?? item.label },
  }));
}

function fitsInto(kind: FlowNodeKind | undefined, type: StateType): boolean {
  if (kind === 'confirm') return type.kind === 'bool' || type.kind === 'model';
  if (kind === 'ask') return ['str', 'int', 'float', 'literal', 'model'].includes(type.kind);
  if (kind === 'fanout') return type.kind === 'list' || type.kind === 'model';
  return true;
}

/** The model a dotted path leads to, from the State (or, for templates, from an item in scope). */
function modelAt(request: Request, base: string[], items: Map<string, StateType | undefined>): StateModel | undefined {
  const state = request.pkg.state;
  if (!state) return undefined;
  if (base.length === 0) return state.root;
  let type: StateType | undefined;
  if (items.has(base[0])) {
    type = items.get(base[0]);
    for (const segment of base.slice(1)) {
      const model = type?.kind === 'model' ? state.models.get(type.name) : undefined;
      type = model?.fields.find((field) => field.name === segment)?.type;
      if (type?.kind === 'list') type = type.item;
    }
  } else {
    const resolved = resolveStatePath(state, base, true);
    type = resolved.ok ? (resolved.type.kind === 'list' ? resolved.type.item : resolved.type) : undefined;
  }
  return type?.kind === 'model' ? state.models.get(type.name) : undefined;
}

/** State paths (dotted into models) whose type fits; templates also offer the fan-out items in scope. */
function pathItems(
  request: Request,
  prefix: string,
  fits: (type: StateType) => boolean,
  template: boolean,
): CompletionItem[] {
  const segments = prefix.split('.');
  const base = segments.slice(0, -1);
  const items = template ? templateItems(request) : new Map<string, StateType | undefined>();
  const model = modelAt(request, base, items);
  const found: (Omit<CompletionItem, 'textEdit'> & { insertText?: string })[] = (model?.fields ?? [])
    .filter((field) => fits(field.type))
    .map((field) => ({
      label: field.name,
      kind: CompletionItemKind.Field,
      detail: `${typeName(field.type)}${field.nullable ? ' | None' : ''}`,
      ...(field.input ? { documentation: 'input' } : {}),
    }));
  if (base.length === 0)
    for (const [name, type] of items)
      found.push({
        label: name,
        kind: CompletionItemKind.Variable,
        detail: `item${type ? `: ${typeName(type)}` : ''}`,
      });
  return words(request, segments[segments.length - 1], found);
}

/** The fan-out items in scope at the template under the cursor. */
function templateItems(request: Request): Map<string, StateType | undefined> {
  const { pkg, offset, view } = request;
  const node = pkg.flow?.nodes.find(
    (candidate) =>
      candidate.text &&
      candidate.text.span.file === view.file &&
      candidate.text.span.start <= offset &&
      offset <= candidate.text.span.end,
  );
  return node && pkg.flow ? itemsInScope(pkg.flow, node, pkg.state) : new Map();
}

function toolNames(request: Request): string[] {
  const { pkg, view } = request;
  const scripts: string[] = [];
  const walk = (relative: string) => {
    for (const entry of view.fs.readDirectory(path.join(pkg.dir, relative))) {
      if (scripts.length >= MAX_SCRIPTS) return;
      if (entry.kind === 'file') scripts.push(`${relative}/${entry.name}`);
      else if (entry.kind === 'directory' && !entry.name.startsWith('.') && entry.name !== '__pycache__')
        walk(`${relative}/${entry.name}`);
    }
  };
  walk('scripts');
  const named = pkg.flow?.nodes.flatMap((node) => node.tools.map((tool) => tool.value)) ?? [];
  return [...new Set([...scripts.sort(), ...named, ...HOST_TOOLS])];
}

function predicateItems(request: Request, cursor: PredicateCursor, owner: string): CompletionItem[] {
  const { pkg } = request;
  switch (cursor.kind) {
    case 'connective':
      return words(
        request,
        '',
        ['and', 'or'].map((label) => ({ label, kind: CompletionItemKind.Keyword, insertText: `${label} ` })),
      );
    case 'operator': {
      const type =
        cursor.path[0] in BUILTINS ? undefined : pkg.state ? resolveStatePath(pkg.state, cursor.path) : undefined;
      const numeric =
        cursor.path[0] === 'round' || (type?.ok && (type.type.kind === 'int' || type.type.kind === 'float'));
      const operators = ['=', '!=', 'in [', ...(numeric ? ['>=', '<=', '>', '<'] : [])];
      return words(request, '', [
        ...operators.map((label) => ({ label, kind: CompletionItemKind.Operator })),
        ...['and', 'or'].map((label) => ({ label, kind: CompletionItemKind.Keyword, insertText: `${label} ` })),
      ]);
    }
    case 'value':
      return valueItems(request, cursor, owner);
    case 'path': {
      if (cursor.base.length === 1 && cursor.base[0] === 'item') {
        // `item` is the current fan-out's element: offer the fields of every fan-out's item model.
        const fields = new Map<string, string>();
        for (const node of pkg.flow?.nodes ?? []) {
          if (node.kind !== 'fanout' || !node.over || !pkg.state) continue;
          const over = resolveStatePath(pkg.state, node.over.value.split('.'));
          const model =
            over.ok && over.type.kind === 'list' && over.type.item.kind === 'model'
              ? pkg.state.models.get(over.type.item.name)
              : undefined;
          for (const field of model?.fields ?? [])
            fields.set(field.name, `${typeName(field.type)} (item of ${node.id})`);
        }
        return words(
          request,
          cursor.partial,
          [...fields].map(([label, detail]) => ({ label, detail, kind: CompletionItemKind.Field })),
        );
      }
      const model = modelAt(request, cursor.base, new Map());
      const found: (Omit<CompletionItem, 'textEdit'> & { insertText?: string })[] = (model?.fields ?? []).map(
        (field) => ({
          label: field.name,
          kind: CompletionItemKind.Field,
          detail: `${typeName(field.type)}${field.nullable ? ' | None' : ''}`,
        }),
      );
      if (cursor.base.length === 0) {
        for (const [label, detail] of Object.entries(BUILTINS))
          found.push({ label, detail, kind: CompletionItemKind.Keyword, sortText: `~${label}` });
        found.push({ label: 'not', kind: CompletionItemKind.Keyword, insertText: 'not ', sortText: '~~not' });
      }
      return words(request, cursor.partial, found);
    }
  }
}

function valueItems(request: Request, cursor: PredicateCursor & { kind: 'value' }, owner: string): CompletionItem[] {
  const { pkg } = request;
  const [first] = cursor.path;
  let values: { label: string; detail?: string }[] = [];
  if (first === 'stage')
    values =
      pkg.flow?.stages.map((stage) => ({ label: stage.id, ...(stage.goal ? { detail: stage.goal.value } : {}) })) ?? [];
  else if (first === 'node')
    values =
      pkg.flow?.nodes.map((node) => ({
        label: node.id,
        detail: `${node.kind}${node.stage ? ` in ${node.stage}` : ''}`,
      })) ?? [];
  else if (first === 'event')
    values = EVENTS.filter((event) => owner === 'hard-rule' || SOFT_EVENTS.has(event)).map((label) => ({ label }));
  else if (first === 'tool') values = toolNames(request).map((label) => ({ label }));
  else if (!(first in BUILTINS) && pkg.state) {
    const resolved = resolveStatePath(pkg.state, cursor.path);
    if (resolved.ok) {
      const type = resolved.type.kind === 'list' ? resolved.type.item : resolved.type;
      if (type.kind === 'literal')
        values = type.values.map((value) => ({ label: String(value), detail: typeName(resolved.type) }));
      if (type.kind === 'bool') values = [{ label: 'true' }, { label: 'false' }];
      if (resolved.nullable) values.push({ label: 'null' });
    }
  }
  // Quoted only where a bare word would not read back as the same string.
  return words(
    request,
    cursor.partial,
    values.map((value) => ({
      ...value,
      kind: CompletionItemKind.EnumMember,
      insertText:
        cursor.quote ||
        (BAREWORD.test(value.label) && !RESERVED_WORDS.has(value.label)) ||
        ['true', 'false', 'null'].includes(value.label)
          ? value.label
          : JSON.stringify(value.label),
    })),
  );
}

// ——— Where the cursor is, per file kind ———

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

function pythonSlot(request: Request): Slot | undefined {
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

function markdownSlot(request: Request): Slot | undefined {
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

function yamlSlot(request: Request): Slot | undefined {
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
