import type { Predicate, ValueRef } from '../../../parse/predicate/predicate';
import type { StateField, StateSchema, StateType } from './readState';

/** A State as JSON (what `--state file.json` holds, or the defaults of state.py). */
export type StateValue = Record<string, unknown>;

/** Where the model is: the built-ins a predicate may read. */
export interface Position {
  stage: string | null;
  node: string | null;
  round: number | null;
  event: string | null;
  tool: string | null;
  item: unknown;
}

/** Python's truthiness: empty strings, lists and mappings, zero, None and False are false. */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

function read(value: unknown, segments: string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function equal(actual: unknown, wanted: ValueRef): boolean {
  if (wanted.kind === 'null') return actual === null || actual === undefined;
  // `tool=Bash` also matches `Bash@prod`: the part after @ is the host's environment label.
  if (
    typeof actual === 'string' &&
    typeof wanted.value === 'string' &&
    actual.includes('@') &&
    !wanted.value.includes('@')
  )
    return actual.split('@')[0] === wanted.value;
  return (
    actual === wanted.value ||
    (typeof actual === 'number' && typeof wanted.value === 'string' && String(actual) === wanted.value)
  );
}

/**
 * Evaluates a predicate as the runtime does, with no model call: built-ins
 * from the position, anything else from the State. A comparison with a
 * missing value or `null` `round` is false.
 */
export function evaluatePredicate(predicate: Predicate, state: StateValue, position: Position): boolean {
  switch (predicate.kind) {
    case 'and':
      return predicate.items.every((item) => evaluatePredicate(item, state, position));
    case 'or':
      return predicate.items.some((item) => evaluatePredicate(item, state, position));
    case 'not':
      return !evaluatePredicate(predicate.operand, state, position);
    default: {
      const [first, ...rest] = predicate.path.segments.map((segment) => segment.name);
      const value =
        first in position
          ? read((position as unknown as Record<string, unknown>)[first], rest)
          : read(state, [first, ...rest]);
      if (predicate.kind === 'truthy') return truthy(value);
      if (predicate.kind === 'in') return predicate.values.some((wanted) => equal(value, wanted));
      if (predicate.op === '=' || predicate.op === '==') return equal(value, predicate.value);
      if (predicate.op === '!=') return !equal(value, predicate.value);
      if (typeof value !== 'number' || typeof predicate.value.value !== 'number') return false;
      const wanted = predicate.value.value;
      return predicate.op === '<'
        ? value < wanted
        : predicate.op === '<='
          ? value <= wanted
          : predicate.op === '>'
            ? value > wanted
            : value >= wanted;
    }
  }
}

/** A default as written in state.py, as JSON: literals, and the empty value of a `default_factory`. */
function defaultValue(field: StateField, schema: StateSchema, depth: number): unknown {
  const text = field.defaultText?.trim();
  if (text === undefined) return field.type.kind === 'model' ? modelDefaults(schema, field.type.name, depth + 1) : null;
  if (text === 'None') return null;
  if (text === 'True' || text === 'False') return text === 'True';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^(['"]).*\1$/s.test(text)) return text.slice(1, -1);
  if (/^(list|\[\])/.test(text) || text === '[]') return [];
  if (/^(dict|\{\})/.test(text)) return {};
  if (field.type.kind === 'model') return modelDefaults(schema, field.type.name, depth + 1);
  return emptyOf(field.type);
}

function emptyOf(type: StateType): unknown {
  return type.kind === 'list' ? [] : type.kind === 'dict' ? {} : null;
}

function modelDefaults(schema: StateSchema, name: string, depth: number): StateValue {
  const model = schema.models.get(name);
  // A class cycle has no finite default: it stops at the model that repeats.
  if (!model || depth > 8) return {};
  return Object.fromEntries(model.fields.map((field) => [field.name, defaultValue(field, schema, depth)]));
}

/** The State a run starts with: every field's default, inputs as null (the caller gives them). */
export function stateDefaults(schema: StateSchema | undefined): StateValue {
  return schema?.root ? modelDefaults(schema, schema.root.name, 0) : {};
}
