import * as path from 'node:path';
import type { Span } from '../../../parse/text/lineIndex';
import { parsePredicate, predicateAtoms, type PathRef, type Predicate } from '../../../parse/predicate/predicate';
import { itemsInScope, placeholdersOf } from './bindings';
import { nodesById, type FlowNode, type FlowText } from './flow';
import { BUILTINS, textSpan } from './predicates';
import type { SkillPlusPackage } from './readPackage';
import type { StateModel, StateSchema } from './readState';

/**
 * Everything a name in a skill+ package can stand for. Keys are stable
 * strings (`field:State.budget`, `stage:research`), so one symbol's
 * occurrences can be gathered from every file.
 */
export type PackageSymbol =
  | { kind: 'field'; model: string; name: string }
  | { kind: 'stage' | 'node' | 'rule' | 'tip' | 'builtin' | 'event'; id: string }
  | { kind: 'script'; path: string }
  | { kind: 'item'; fanout: string; name: string };

export type OccurrenceRole = 'definition' | 'write' | 'read' | 'predicate' | 'reference';

export interface Occurrence {
  key: string;
  symbol: PackageSymbol;
  span: Span;
  role: OccurrenceRole;
  /** Who holds it: a flow node, a tip, a rule, a loop, spec.md. */
  holder: string;
  /** A predicate occurrence: the whole predicate text, for hovers that describe it. */
  predicate?: FlowText;
}

export function symbolKey(symbol: PackageSymbol): string {
  switch (symbol.kind) {
    case 'field':
      return `field:${symbol.model}.${symbol.name}`;
    case 'script':
      return `script:${symbol.path}`;
    case 'item':
      return `item:${symbol.fanout}`;
    default:
      return `${symbol.kind}:${symbol.id}`;
  }
}

/**
 * The field occurrences of a dotted path from `model`, one per segment that resolves (dotting into models and, with
 * `intoItems`, list items).
 */
function fieldSegments(
  state: StateSchema,
  model: StateModel | undefined,
  segments: { name: string; span: Span }[],
  intoItems: boolean,
): { symbol: PackageSymbol; span: Span }[] {
  const found: { symbol: PackageSymbol; span: Span }[] = [];
  for (const segment of segments) {
    const field = model?.fields.find((candidate) => candidate.name === segment.name);
    if (!model || !field) break;
    found.push({ symbol: { kind: 'field', model: model.name, name: field.name }, span: segment.span });
    let type = field.type;
    if (intoItems && type.kind === 'list') type = type.item;
    model = type.kind === 'model' ? state.models.get(type.name) : undefined;
  }
  return found;
}

/** The segments of a dotted text, with their file spans. */
function textSegments(text: FlowText, from = 0, value = text.value): { name: string; span: Span }[] {
  const segments: { name: string; span: Span }[] = [];
  let start = from;
  for (const name of value.split('.')) {
    segments.push({ name, span: textSpan(text, start, start + name.length) });
    start += name.length + 1;
  }
  return segments;
}

/**
 * Every place a package names a field, stage, node, rule, tip, script,
 * built-in or fan-out item, with its role: where it is defined, written
 * (`into=`), read (placeholders, `on=`, `over=`), tested in a predicate,
 * or referred to (`rule=`, `tool=`, `stage=X`, spec.md). Definition,
 * references, rename and hover all read this one list.
 */
export function packageOccurrences(pkg: SkillPlusPackage): Occurrence[] {
  let known = occurrenceCache.get(pkg);
  if (!known) {
    known = collectOccurrences(pkg);
    occurrenceCache.set(pkg, known);
  }
  return known;
}

/** One list per package read: every request on an unchanged package reuses it. */
const occurrenceCache = new WeakMap<SkillPlusPackage, Occurrence[]>();

function collectOccurrences(pkg: SkillPlusPackage): Occurrence[] {
  const out: Occurrence[] = [];
  const add = (symbol: PackageSymbol, span: Span, role: OccurrenceRole, holder: string, predicate?: FlowText) =>
    out.push({ key: symbolKey(symbol), symbol, span, role, holder, ...(predicate ? { predicate } : {}) });
  const { flow, state } = pkg;
  const root = state?.root;

  for (const model of state?.models.values() ?? [])
    for (const field of model.fields)
      add({ kind: 'field', model: model.name, name: field.name }, field.nameSpan, 'definition', `class ${model.name}`);

  const predicate = (text: FlowText, holder: string) => {
    const read = parsePredicate(text.value);
    if (read.predicate) predicateOccurrences(read.predicate, text, holder, state, add);
  };

  for (const stage of flow?.stages ?? [])
    add({ kind: 'stage', id: stage.id }, stage.idSpan, 'definition', `stage "${stage.id}"`);
  for (const node of flow?.nodes ?? []) {
    const holder = `node "${node.id}"`;
    add({ kind: 'node', id: node.id }, node.idSpan, 'definition', holder);
    if (node.item && node.kind === 'fanout')
      add({ kind: 'item', fanout: node.id, name: node.item.value }, node.item.span, 'definition', holder);
    if (state && root) {
      if (node.into)
        for (const item of fieldSegments(state, root, textSegments(node.into), false))
          add(item.symbol, item.span, 'write', holder);
      for (const text of [node.on, node.over])
        if (text)
          for (const item of fieldSegments(state, root, textSegments(text), false))
            add(item.symbol, item.span, 'read', holder);
      placeholderOccurrences(pkg, node, holder, add);
    }
    for (const rule of node.rules) add({ kind: 'rule', id: rule.value }, rule.span, 'reference', holder);
    for (const tool of node.tools)
      if (tool.value.startsWith('scripts/')) add({ kind: 'script', path: tool.value }, tool.span, 'reference', holder);
    for (const text of node.until) predicate(text, `loop "${node.id}"`);
  }
  for (const tip of pkg.tips) {
    add({ kind: 'tip', id: tip.id }, tip.frontmatter.anchor, 'definition', `tip "${tip.id}"`);
    for (const text of tip.when) predicate(text, `tip "${tip.id}"`);
  }
  for (const rule of pkg.rules) {
    add({ kind: 'rule', id: rule.id }, rule.idSpan, 'definition', `rule "${rule.id}"`);
    for (const text of rule.when) predicate(text, `rule "${rule.id}"`);
  }
  for (const item of pkg.spec?.ids ?? [])
    add(
      item.section === 'stages' ? { kind: 'stage', id: item.id } : { kind: 'rule', id: item.id },
      item.span,
      'reference',
      'spec.md',
    );
  return out;
}

function placeholderOccurrences(
  pkg: SkillPlusPackage,
  node: FlowNode,
  holder: string,
  add: (symbol: PackageSymbol, span: Span, role: OccurrenceRole, holder: string) => void,
) {
  const state = pkg.state!;
  const items = itemsInScope(pkg.flow!, node, state);
  const byId = nodesById(pkg.flow!);
  const fanouts = new Map<string, FlowNode>();
  for (
    let parent = node.parent ? byId.get(node.parent) : undefined;
    parent;
    parent = parent.parent ? byId.get(parent.parent) : undefined
  ) {
    if (parent.kind === 'fanout' && parent.item && !fanouts.has(parent.item.value))
      fanouts.set(parent.item.value, parent);
  }
  for (const placeholder of placeholdersOf(node)) {
    const text = node.text!;
    const start = placeholder.span.start;
    // The placeholder's position in the text, from its file offset.
    const from = text.offsets.indexOf(start);
    if (from < 0) continue;
    const segments = textSegments(text, from, placeholder.path);
    const fanout = fanouts.get(segments[0].name);
    if (fanout) {
      add({ kind: 'item', fanout: fanout.id, name: segments[0].name }, segments[0].span, 'read', holder);
      const type = items.get(segments[0].name);
      const model = type?.kind === 'model' ? state.models.get(type.name) : undefined;
      for (const item of fieldSegments(state, model, segments.slice(1), true))
        add(item.symbol, item.span, 'read', holder);
      continue;
    }
    for (const item of fieldSegments(state, state.root, segments, true)) add(item.symbol, item.span, 'read', holder);
  }
}

function predicateOccurrences(
  predicate: Predicate,
  text: FlowText,
  holder: string,
  state: StateSchema | undefined,
  add: (symbol: PackageSymbol, span: Span, role: OccurrenceRole, holder: string, predicate?: FlowText) => void,
) {
  for (const atom of predicateAtoms(predicate)) {
    const first = atom.path.segments[0];
    if (first.name in BUILTINS) {
      add({ kind: 'builtin', id: first.name }, textSpan(text, first.start, first.end), 'predicate', holder, text);
      const values = atom.kind === 'compare' ? [atom.value] : atom.kind === 'in' ? atom.values : [];
      for (const value of values) {
        if (value.kind !== 'string') continue;
        const span = textSpan(text, value.bare ? value.start : value.start + 1, value.bare ? value.end : value.end - 1);
        const id = String(value.value);
        if (first.name === 'stage' || first.name === 'node')
          add({ kind: first.name, id }, span, 'reference', holder, text);
        else if (first.name === 'event') add({ kind: 'event', id }, span, 'predicate', holder, text);
        else if (first.name === 'tool' && id.startsWith('scripts/'))
          add({ kind: 'script', path: id.split('@')[0] }, span, 'reference', holder, text);
      }
      continue;
    }
    if (state?.root)
      for (const item of fieldSegments(state, state.root, pathSegments(atom.path, text), false))
        add(item.symbol, item.span, 'predicate', holder, text);
  }
}

function pathSegments(path: PathRef, text: FlowText): { name: string; span: Span }[] {
  return path.segments.map((segment) => ({ name: segment.name, span: textSpan(text, segment.start, segment.end) }));
}

/** The occurrence under a file offset, preferring the narrowest. */
export function occurrenceAt(occurrences: Occurrence[], file: string, offset: number): Occurrence | undefined {
  let best: Occurrence | undefined;
  for (const item of occurrences) {
    if (item.span.file !== file || offset < item.span.start || offset > item.span.end) continue;
    if (!best || item.span.end - item.span.start < best.span.end - best.span.start) best = item;
  }
  return best;
}

/** A rule's id comes from its file name when nothing else gives it. */
export function ruleIdFromFileName(pkg: SkillPlusPackage, id: string): string | undefined {
  const rule = pkg.rules.find((item) => item.id === id);
  if (!rule || rule.source !== 'md' || rule.frontmatter?.keys.has('id')) return undefined;
  return path.basename(rule.file);
}
