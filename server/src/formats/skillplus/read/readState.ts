import type { SyntaxNode } from '@lezer/common';
import type { Span } from '../../../parse/text/lineIndex';
import { argumentsOf, childrenOf, literalOf, spanOf, textOf, type PythonSyntax } from '../../../parse/python/python';

/** A State field's type, as far as skill+ reads annotations. */
export type StateType =
  | { kind: 'str' | 'int' | 'float' | 'bool' | 'any' }
  | { kind: 'list'; item: StateType }
  | { kind: 'dict'; value: StateType }
  | { kind: 'literal'; values: (string | number | boolean | null)[] }
  | { kind: 'model'; name: string }
  | { kind: 'unreadable'; text: string };

export interface StateField {
  name: string;
  nameSpan: Span;
  type: StateType;
  /** The annotation as written. */
  typeText: string;
  typeSpan: Span;
  /** `T | None`, `Optional[T]`. */
  nullable: boolean;
  hasDefault: boolean;
  /** The default as written, for hovers. */
  defaultText?: string;
  /** No default, or `json_schema_extra={"input": True}`: the skill's caller supplies it. */
  input: boolean;
  /** The whole annotated line. */
  span: Span;
  /** The class the field belongs to. */
  model: string;
}

export interface StateModel {
  name: string;
  nameSpan: Span;
  span: Span;
  fields: StateField[];
}

export interface StateSchema {
  file: string;
  /** The class named by `skillplus-state` (default `State`). */
  root?: StateModel;
  models: Map<string, StateModel>;
  /** Annotations skill+ cannot read (they are typed `unreadable`). */
  unreadable: StateField[];
}

const PRIMITIVES: Record<string, StateType['kind']> = {
  str: 'str',
  int: 'int',
  float: 'float',
  bool: 'bool',
  Any: 'any',
  object: 'any',
};

/**
 * Reads the classes of `state.py` and their annotated fields, never running
 * it: types (`str`, `int`, `float`, `bool`, `list[T]`, `dict[str, T]`,
 * `Literal[…]`, `T | None`, `Optional[T]`, classes of the same file),
 * defaults (a literal or `Field(…)`), and which fields are inputs.
 */
export function readState(py: PythonSyntax, className: string): StateSchema {
  const models = new Map<string, StateModel>();
  const classes = childrenOf(py.tree.topNode).filter((node) => node.name === 'ClassDefinition');
  const names = new Set(classes.map((node) => textOf(py, node.getChild('VariableName')!)));
  const unreadable: StateField[] = [];
  for (const node of classes) {
    const nameNode = node.getChild('VariableName')!;
    const model: StateModel = {
      name: textOf(py, nameNode),
      nameSpan: spanOf(py, nameNode),
      span: spanOf(py, node),
      fields: [],
    };
    for (const statement of childrenOf(node.getChild('Body') ?? node)) {
      if (statement.name !== 'AssignStatement') continue;
      const typeDef = statement.getChild('TypeDef');
      const target = statement.firstChild;
      if (!typeDef || target?.name !== 'VariableName') continue;
      const annotation = childrenOf(typeDef)[0];
      if (!annotation) continue;
      const { type, nullable } = readType(py, annotation, names);
      const value = statement.getChild('AssignOp')?.nextSibling ?? null;
      const defaults = readDefault(py, value);
      const field: StateField = {
        name: textOf(py, target),
        nameSpan: spanOf(py, target),
        type,
        typeText: textOf(py, annotation),
        typeSpan: spanOf(py, annotation),
        nullable,
        hasDefault: defaults.hasDefault,
        ...(defaults.text !== undefined ? { defaultText: defaults.text } : {}),
        input: !defaults.hasDefault || defaults.input,
        span: spanOf(py, statement),
        model: model.name,
      };
      model.fields.push(field);
      if (type.kind === 'unreadable') unreadable.push(field);
    }
    models.set(model.name, model);
  }
  const root = models.get(className);
  return { file: py.file, ...(root ? { root } : {}), models, unreadable };
}

function readType(py: PythonSyntax, node: SyntaxNode, models: Set<string>): { type: StateType; nullable: boolean } {
  const text = textOf(py, node);
  if (node.name === 'None') return { type: { kind: 'any' }, nullable: true };
  if (node.name === 'VariableName') {
    if (text in PRIMITIVES) return { type: { kind: PRIMITIVES[text] } as StateType, nullable: false };
    if (models.has(text)) return { type: { kind: 'model', name: text }, nullable: false };
    if (text === 'list' || text === 'List') return { type: { kind: 'list', item: { kind: 'any' } }, nullable: false };
    if (text === 'dict' || text === 'Dict') return { type: { kind: 'dict', value: { kind: 'any' } }, nullable: false };
    return { type: { kind: 'unreadable', text }, nullable: false };
  }
  if (node.name === 'BinaryExpression') {
    const [left, operator, right] = childrenOf(node);
    if (operator && textOf(py, operator) === '|') {
      const sides = [left, right].map((side) => readType(py, side, models));
      const others = sides.filter((_, index) => [left, right][index].name !== 'None');
      if (others.length === 1) return { type: others[0].type, nullable: true };
      return { type: { kind: 'unreadable', text }, nullable: sides.some((side) => side.nullable) };
    }
  }
  if (node.name === 'MemberExpression') {
    const [head, ...parameters] = childrenOf(node);
    const generic = head ? textOf(py, head) : '';
    const inner = (index: number) =>
      parameters[index] ? readType(py, parameters[index], models).type : ({ kind: 'any' } as StateType);
    if ((generic === 'list' || generic === 'List' || generic === 'Sequence') && parameters.length === 1)
      return { type: { kind: 'list', item: inner(0) }, nullable: false };
    if ((generic === 'dict' || generic === 'Dict' || generic === 'Mapping') && parameters.length === 2)
      return { type: { kind: 'dict', value: inner(1) }, nullable: false };
    if (generic === 'Optional' && parameters.length === 1) return { type: inner(0), nullable: true };
    if (generic === 'Literal') {
      const values = parameters.map((parameter) => literalOf(py, parameter));
      if (
        values.every(
          (value) =>
            value.kind === 'string' || value.kind === 'number' || value.kind === 'bool' || value.kind === 'none',
        )
      ) {
        return {
          type: {
            kind: 'literal',
            values: values.map((value) => (value as { value: string | number | boolean | null }).value),
          },
          nullable: values.some((value) => value.kind === 'none'),
        };
      }
    }
  }
  return { type: { kind: 'unreadable', text }, nullable: false };
}

/**
 * A default: a literal, `Field(default)`, `Field(default_factory=…)`; `json_schema_extra={"input": True}` marks an
 * input.
 */
function readDefault(
  py: PythonSyntax,
  value: SyntaxNode | null,
): { hasDefault: boolean; input: boolean; text?: string } {
  if (!value) return { hasDefault: false, input: false };
  if (value.name === 'CallExpression' && textOf(py, value.firstChild!) === 'Field') {
    const args = argumentsOf(py, value);
    const hasDefault =
      args.positional.length > 0 || args.keywords.has('default') || args.keywords.has('default_factory');
    const extra = args.keywords.get('json_schema_extra');
    const input = !!extra && /["']input["']\s*:\s*True/.test(textOf(py, extra.value));
    const shown =
      args.positional[0] ?? args.keywords.get('default')?.value ?? args.keywords.get('default_factory')?.value;
    return {
      hasDefault,
      input,
      ...(shown
        ? {
            text:
              args.keywords.get('default_factory') && !args.positional[0]
                ? `${textOf(py, shown)}()`
                : textOf(py, shown),
          }
        : {}),
    };
  }
  return { hasDefault: true, input: false, text: textOf(py, value) };
}

/** Where a dotted path leads in the State: the field at its end, or the first segment that names nothing. */
export type PathResolution =
  | { ok: true; field: StateField; type: StateType; nullable: boolean }
  | { ok: false; failedAt: number; candidates: string[] };

/**
 * Resolves a path of field names from the root model, dotting into nested
 * models (and, with `intoItems`, into the items of a list of models, as a
 * placeholder may). Each step follows one segment, so a class cycle cannot
 * make it loop.
 */
export function resolveStatePath(schema: StateSchema, segments: string[], intoItems = false): PathResolution {
  let model = schema.root;
  let found: StateField | undefined;
  for (let i = 0; i < segments.length; i++) {
    if (!model) return { ok: false, failedAt: i, candidates: [] };
    found = model.fields.find((field) => field.name === segments[i]);
    if (!found) return { ok: false, failedAt: i, candidates: model.fields.map((field) => field.name) };
    let type = found.type;
    if (intoItems && type.kind === 'list') type = type.item;
    model = type.kind === 'model' ? schema.models.get(type.name) : undefined;
  }
  return found
    ? { ok: true, field: found, type: found.type, nullable: found.nullable }
    : { ok: false, failedAt: 0, candidates: [] };
}

/** A type as people write it (`list[str]`, `Literal["low", "high"]`). */
export function typeName(type: StateType): string {
  switch (type.kind) {
    case 'list':
      return `list[${typeName(type.item)}]`;
    case 'dict':
      return `dict[str, ${typeName(type.value)}]`;
    case 'literal':
      return `Literal[${type.values.map((value) => JSON.stringify(value)).join(', ')}]`;
    case 'model':
      return type.name;
    case 'unreadable':
      return type.text;
    default:
      return type.kind;
  }
}
