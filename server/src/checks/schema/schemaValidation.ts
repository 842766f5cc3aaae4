import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { isMap, type Node } from 'yaml';
import type { Span } from '../../parse/text/lineIndex';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan, pairOf, valueOf } from '../../parse/yaml/yamlNodes';
import { listDerivation } from '../../parse/yaml/yamlChunks';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { Rule } from '../engine/rule';
import * as precompiled from './schemaValidators.generated';

type SchemaObject = Record<string, unknown> & {
  description?: string;
  properties?: Record<string, SchemaObject>;
  'x-code'?: string;
};

/** The validators compiled at build time, by the `$id` of their schema. */
const validators = new Map<string, ValidateFunction>(
  Object.entries(precompiled.ids).map(([name, id]) => [id, precompiled[name as keyof typeof precompiled.ids]]),
);

function validatorFor(schema: { $id?: string }): ValidateFunction {
  const validate = schema.$id ? validators.get(schema.$id) : undefined;
  if (!validate)
    throw new Error(`no precompiled validator for the schema ${schema.$id ?? '(without $id)'}: add it to schemaSet.ts`);
  return validate;
}

export interface SchemaTarget {
  file: string;
  yaml: YamlSyntax;
  /** Where errors about the root object go (the frontmatter's `---`, the fence line). */
  rootSpan: Span;
  /** The rule of errors whose schema node names none (by its `x-code`). */
  defaultRule: Rule;
  /** The rules a schema node may name by its `x-code`. */
  named?: readonly Rule[];
  /** The rule of a missing required key at the root. */
  rootRequiredRule?: Rule;
  /** What to call the root inside a sentence: "the frontmatter", "the procedure". */
  rootName: string;
  /** Where the validated value sits in the YAML document (`['composition']`), when it is not the root. */
  basePath?: string[];
  /**
   * The value's steps may be the very objects an earlier analysis checked
   * (the server's chunk cache hands them back): check step by step, skipping
   * those. Without it (the CLI reads each skill once) that would only add work.
   */
  stepsReused?: boolean;
}

/**
 * Validates a YAML value and places each error on its source range: a
 * missing key on its parent's key, an unknown key on that key, any other
 * error on the offending value. Only the innermost errors are kept.
 */
export function validateAgainstSchema(schema: { $id?: string }, value: unknown, target: SchemaTarget): Diagnostic[] {
  const validate = validatorFor(schema);
  if ((target.stepsReused && validStepByStep(schema, validate, value)) || validate(value)) return [];
  const errors = innermost(validate.errors ?? []);
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const error of errors) {
    const located = locate(error, target);
    const key = `${located.span.start}:${located.span.end}:${located.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push(diagnostic(located.rule, target.file, located.span, located.message));
  }
  return diagnostics;
}

/**
 * Steps a step validator passed, per validator: the unchanged steps of a procedure or a composition (the chunk cache
 * hands back the same values) are not checked again.
 */
const validSteps = new WeakMap<ValidateFunction, WeakSet<object>>();
/** Step lists a step validator passed whole, per validator. */
const validLists = new WeakMap<ValidateFunction, WeakSet<unknown[]>>();

type StepList = { minItems: number; step: ValidateFunction } | undefined;

/** `stepList` per schema: a schema never changes, and the server asks on every keystroke. */
const stepLists = new WeakMap<object, StepList>();

function stepListOf(schema: { $id?: string; properties?: unknown }): StepList {
  if (!stepLists.has(schema)) stepLists.set(schema, stepList(schema));
  return stepLists.get(schema);
}

/** What the fast check needs of a procedure schema: its steps' `minItems` and the validator of one step. */
function stepList(schema: { $id?: string; properties?: unknown }): StepList {
  const steps = (schema.properties as Record<string, SchemaObject> | undefined)?.steps as
    (SchemaObject & { minItems?: number; items?: { $ref?: string } }) | undefined;
  // The items' validator is the one precompiled for what they refer to, if any.
  const ref = steps?.items?.$ref;
  const step = schema.$id && ref?.startsWith('#') ? validators.get(`${schema.$id}${ref}`) : undefined;
  // Only a list that says nothing across its items but how many there must be can be checked item by item (`x-code`
  // names a diagnostic code, it constrains nothing).
  if (
    !steps ||
    !step ||
    Object.keys(steps).some((key) => !['type', 'minItems', 'items', 'description', 'x-code'].includes(key))
  )
    return undefined;
  return { minItems: steps.minItems ?? 0, step };
}

/**
 * Whether a procedure is valid, checked step by step: the procedure with
 * only its first `minItems` steps, then each other step alone, skipping
 * steps found valid before. The same verdict as the whole validator where
 * `stepList` allows it; `false` (invalid, or no fast check) sends the
 * caller to the whole validator, whose errors are reported.
 */
function validStepByStep(schema: { $id?: string }, validate: ValidateFunction, value: unknown): boolean {
  const list = stepListOf(schema);
  if (!list || typeof value !== 'object' || value === null) return false;
  const steps = (value as { steps?: unknown }).steps;
  if (
    !Array.isArray(steps) ||
    steps.length < list.minItems ||
    !validate({ ...value, steps: steps.slice(0, list.minItems) })
  )
    return false;
  let known = validSteps.get(list.step);
  if (!known) validSteps.set(list.step, (known = new WeakSet()));
  let lists = validLists.get(list.step);
  if (!lists) validLists.set(list.step, (lists = new WeakSet()));
  // A list made from one found valid, with some items replaced: only those are looked at.
  const derived = listDerivation(steps);
  const indices = derived && lists.has(derived.from) ? derived.changed : undefined;
  const count = indices ? indices.length : steps.length;
  for (let at = 0; at < count; at++) {
    const index = indices ? indices[at] : at;
    if (index < list.minItems) continue;
    const step: unknown = steps[index];
    const memo = typeof step === 'object' && step !== null;
    if (memo && known.has(step)) continue;
    if (!list.step(step)) return false;
    if (memo) known.add(step);
  }
  lists.add(steps);
  return true;
}

const WRAPPERS = ['if', 'anyOf', 'oneOf', 'allOf', 'not', 'propertyNames'];

/**
 * Keeps the innermost errors: a wrapper (`if`, `anyOf`, …) only repeats
 * that something below it failed, so it goes when a deeper error says what.
 * Independent errors on a parent and on its child both stay.
 */
function innermost(errors: ErrorObject[]): ErrorObject[] {
  return errors.filter(
    (error) =>
      !WRAPPERS.includes(error.keyword) ||
      !errors.some(
        (other) =>
          other !== error && !WRAPPERS.includes(other.keyword) && other.instancePath.startsWith(error.instancePath),
      ),
  );
}

function pathSegments(instancePath: string): string[] {
  return instancePath === ''
    ? []
    : instancePath
        .slice(1)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function describePath(segments: string[], rootName: string): string {
  if (segments.length === 0) return rootName;
  return (
    '`' +
    segments.map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : (i > 0 ? '.' : '') + segment)).join('') +
    '`'
  );
}

function ruleFor(schemaNode: SchemaObject | undefined, target: SchemaTarget): Rule {
  const code = schemaNode?.['x-code'];
  return (code && target.named?.find((rule) => rule.code === code)) || target.defaultRule;
}

function locate(error: ErrorObject, target: SchemaTarget): { rule: Rule; span: Span; message: string } {
  const segments = [...(target.basePath ?? []), ...pathSegments(error.instancePath)];
  const where = describePath(segments, target.rootName);
  const parentSchema = error.parentSchema as SchemaObject | undefined;
  const reached = nodeAtPath(target.yaml, segments);
  const valueSpan =
    (reached.depth === segments.length ? nodeSpan(target.yaml, reached.node) : undefined) ?? target.rootSpan;

  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    const property = parentSchema?.properties?.[missing];
    const about = property?.description ? ` ${property.description}` : '';
    const rule = segments.length === 0 && target.rootRequiredRule ? target.rootRequiredRule : ruleFor(property, target);
    return {
      rule,
      span: parentAnchor(target, segments, reached),
      message: `${capitalize(where)} is missing the required key \`${missing}\`.${about}`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    const keyNode = pairOf(reached.node, extra)?.key as Node | undefined;
    const allowed = Object.keys(parentSchema?.properties ?? {});
    const list = allowed.length > 0 ? ` Allowed keys: ${allowed.join(', ')}.` : '';
    return {
      rule: ruleFor(parentSchema, target),
      span: nodeSpan(target.yaml, keyNode) ?? valueSpan,
      message: `Unknown key \`${extra}\` in ${where}.${list}`,
    };
  }
  if (error.propertyName !== undefined) {
    // A key that breaks `propertyNames`: the key is reported, not the value under it.
    const keyNode = pairOf(reached.node, error.propertyName)?.key as Node | undefined;
    const rule = parentSchema?.description ? ` ${parentSchema.description}` : '';
    return {
      rule: ruleFor(parentSchema, target),
      span: nodeSpan(target.yaml, keyNode) ?? valueSpan,
      message: `${capitalize(where)} has the key ${JSON.stringify(error.propertyName)}, which is not a valid name.${rule}`,
    };
  }
  const about = parentSchema?.description ? ` ${parentSchema.description}` : '';
  return {
    rule: ruleFor(parentSchema, target),
    span: valueSpan,
    message: `${capitalize(where)} ${plainReason(error)}.${about}`,
  };
}

/** Where a missing key is reported: the parent's key, else the item's `name`, else the root anchor. */
function parentAnchor(target: SchemaTarget, segments: string[], reached: ReturnType<typeof nodeAtPath>): Span {
  if (segments.length === 0 || reached.depth !== segments.length) return target.rootSpan;
  if (reached.pair) return nodeSpan(target.yaml, reached.pair.key) ?? target.rootSpan;
  const node = reached.node;
  if (isMap(node)) {
    const name = valueOf(node, 'name');
    const first = node.items[0]?.key as Node | undefined;
    return nodeSpan(target.yaml, name ?? first) ?? nodeSpan(target.yaml, node) ?? target.rootSpan;
  }
  return nodeSpan(target.yaml, node) ?? target.rootSpan;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `a ${typeof value}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  array: 'a list',
  object: 'a map',
  boolean: 'true or false',
  number: 'a number',
  integer: 'a whole number',
  null: 'null',
};

/** A person's reading of an ajv error (ajv's own text says "must NOT have fewer than 1 items"). */
function plainReason(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const wanted = ([] as string[]).concat(params.type as string | string[]).map((type) => TYPE_WORDS[type] ?? type);
      return `must be ${wanted.join(' or ')}, not ${typeName(error.data)}`;
    }
    case 'minItems':
      return `needs at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'minProperties':
      return `needs at least ${params.limit} entr${params.limit === 1 ? 'y' : 'ies'}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters long`;
    case 'maxLength':
      return `is ${String(error.data).length} characters long; the limit is ${params.limit}`;
    case 'pattern':
      return `has an invalid value ${JSON.stringify(error.data)}`;
    case 'enum':
      return `is ${JSON.stringify(error.data)}, which is not one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `is ${JSON.stringify(error.data)}, out of range (${params.comparison} ${params.limit})`;
    default:
      return (error.message ?? 'is invalid').replace(/^must /, 'must ');
  }
}
