import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Span } from '../../../parse/text/lineIndex';
import { nodesById, type Flow, type FlowNode, invalidBranch } from './flow';
import { resolveStatePath, typeName, type StateSchema, type StateType } from './readState';
import { defineRule, type Rule as LintRule } from '../../../checks/engine/rule';

export const duplicateFlowId = defineRule({
  code: 'duplicate_flow_id',
  category: 'skillplus',
  severity: 'error',
  summary: 'Two stages or two nodes share one id.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const invalidLoop = defineRule({
  code: 'invalid_loop',
  category: 'skillplus',
  severity: 'error',
  summary: 'A loop without `max_rounds`, or without `until` or `goal`.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
});

export const invalidFanout = defineRule({
  code: 'invalid_fanout',
  category: 'skillplus',
  severity: 'error',
  summary: 'A fan-out whose `over`/`into` are not lists, whose `item` shadows a field, or whose body writes a scalar.',
  stability: 'stable',
  formats: ['skillplus'],
});

function at(rule: LintRule, span: Span, message: string, data?: Record<string, unknown>): Diagnostic {
  return diagnostic(rule, span.file!, span, message, data);
}

/**
 * The shape of a flow, whichever front end wrote it: what the reader found
 * (dynamic code, bad calls, nested stages, nodes outside stages), duplicate
 * ids, branches, loops and fan-outs as the format note's exact rules of 0.1
 * define them.
 */
export function checkFlowShape(flow: Flow, state: StateSchema | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = flow.problems.map((problem) =>
    at(problem.rule, problem.span, problem.message, problem.data),
  );
  const seen = (items: { id: string; idSpan: Span }[], what: string) => {
    const first = new Map<string, Span>();
    for (const item of items) {
      if (first.has(item.id))
        diagnostics.push(
          at(
            duplicateFlowId,
            item.idSpan,
            `The ${what} id "${item.id}" is already used; \`${what}=${item.id}\` in predicates would be ambiguous.`,
            { name: item.id },
          ),
        );
      else first.set(item.id, item.idSpan);
    }
  };
  seen(flow.stages, 'stage');
  seen(flow.nodes, 'node');
  for (const node of flow.nodes) {
    if (node.kind === 'branch') diagnostics.push(...checkBranch(node, state));
    if (node.kind === 'loop') diagnostics.push(...checkLoop(node));
    if (node.kind === 'fanout') diagnostics.push(...checkFanout(node, flow, state));
  }
  return diagnostics;
}

function checkBranch(node: FlowNode, state: StateSchema | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (node.cases.length === 0) {
    diagnostics.push(
      at(
        invalidBranch,
        node.idSpan,
        `Branch "${node.id}" has no cases: add \`case(…)\`${node.otherwise ? '' : ' and `otherwise()`'}.`,
      ),
    );
    return diagnostics;
  }
  const field = node.on && state?.root ? resolveStatePath(state, node.on.value.split('.')) : undefined;
  const seen = new Set<string>();
  for (const item of node.cases) {
    if (item.values.length > 0 && item.desc)
      diagnostics.push(at(invalidBranch, item.span, 'A case gives values or a `desc`, not both.'));
    else if (item.values.length === 0 && !item.desc)
      diagnostics.push(
        at(
          invalidBranch,
          item.span,
          node.on
            ? `A case of branch "${node.id}" (on \`${node.on.value}\`) needs the values it takes.`
            : `A case of branch "${node.id}" needs \`desc=\`: the condition the model judges.`,
        ),
      );
    else if (node.on && item.desc)
      diagnostics.push(
        at(
          invalidBranch,
          item.desc.span,
          `Branch "${node.id}" switches on \`${node.on.value}\`: its cases give values, not \`desc\`.`,
        ),
      );
    else if (!node.on && item.values.length > 0)
      diagnostics.push(
        at(
          invalidBranch,
          item.values[0].span,
          `Branch "${node.id}" has no \`on\`: its cases give \`desc=\`, the condition the model judges.`,
        ),
      );
    for (const value of item.values) {
      const key = JSON.stringify(value.value);
      if (seen.has(key))
        diagnostics.push(
          at(invalidBranch, value.span, `The value ${key} is already taken by an earlier case of branch "${node.id}".`),
        );
      seen.add(key);
      if (field?.ok && !valueFits(field.type, field.nullable, value.value)) {
        diagnostics.push(
          at(
            invalidBranch,
            value.span,
            `\`${node.on!.value}\` is ${typeName(field.type)}${field.nullable ? ' | None' : ''}: ${key} is not one of its values, so this case never runs.`,
          ),
        );
      }
    }
  }
  return diagnostics;
}

/** Whether a literal is a value of a State type. */
export function valueFits(type: StateType, nullable: boolean, value: string | number | boolean | null): boolean {
  if (value === null) return nullable;
  switch (type.kind) {
    case 'bool':
      return typeof value === 'boolean';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number';
    case 'str':
      return typeof value === 'string';
    case 'literal':
      return type.values.includes(value);
    default:
      return true;
  }
}

function checkLoop(node: FlowNode): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const rounds = node.maxRounds?.value;
  if (rounds === undefined)
    diagnostics.push(
      at(
        invalidLoop,
        node.idSpan,
        `Loop "${node.id}" needs \`max_rounds\` (at least 1): without it the model may loop for ever.`,
        { addMaxRounds: true },
      ),
    );
  else if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 1)
    diagnostics.push(
      at(
        invalidLoop,
        node.maxRounds!.span,
        `\`max_rounds\` is a whole number of at least 1, not ${JSON.stringify(rounds)}.`,
      ),
    );
  if (node.until.length === 0 && !node.goal)
    diagnostics.push(
      at(
        invalidLoop,
        node.idSpan,
        `Loop "${node.id}" has no exit: give \`until=\` (a predicate on the State) or \`goal=\` (a condition the model judges).`,
      ),
    );
  if (node.body.length === 0)
    diagnostics.push(at(invalidLoop, node.idSpan, `Loop "${node.id}" repeats nothing: put nodes inside it.`));
  return diagnostics;
}

function checkFanout(node: FlowNode, flow: Flow, state: StateSchema | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (!node.over)
    diagnostics.push(
      at(invalidFanout, node.idSpan, `Fan-out "${node.id}" needs \`over=\`, the list field it runs over.`),
    );
  if (!node.item)
    diagnostics.push(
      at(invalidFanout, node.idSpan, `Fan-out "${node.id}" needs \`item=\`, the name of each element in its body.`),
    );
  if (!state?.root) return diagnostics;
  for (const [key, text] of [
    ['over', node.over],
    ['into', node.into],
  ] as const) {
    if (!text) continue;
    const resolved = resolveStatePath(state, text.value.split('.'));
    if (resolved.ok && resolved.type.kind !== 'list')
      diagnostics.push(
        at(
          invalidFanout,
          text.span,
          `\`${key}\` of a fan-out is a list field; \`${text.value}\` is ${typeName(resolved.type)}.`,
        ),
      );
  }
  if (node.item && state.root.fields.some((field) => field.name === node.item!.value)) {
    diagnostics.push(
      at(
        invalidFanout,
        node.item.span,
        `\`item="${node.item.value}"\` is also a State field: \`{${node.item.value}}\` in the body could mean either.`,
      ),
    );
  }
  // The body runs once per item: writing a scalar field there would keep only one item's value.
  const byId = nodesById(flow);
  const pending = [...node.body];
  while (pending.length > 0) {
    const child = byId.get(pending.pop()!);
    if (!child) continue;
    pending.push(...child.body, ...child.cases.flatMap((item) => item.nodes), ...(child.otherwise?.nodes ?? []));
    if (!child.into) continue;
    const resolved = resolveStatePath(state, child.into.value.split('.'));
    if (
      resolved.ok &&
      resolved.type.kind !== 'list' &&
      resolved.type.kind !== 'dict' &&
      resolved.type.kind !== 'model'
    ) {
      diagnostics.push(
        at(
          invalidFanout,
          child.into.span,
          `Node "${child.id}" runs once per item of fan-out "${node.id}" but writes the scalar \`${child.into.value}\`: each run would overwrite the last. Write a list, or collect with the fan-out's \`into=\`.`,
        ),
      );
    }
  }
  return diagnostics;
}
