import * as path from 'node:path';
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver-types';
import { BUILTINS, EVENTS, SOFT_EVENTS } from '../read/predicates';
import { itemsInScope } from '../read/bindings';
import { ON_FAIL, SOFT_ON_FAIL } from '../read/readTipsRules';
import { resolveStatePath, typeName, type StateModel, type StateType } from '../read/readState';
import { type FlowNodeKind } from '../read/flow';
import { RESERVED_WORDS } from '../../../parse/predicate/predicate';
import { predicateCursor, type PredicateCursor } from '../../../parse/predicate/predicateCursor';
import { rangeOf, type DocumentView } from '../../../analysis/documentView';
import { markdownSlot, pythonSlot, yamlSlot, type Request } from './completionSlots';
import type { SkillplusAnalysis } from '../read/analysis';

/** Host tools offered after `tool=` besides the package's scripts and the tools it already names. */
const HOST_TOOLS = ['web_search', 'Read', 'Bash'];
const BAREWORD = /^[A-Za-z_][A-Za-z0-9_.:/@-]*$/;
const MAX_SCRIPTS = 200;

/** Completion in any file of a skill+ package. */
export function packageCompletion(view: DocumentView<SkillplusAnalysis>, offset: number): CompletionItem[] {
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
