import type { Predicate, ValueRef } from '../../../parse/predicate/predicate';

const OPERATORS: Record<string, string> = {
  '=': 'is',
  '==': 'is',
  '!=': 'is not',
  '<': 'is below',
  '<=': 'is at most',
  '>': 'is above',
  '>=': 'is at least',
};

function value(item: ValueRef): string {
  return item.kind === 'string' ? String(item.value) : String(item.value);
}

/**
 * A predicate in words, for hovers and the context view: `stage=research and
 * not approved` → "the stage is research and approved is not set".
 */
export function predicateInWords(predicate: Predicate, nested = false): string {
  switch (predicate.kind) {
    case 'and':
    case 'or': {
      const text = predicate.items.map((item) => predicateInWords(item, true)).join(` ${predicate.kind} `);
      return nested ? `(${text})` : text;
    }
    case 'not':
      return predicate.operand.kind === 'truthy'
        ? `${name(predicate.operand.path.segments.map((item) => item.name).join('.'))} is not set`
        : `not ${predicateInWords(predicate.operand, true)}`;
    case 'truthy':
      return `${name(predicate.path.segments.map((item) => item.name).join('.'))} is set`;
    case 'compare':
      return `${name(predicate.path.segments.map((item) => item.name).join('.'))} ${OPERATORS[predicate.op]} ${value(predicate.value)}`;
    case 'in':
      return `${name(predicate.path.segments.map((item) => item.name).join('.'))} is one of ${predicate.values.map(value).join(', ')}`;
  }
}

/** Built-ins read as words ("the stage"); State paths as code. */
function name(path: string): string {
  return ['stage', 'node', 'round', 'event', 'tool'].includes(path) ? `the ${path}` : `\`${path}\``;
}
