import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { closestName } from '../../../checks/match/nameDistance';
import type { Span } from '../../../parse/text/lineIndex';
import { nodesById, TEMPLATED_KINDS, type Flow, type FlowNode, type FlowText } from './flow';
import { textSpan } from './predicates';
import { resolveStatePath, typeName, type StateSchema, type StateType } from './readState';
import { defineRule, type Rule as LintRule } from '../../../checks/engine/rule';
import { suggestionFix } from '../../../checks/engine/suggestionFix';

export const stateTypeUnreadable = defineRule({
  code: 'state_type_unreadable',
  category: 'skillplus',
  severity: 'warning',
  summary: 'A State annotation skill+ cannot read.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const unknownStatePath = defineRule({
  code: 'unknown_state_path',
  category: 'skillplus',
  severity: 'error',
  summary: '`into`, `on` or `over` names no State field.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const stateTypeMismatch = defineRule({
  code: 'state_type_mismatch',
  category: 'skillplus',
  severity: 'error',
  summary: 'A node writes a State field of the wrong type.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const unknownPlaceholder = defineRule({
  code: 'unknown_placeholder',
  category: 'skillplus',
  severity: 'error',
  summary: 'A `{placeholder}` names no State path and no item in scope.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const fieldNeverWritten = defineRule({
  code: 'field_never_written',
  category: 'skillplus',
  severity: 'information',
  summary: 'A State field no node writes and that is not an input.',
  stability: 'stable',
  formats: ['skillplus'],
});

/** A `{placeholder}` of a node's text: the path it names and where. */
export interface Placeholder {
  node: FlowNode;
  path: string;
  span: Span;
}

const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/**
 * Placeholders per node read: the checks and the model both ask, and a node
 * flow.py's reader kept from the last reading keeps them too, moved with it
 * (`at`: where the node's text started when they were found).
 */
const placeholderCache = new WeakMap<FlowNode, { at: number; found: Placeholder[] }>();

/** Moves what was kept with a node (found where the node stood at `known.at`) to where it now starts, `start`. */
function moveReused(known: { at: number; found: { span: Span }[] }, start: number): void {
  const delta = start - known.at;
  for (const item of delta === 0 ? [] : known.found) {
    item.span.start += delta;
    item.span.end += delta;
  }
  known.at = start;
}

/** The placeholders of a templated text; `{{` and `}}` are literal braces. */
export function placeholdersOf(node: FlowNode): Placeholder[] {
  if (!node.text || !TEMPLATED_KINDS.has(node.kind)) return [];
  const known = placeholderCache.get(node);
  if (known) {
    moveReused(known, node.text.span.start);
    return known.found;
  }
  const found: Placeholder[] = [];
  for (const match of node.text.value.matchAll(PLACEHOLDER)) {
    if (match[1] === undefined) continue;
    const inner = match[1].trim();
    const start = match.index! + 1 + match[1].indexOf(inner);
    found.push({ node, path: inner, span: textSpan(node.text, start, start + inner.length) });
  }
  placeholderCache.set(node, { at: node.text.span.start, found });
  return found;
}

/** The fan-out items in scope at a node: the `item=` names of the fan-outs around it, with the type of one element. */
export function itemsInScope(
  flow: Flow,
  node: FlowNode,
  state: StateSchema | undefined,
): Map<string, StateType | undefined> {
  const byId = nodesById(flow);
  const items = new Map<string, StateType | undefined>();
  for (
    let parent = node.parent ? byId.get(node.parent) : undefined;
    parent;
    parent = parent.parent ? byId.get(parent.parent) : undefined
  ) {
    if (parent.kind !== 'fanout' || !parent.item) continue;
    const over = parent.over && state?.root ? resolveStatePath(state, parent.over.value.split('.')) : undefined;
    items.set(parent.item.value, over?.ok && over.type.kind === 'list' ? over.type.item : undefined);
  }
  return items;
}

/** The type of the field a node writes, for a field the quick fix adds. */
const WRITTEN_TYPE: Partial<Record<FlowNode['kind'], string>> = {
  confirm: 'bool',
  fanout: 'list[str]',
  ask: 'str',
  agent: 'str',
};

/** A finding of its own span (a copy): findings kept with a node are moved with it, apart from the node's spans. */
function report(out: Diagnostic[], rule: LintRule, span: Span, message: string, data?: Record<string, unknown>): void {
  out.push(diagnostic(rule, span.file!, { ...span }, message, data));
}

/**
 * What `nodeBindings` found at a node, for a node flow.py's reader kept
 * from the last reading (the same object, moved): found again only when
 * the State or the fan-out items around the node changed. `at`: where the
 * node started when its findings were last placed.
 */
const bindingCache = new WeakMap<
  FlowNode,
  { at: number; state: StateSchema; items: Map<string, StateType | undefined>; found: Diagnostic[] }
>();

function sameItems(a: Map<string, StateType | undefined>, b: Map<string, StateType | undefined>): boolean {
  if (a.size !== b.size) return false;
  const others = [...b];
  return [...a].every(([name, type], index) => others[index][0] === name && others[index][1] === type);
}

/**
 * How nodes bind to the State: `into`, `on` and `over` name fields, `into`
 * has the type its node writes (`ask` → `str`, `int`, `float` or a
 * `Literal` holding every choice; `confirm` → `bool`), every placeholder
 * names a State path or an item in scope, and fields nobody writes that are
 * not inputs are worth knowing about.
 */
export function checkBindings(flow: Flow, state: StateSchema | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (!state?.root) return diagnostics;
  const root = state.root;
  for (const node of flow.nodes) for (const found of nodeBindings(flow, node, state)) diagnostics.push(found);
  const written = new Set(flow.nodes.flatMap((node) => (node.into ? [node.into.value.split('.')[0]] : [])));
  for (const field of root.fields) {
    if (field.input || written.has(field.name)) continue;
    report(
      diagnostics,
      fieldNeverWritten,
      field.nameSpan,
      `No node writes \`${field.name}\`, and it is not an input (it has a default): it keeps ${field.defaultText ?? 'its default'} for the whole run.`,
    );
  }
  for (const field of state.unreadable) {
    report(
      diagnostics,
      stateTypeUnreadable,
      field.typeSpan,
      `skill+ cannot read the type \`${field.typeText}\`: use str, int, float, bool, list[T], dict[str, T], Literal[...], T | None, Optional[T] or a class of this file. Predicates and placeholders on \`${field.name}\` are not type-checked.`,
    );
  }
  return diagnostics;
}

/** What `checkBindings` finds at one node: its `into`, `on` and `over`, and its placeholders. */
function nodeBindings(flow: Flow, node: FlowNode, state: StateSchema): Diagnostic[] {
  const items = itemsInScope(flow, node, state);
  const known = bindingCache.get(node);
  if (known && known.state === state && sameItems(known.items, items)) {
    moveReused(known, node.span.start);
    return known.found;
  }
  const found: Diagnostic[] = [];
  const unknownPath = (
    rule: LintRule,
    text: FlowText,
    segments: string[],
    failedAt: number,
    candidates: string[],
    what: string,
    fieldType: string,
  ) => {
    const suggestion = closestName(segments[failedAt], candidates);
    const prefix = segments.slice(0, failedAt).join('.');
    const start = prefix.length > 0 ? prefix.length + 1 : 0;
    // A missing top-level field can be added to State by a quick fix, with the type its use asks for.
    const data = {
      ...(suggestion ? { suggestion } : {}),
      ...(failedAt === 0 ? { field: segments[0], fieldType } : {}),
    };
    report(
      found,
      rule,
      textSpan(text, start, start + segments[failedAt].length),
      `${what}: \`${segments.slice(0, failedAt + 1).join('.')}\` is not a field of the State${suggestion ? `; did you mean \`${suggestion}\`?` : '.'}`,
      data,
    );
  };
  for (const [key, text] of [
    ['into', node.into],
    ['on', node.on],
    ['over', node.over],
  ] as const) {
    if (!text) continue;
    const segments = text.value.split('.');
    const resolved = resolveStatePath(state, segments);
    if (!resolved.ok) {
      unknownPath(
        unknownStatePath,
        text,
        segments,
        resolved.failedAt,
        resolved.candidates,
        `\`${key}="${text.value}"\` of node "${node.id}"`,
        key === 'over' ? 'list[str]' : key === 'on' ? 'str' : (WRITTEN_TYPE[node.kind] ?? 'str'),
      );
      continue;
    }
    if (key !== 'into') continue;
    const { type, nullable } = resolved;
    const shown = `${typeName(type)}${nullable ? ' | None' : ''}`;
    if (node.kind === 'confirm' && type.kind !== 'bool')
      report(
        found,
        stateTypeMismatch,
        text.span,
        `A confirm writes yes or no: \`${text.value}\` must be \`bool\`, not \`${shown}\`.`,
      );
    if (node.kind === 'ask') {
      const choices = node.choices.map((choice) => choice.value);
      const literalHolds = type.kind === 'literal' && choices.every((choice) => type.values.includes(choice));
      if (type.kind === 'literal' && !literalHolds) {
        const missing = choices.filter((choice) => !type.values.includes(choice));
        report(
          found,
          stateTypeMismatch,
          text.span,
          `\`${text.value}\` is ${shown}, which does not hold the choice${missing.length === 1 ? '' : 's'} ${missing.map((choice) => JSON.stringify(choice)).join(', ')}.`,
        );
      } else if (!['str', 'int', 'float', 'literal'].includes(type.kind)) {
        report(
          found,
          stateTypeMismatch,
          text.span,
          `An ask writes the user's answer: \`${text.value}\` must be \`str\`, \`int\`, \`float\` or a \`Literal\` of its choices, not \`${shown}\`.`,
        );
      }
    }
    if (node.merge?.value === 'replace' && type.kind !== 'list' && type.kind !== 'dict') {
      report(
        found,
        stateTypeMismatch,
        node.merge.span,
        `\`merge="replace"\` replaces a list or a dict; \`${text.value}\` is ${shown}, which a write overwrites anyway.`,
      );
    }
  }
  for (const placeholder of placeholdersOf(node)) {
    const segments = placeholder.path.split('.');
    if (items.has(segments[0])) {
      const item = items.get(segments[0]);
      if (segments.length > 1 && item?.kind === 'model') {
        const model = state.models.get(item.name);
        const field = model?.fields.find((candidate) => candidate.name === segments[1]);
        if (!field)
          report(
            found,
            unknownPlaceholder,
            placeholder.span,
            `\`{${placeholder.path}}\`: ${item.name} has no field \`${segments[1]}\`${model ? ` (it has ${model.fields.map((candidate) => candidate.name).join(', ')})` : ''}.`,
          );
      }
      continue;
    }
    const resolved = resolveStatePath(state, segments, true);
    if (resolved.ok) continue;
    const candidates = resolved.failedAt === 0 ? [...resolved.candidates, ...items.keys()] : resolved.candidates;
    const suggestion = closestName(segments[resolved.failedAt], candidates);
    report(
      found,
      unknownPlaceholder,
      placeholder.span,
      `\`{${placeholder.path}}\` in node "${node.id}" names no State path${items.size > 0 ? ` and no item in scope (${[...items.keys()].join(', ')})` : ''}${suggestion ? `; did you mean \`${suggestion}\`?` : '.'} The model would see the braces as they are.`,
      {
        ...(suggestion
          ? {
              suggestion,
              replacement: segments
                .map((segment, index) => (index === resolved.failedAt ? suggestion : segment))
                .join('.'),
            }
          : {}),
        ...(resolved.failedAt === 0 ? { field: segments[0], fieldType: 'str' } : {}),
      },
    );
  }
  bindingCache.set(node, { at: node.span.start, state, items, found });
  return found;
}
