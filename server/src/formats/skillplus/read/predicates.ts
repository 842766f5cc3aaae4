import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { closestName } from '../../../checks/match/nameDistance';
import type { Span } from '../../../parse/text/lineIndex';
import { parsePredicate, type PathRef, type Predicate, type ValueRef } from '../../../parse/predicate/predicate';
import type { Flow, FlowText } from './flow';
import { resolveStatePath, typeName, type StateSchema, type StateType } from './readState';
import { defineRule, type Rule as LintRule } from '../../../checks/engine/rule';
import { suggestionFix } from '../../../checks/engine/suggestionFix';

export const predicateSyntax = defineRule({
  code: 'predicate_syntax',
  category: 'skillplus',
  severity: 'error',
  summary: 'A `when` or `until` predicate does not parse.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const unknownPredicatePath = defineRule({
  code: 'unknown_predicate_path',
  category: 'skillplus',
  severity: 'error',
  summary: 'A predicate reads a name that is no State path and no built-in.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const unknownFlowId = defineRule({
  code: 'unknown_flow_id',
  category: 'skillplus',
  severity: 'error',
  summary: '`stage=` or `node=` names no stage or node.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const predicateValue = defineRule({
  code: 'predicate_value',
  category: 'skillplus',
  severity: 'error',
  summary: 'A predicate compares with a value of the wrong type, outside a `Literal`, or an unknown event.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const predicateNeverHolds = defineRule({
  code: 'predicate_never_holds',
  category: 'skillplus',
  severity: 'warning',
  summary: 'A predicate that can never hold, so its tip or rule never applies.',
  stability: 'stable',
  formats: ['skillplus'],
});

/** The built-in names a predicate may read besides State fields. */
export const BUILTINS: Record<string, string> = {
  stage: 'the current stage id',
  node: 'the current node id',
  round: 'the round of the innermost loop (1-based; null outside a loop)',
  event: 'the seam just passed: stage_enter, pre_tool, post_tool, post_node or pre_answer',
  tool: 'the tool at pre_tool/post_tool (a host tool, or scripts/<path>; `tool=Bash@prod` also matches the environment)',
  item: 'the current fan-out item (dotted as needed)',
};
export const EVENTS = ['stage_enter', 'pre_tool', 'post_tool', 'post_node', 'pre_answer'];
/** Tips and soft rules see only the last seam passed; `pre_tool` and `pre_answer` exist only at hard-rule gates. */
export const SOFT_EVENTS = new Set(['stage_enter', 'post_tool', 'post_node']);

/** What holds a predicate, which decides the seams it can see. */
export type PredicateOwner = { kind: 'tip' | 'soft-rule' | 'hard-rule' | 'until'; label: string };

/** What a predicate that cannot hold means for its owner. */
function consequence(owner: PredicateOwner): string {
  return owner.kind === 'until'
    ? `the \`until\` of ${owner.label} never holds and it always runs to \`max_rounds\``
    : `${owner.label} never applies`;
}

/** The file span of characters [from, to) of a located text. */
export function textSpan(text: FlowText, from: number, to: number): Span {
  const start = text.offsets[Math.max(0, Math.min(from, text.value.length))];
  const end = to > from ? text.offsets[Math.min(to, text.value.length) - 1] + 1 : start;
  return { start, end, file: text.span.file };
}

export interface CheckedPredicate {
  text: FlowText;
  predicate?: Predicate;
  /** Whether it was found wrong (then where it can fire says nothing new). */
  faulty: boolean;
}

/** The type a field compared with a value would have. */
const VALUE_TYPE: Record<ValueRef['kind'], string> = {
  number: 'float',
  bool: 'bool',
  null: 'str | None',
  string: 'str',
};

/** Whether a value fits a State type (`=` and `in`). */
function fits(type: StateType, nullable: boolean, value: ValueRef): boolean {
  if (value.kind === 'null') return nullable;
  switch (type.kind) {
    case 'bool':
      return value.kind === 'bool';
    case 'int':
    case 'float':
      return value.kind === 'number';
    case 'str':
      return value.kind === 'string';
    case 'literal':
      return type.values.some((allowed) => allowed === value.value || String(allowed) === String(value.value));
    default:
      return true;
  }
}

/**
 * Parses and types every predicate of one owner (a tip's `when`, a rule's,
 * a loop's `until`) against the State and the flow: syntax with its column,
 * unknown paths, `stage=`/`node=` naming nothing, values of the wrong type
 * or outside a `Literal`, events that do not exist, and predicates that can
 * never hold (a contradiction, or a seam tips and soft rules never see).
 */
export function checkPredicates(
  owner: PredicateOwner,
  texts: FlowText[],
  flow: Flow | undefined,
  state: StateSchema | undefined,
  skillFile: string,
): { diagnostics: Diagnostic[]; checked: CheckedPredicate[] } {
  const diagnostics: Diagnostic[] = [];
  const checked: CheckedPredicate[] = [];
  const stages = flow?.stages.map((stage) => stage.id) ?? [];
  const nodes = flow?.nodes.map((node) => node.id) ?? [];
  for (const text of texts) {
    const at = (from: number, to: number) => textSpan(text, from, to);
    const report = (rule: LintRule, span: Span, message: string, data?: Record<string, unknown>) =>
      diagnostics.push(diagnostic(rule, span.file ?? skillFile, span, message, data));
    const read = parsePredicate(text.value);
    const before = diagnostics.length;
    for (const problem of read.problems)
      report(
        predicateSyntax,
        at(problem.start, problem.end),
        `${problem.message} (in the predicate of ${owner.label})`,
      );
    const entry: CheckedPredicate = { text, ...(read.predicate ? { predicate: read.predicate } : {}), faulty: true };
    checked.push(entry);
    if (!read.predicate) continue;

    /** `fieldType`: what the path is compared with, for a field the quick fix adds. */
    const checkPath = (
      path: PathRef,
      fieldType: string,
    ): { builtin?: string; type?: StateType; nullable?: boolean } | undefined => {
      const [first] = path.segments;
      if (first.name in BUILTINS) {
        if (path.segments.length > 1 && first.name !== 'item')
          report(
            unknownPredicatePath,
            at(path.start, path.end),
            `\`${first.name}\` is a built-in (${BUILTINS[first.name]}); it has no \`.${path.segments[1].name}\`.`,
          );
        return { builtin: first.name };
      }
      if (!state?.root) return undefined;
      const resolved = resolveStatePath(
        state,
        path.segments.map((segment) => segment.name),
      );
      if (resolved.ok) return { type: resolved.type, nullable: resolved.nullable };
      const segment = path.segments[resolved.failedAt];
      const candidates =
        resolved.failedAt === 0 ? [...resolved.candidates, ...Object.keys(BUILTINS)] : resolved.candidates;
      const suggestion = closestName(segment.name, candidates);
      report(
        unknownPredicatePath,
        at(segment.start, segment.end),
        `\`${path.segments
          .slice(0, resolved.failedAt + 1)
          .map((item) => item.name)
          .join(
            '.',
          )}\` is not a State field${resolved.failedAt === 0 ? ' or a built-in (stage, node, round, event, tool, item)' : ''}${suggestion ? `; did you mean \`${suggestion}\`?` : '.'} As written, ${consequence(owner)}.`,
        {
          ...(suggestion ? { suggestion } : {}),
          ...(resolved.failedAt === 0 ? { field: segment.name, fieldType } : {}),
        },
      );
      return undefined;
    };

    const checkValue = (path: PathRef, target: ReturnType<typeof checkPath>, value: ValueRef) => {
      const span = at(value.start, value.end);
      if (target?.builtin === 'stage' || target?.builtin === 'node') {
        const ids = target.builtin === 'stage' ? stages : nodes;
        if (flow && (value.kind !== 'string' || !ids.includes(value.value as string))) {
          const suggestion = value.kind === 'string' ? closestName(value.value as string, ids) : undefined;
          report(
            unknownFlowId,
            span,
            `No ${target.builtin} has the id ${JSON.stringify(value.value)}${suggestion ? `; did you mean "${suggestion}"?` : '.'} Known: ${ids.join(', ')}.`,
            suggestion ? { suggestion } : undefined,
          );
        }
      } else if (target?.builtin === 'event') {
        if (!EVENTS.includes(String(value.value))) {
          const suggestion = closestName(String(value.value), EVENTS);
          report(
            predicateValue,
            span,
            `${JSON.stringify(value.value)} is not an event; events are ${EVENTS.join(', ')}.`,
            suggestion ? { suggestion } : undefined,
          );
        }
      } else if (target?.builtin === 'round') {
        if (value.kind !== 'number' && value.kind !== 'null')
          report(predicateValue, span, '`round` is a number (1-based), or null outside a loop.');
      } else if (target?.builtin === 'tool') {
        if (
          value.kind === 'string' &&
          /\.(py|sh|js|ts|rb)$/.test(String(value.value)) &&
          !String(value.value).startsWith('scripts/')
        ) {
          report(
            predicateValue,
            span,
            `A script is named by its path from the skill root: \`scripts/${value.value}\`, as \`tool=\` and \`ctx.tool\` name it.`,
            { suggestion: `scripts/${value.value}` },
          );
        }
      } else if (target?.type && !fits(target.type, target.nullable ?? false, value)) {
        const suggestion =
          target.type.kind === 'literal' && value.kind === 'string'
            ? closestName(String(value.value), target.type.values.map(String))
            : undefined;
        report(
          predicateValue,
          span,
          `\`${path.segments.map((item) => item.name).join('.')}\` is ${typeName(target.type)}${target.nullable ? ' | None' : ''}: ${JSON.stringify(value.value)} is never equal to it${suggestion ? `; did you mean "${suggestion}"?` : '.'}`,
          suggestion ? { suggestion } : undefined,
        );
      }
    };

    const walk = (node: Predicate): void => {
      switch (node.kind) {
        case 'or':
        case 'and':
          node.items.forEach(walk);
          return;
        case 'not':
          walk(node.operand);
          return;
        case 'truthy':
          checkPath(node.path, 'bool');
          return;
        case 'compare': {
          const target = checkPath(node.path, VALUE_TYPE[node.value.kind]);
          checkValue(node.path, target, node.value);
          return;
        }
        case 'in': {
          const target = checkPath(node.path, 'str');
          for (const value of node.values) checkValue(node.path, target, value);
        }
      }
    };
    walk(read.predicate);
    const never = neverHolds(read.predicate, owner);
    if (never)
      report(
        predicateNeverHolds,
        at(read.predicate.start, read.predicate.end),
        `This predicate can never hold (${never}), so ${consequence(owner)}.`,
      );
    entry.faulty = diagnostics.length > before;
  }
  return { diagnostics, checked };
}

const pathKey = (path: PathRef) => path.segments.map((segment) => segment.name).join('.');

/**
 * Why a conjunction can never hold, or undefined: two values for one path, a value it excludes, a seam the owner never
 * sees.
 */
function neverHolds(predicate: Predicate, owner: PredicateOwner): string | undefined {
  const conjuncts = predicate.kind === 'and' ? predicate.items : [predicate];
  const equal = new Map<string, Set<string>>();
  const excluded = new Map<string, Set<string>>();
  for (const item of conjuncts) {
    if (item.kind === 'compare' && (item.op === '=' || item.op === '==')) {
      const key = pathKey(item.path);
      const previous = equal.get(key);
      const value = String(item.value.value);
      if (previous && !previous.has(value)) return `\`${key}\` cannot be both ${[...previous][0]} and ${value}`;
      equal.set(key, new Set([value]));
    } else if (item.kind === 'in') {
      const key = pathKey(item.path);
      const values = new Set(item.values.map((value) => String(value.value)));
      const previous = equal.get(key);
      const both = previous ? new Set([...previous].filter((value) => values.has(value))) : values;
      if (both.size === 0) return `no value of \`${key}\` is in both lists`;
      equal.set(key, both);
    } else if (item.kind === 'compare' && item.op === '!=') {
      const key = pathKey(item.path);
      excluded.set(key, new Set([...(excluded.get(key) ?? []), String(item.value.value)]));
    }
  }
  for (const [key, values] of equal) {
    const left = [...values].filter((value) => !excluded.get(key)?.has(value));
    if (left.length === 0) return `\`${key}\` is required to equal a value it is also required to differ from`;
  }
  const events = equal.get('event');
  if (
    events &&
    (owner.kind === 'tip' || owner.kind === 'soft-rule') &&
    ![...events].some((event) => SOFT_EVENTS.has(event))
  ) {
    return `tips and soft rules see only stage_enter, post_tool and post_node; ${[...events].join(' and ')} exist only at hard-rule gates`;
  }
  return undefined;
}
