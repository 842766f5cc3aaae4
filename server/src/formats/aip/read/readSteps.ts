import { isMap, type Node } from 'yaml';
import type { ControlRef, FileLink, GraphEdge, GraphNode, NodeKind, Port } from '../../../model/skillModel';
import type { Span } from '../../../parse/text/lineIndex';
import type { Diagnostic } from '../../../checks/engine/diagnostic';
import type { FormatContext } from '../../../analysis/formatContext';
import { checkProcedureSchema, type ProcedureBlock } from './procedureBlock';
import { concatParts } from '../../../incremental/stepLists';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, scalarString, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';

/**
 * Reads the io items of an `inputs` or `outputs` list into ports. Items without a name are left to the schema check.
 */
export function readPorts(
  yaml: YamlSyntax,
  list: Node | undefined,
  direction: Port['direction'],
  nodeId: string,
): Port[] {
  const ports: Port[] = [];
  for (const item of seqItems(list)) {
    const nameNode = valueOf(item, 'name');
    const name = scalarString(nameNode);
    if (name === undefined || !isMap(item)) continue;
    const typeNode = valueOf(item, 'type');
    ports.push({
      name,
      direction,
      nodeId,
      type: scalarString(typeNode),
      nullable: scalarString(valueOf(item, 'nullable')) === 'true',
      description: scalarString(valueOf(item, 'description')),
      span: nodeSpan(yaml, item)!,
      nameSpan: nodeSpan(yaml, nameNode)!,
      typeSpan: nodeSpan(yaml, typeNode),
    });
  }
  return ports;
}

/**
 * The node `build` reads from the step `item`, or the one it read from the
 * same YAML node in an earlier analysis (the server's caches keep both while
 * the step's text is unchanged), moved to where the step now is.
 */
export function reusedStep(
  context: FormatContext,
  loader: string,
  yaml: YamlSyntax,
  item: Node,
  index: number,
  read: (yaml: YamlSyntax, item: Node, index: number) => { node: GraphNode; key?: string },
): GraphNode {
  return context.incremental
    ? context.incremental.steps.step(item, loader, index, yaml, read)
    : read(yaml, item, index).node;
}

/**
 * A procedure's steps, each read by `read` (and kept per step when the server keeps the model), after the procedure
 * is checked against its version's schema (unless only the model is wanted).
 */
export function procedureSteps(
  context: FormatContext,
  loader: 'aip-0.3' | 'aip-0.5',
  schema: { $id?: string },
  block: ProcedureBlock,
  value: Record<string, unknown>,
  diagnostics: Diagnostic[],
  read: (yaml: YamlSyntax, item: Node, index: number) => { node: GraphNode; key?: string },
): { yaml: YamlSyntax; nodes: GraphNode[] } {
  if (!context.modelOnly)
    diagnostics.push(...checkProcedureSchema(schema, block, value, context.file, context.incremental !== undefined));
  const yaml = block.yaml;
  const items = seqItems(valueOf(yaml.doc.contents, 'steps'));
  return { yaml, nodes: items.map((item, index) => reusedStep(context, loader, yaml, item, index, read)) };
}

/**
 * The edges `build` makes for a step read by `reusedStep`, kept with it while `after` (another step's name they
 * read) is the same.
 */
export function reusedEdges(
  context: FormatContext,
  node: GraphNode,
  after: string | undefined,
  build: () => GraphEdge[],
): GraphEdge[] {
  return context.incremental ? context.incremental.steps.edgesOf(node, after, build) : build();
}

/** `StepLists.perStep` when the server keeps the model; each step's part made anew otherwise (the CLI). */
export function perStep<T>(
  context: FormatContext,
  name: string,
  count: number,
  key: readonly unknown[],
  readsPrevious: boolean,
  listOf: (step: number) => readonly T[],
): { items: readonly T[]; same: boolean } {
  return context.incremental
    ? context.incremental.stepLists.perStep(name, count, key, readsPrevious, listOf)
    : { items: concatParts(count, listOf).items, same: false };
}

/** The name, description and span every step has, whatever its format. */
export function readStepBase(yaml: YamlSyntax, item: Node, index: number, kind: NodeKind): GraphNode {
  const nameNode = valueOf(item, 'name');
  const name = scalarString(nameNode);
  const id = name ?? `steps[${index}]`;
  const descriptionNode = valueOf(item, 'description');
  const description = scalarString(descriptionNode);
  const span = nodeSpan(yaml, item)!;
  return {
    id,
    kind,
    label: name ?? `step ${index + 1}`,
    span,
    nameSpan: nodeSpan(yaml, nameNode) ?? { start: span.start, end: span.start },
    ...(description !== undefined
      ? { description: { text: description, span: nodeSpan(yaml, descriptionNode)! } }
      : {}),
    inputs: readPorts(yaml, valueOf(item, 'inputs'), 'input', id),
    outputs: readPorts(yaml, valueOf(item, 'outputs'), 'output', id),
    links: [],
    controlRefs: [],
  };
}

/** String entries of a list (or a lone string), each with its span. */
export function readStringList(yaml: YamlSyntax, node: Node | undefined): { value: string; span: Span }[] {
  const items = scalarString(node) !== undefined ? [node!] : seqItems(node);
  return items.flatMap((item) => {
    const value = scalarString(item);
    return value === undefined ? [] : [{ value, span: nodeSpan(yaml, item)! }];
  });
}

/** Control references of one key (`depends_on`, `inputs_to`). */
export function readControlRefs(yaml: YamlSyntax, item: Node, key: string, via: ControlRef['via']): ControlRef[] {
  return readStringList(yaml, valueOf(item, key)).map(({ value, span }) => ({ target: value, span, via }));
}

/** A file path under a key, as a link. */
export function readLink(yaml: YamlSyntax, item: Node, key: string, role: FileLink['role']): FileLink | undefined {
  const node = valueOf(item, key);
  const value = scalarString(node);
  return value === undefined ? undefined : { path: value, span: nodeSpan(yaml, node)!, role };
}

/** A map of scalar keys to scalar values with the spans of both. */
export function readScalarMap(
  yaml: YamlSyntax,
  node: Node | undefined,
): { key: string; keySpan: Span; value?: string; valueSpan?: Span }[] {
  return mapEntries(node).map((entry) => ({
    key: entry.key,
    keySpan: nodeSpan(yaml, entry.keyNode)!,
    value: scalarString(entry.value),
    valueSpan: nodeSpan(yaml, entry.value),
  }));
}
