import { isMap, isScalar, isSeq, type Node, type Scalar } from 'yaml';
import { readExpression, readTemplate } from '../../../parse/jinja/jinja';
import type { Span } from '../../../parse/text/lineIndex';
import { scalarText, valueSpan, type ScalarStyle } from '../../../parse/yaml/scalarText';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, nodeStartIn, scalarString, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';
import type { ReusedSteps } from '../../../incremental/reusedSteps';
import type { MovableParts } from '../../../model/spansIn';
import type { ClarifyField, Located, MetaPlan, MetaStep, MetaTemplate } from './metaPlan';

/** The instruction of a step, by the keys the runtime reads it from. */
const INSTRUCTION_KEYS = ['task', 'system', 'text', 'prompt', 'request'];

/** A string scalar as a template or expression located in the file; undefined for anything else. */
export function readScalarTemplate(
  yaml: YamlSyntax,
  fileText: string,
  node: Node | null | undefined,
  argument: string,
  keySpan: Span,
  expression: boolean,
): MetaTemplate | undefined {
  if (!isScalar(node) || typeof node.value !== 'string') return undefined;
  const span = nodeSpan(yaml, node)!;
  const source = scalarText(fileText, span, (node as Scalar).type as ScalarStyle | undefined, node.value);
  return {
    argument,
    keySpan,
    valueSpan: span,
    source,
    expression,
    read: expression ? readExpression(node.value) : readTemplate(node.value),
  };
}

/** Every string leaf of an argument map (`with`, `tool_args`), nested maps and lists included, as templates. */
function argumentTemplates(
  yaml: YamlSyntax,
  fileText: string,
  node: Node | null | undefined,
  prefix: string,
  keySpan: Span | undefined,
  out: MetaTemplate[],
): void {
  if (isMap(node)) {
    for (const entry of mapEntries(node))
      argumentTemplates(yaml, fileText, entry.value, `${prefix}.${entry.key}`, nodeSpan(yaml, entry.keyNode), out);
  } else if (isSeq(node)) {
    seqItems(node).forEach((item, index) =>
      argumentTemplates(yaml, fileText, item, `${prefix}[${index}]`, keySpan ?? nodeSpan(yaml, item), out),
    );
  } else if (keySpan) {
    const template = readScalarTemplate(yaml, fileText, node, prefix, keySpan, false);
    if (template) out.push(template);
  }
}

function located(yaml: YamlSyntax, node: Node | null | undefined): Located | undefined {
  const value = scalarString(node);
  return value === undefined ? undefined : { value, span: nodeSpan(yaml, node)! };
}

function keySpanOf(yaml: YamlSyntax, map: Node, key: string): Span | undefined {
  const entry = mapEntries(map)
    .filter((candidate) => candidate.key === key)
    .pop();
  return entry ? nodeSpan(yaml, entry.keyNode) : undefined;
}

/**
 * Reads one step mapping of `composition.steps`. Type errors are the schema's to report; this keeps what it can read.
 */
function readStep(yaml: YamlSyntax, fileText: string, item: Node, index: number): MetaStep {
  const span = nodeSpan(yaml, item)!;
  const idNode = valueOf(item, 'id');
  const id = scalarString(idNode);
  const hasId = typeof id === 'string' && id !== '';
  const kindNode = valueOf(item, 'kind');
  const templates: MetaTemplate[] = [];
  for (const key of ['with', 'tool_args']) {
    const argumentsNode = valueOf(item, key);
    if (isMap(argumentsNode)) argumentTemplates(yaml, fileText, argumentsNode, key, undefined, templates);
  }
  const when = readScalarTemplate(
    yaml,
    fileText,
    valueOf(item, 'when'),
    'when',
    keySpanOf(yaml, item, 'when') ?? span,
    true,
  );
  if (when) templates.push(when);
  const routes: MetaStep['routes'] = [];
  seqItems(valueOf(item, 'route')).forEach((route, routeIndex) => {
    const condition = readScalarTemplate(
      yaml,
      fileText,
      valueOf(route, 'when'),
      `route[${routeIndex}].when`,
      keySpanOf(yaml, route, 'when') ?? nodeSpan(yaml, route)!,
      true,
    );
    if (condition) templates.push(condition);
    const to = located(yaml, valueOf(route, 'to'));
    if (to) routes.push({ to, ...(condition ? { when: condition.source.value } : {}) });
  });
  const clarify = valueOf(item, 'clarify');
  const skipIf = readScalarTemplate(
    yaml,
    fileText,
    valueOf(clarify, 'skip_if'),
    'clarify.skip_if',
    keySpanOf(yaml, clarify ?? item, 'skip_if') ?? span,
    true,
  );
  if (skipIf) templates.push(skipIf);
  const clarifyFields: ClarifyField[] = seqItems(valueOf(clarify, 'fields')).flatMap((field) => {
    const name = located(yaml, valueOf(field, 'name'));
    return name ? [{ name: name.value, type: scalarString(valueOf(field, 'type')) ?? 'string', span: name.span }] : [];
  });
  const withNode = valueOf(item, 'with');
  const instructionKey = INSTRUCTION_KEYS.find((key) => typeof scalarString(valueOf(withNode, key)) === 'string');
  const dependsOn = seqItems(valueOf(item, 'depends_on')).flatMap((entry) => located(yaml, entry) ?? []);
  const skill = located(yaml, valueOf(item, 'skill'));
  const onFailure = located(yaml, valueOf(item, 'on_failure'));
  const label = scalarString(valueOf(item, 'label'));
  return {
    index,
    id: hasId ? id : `steps[${index}]`,
    idSpan: hasId ? nodeSpan(yaml, idNode)! : { start: span.start, end: span.start },
    hasId,
    span,
    kind: scalarString(kindNode) ?? 'agent',
    ...(kindNode ? { kindSpan: nodeSpan(yaml, kindNode)! } : {}),
    ...(skill ? { skill } : {}),
    dependsOn,
    ...(onFailure && onFailure.value.trim() !== ''
      ? { onFailure: { value: onFailure.value.trim(), span: onFailure.span } }
      : {}),
    routes,
    templates,
    ...(instructionKey ? { instruction: scalarString(valueOf(withNode, instructionKey))! } : {}),
    ...(label !== undefined ? { label } : {}),
    clarifyFields,
    node: item,
  };
}

/**
 * What moves with a step when text above it grows or shrinks: its spans and
 * the offsets of its templates' text. Listed, not found by a walk
 * (`movablePartsIn`): a template's Jinja reading holds positions inside the
 * template's value, which do not move.
 */
function movableParts(step: MetaStep): MovableParts {
  const spans = new Set<Span>([
    step.span,
    step.idSpan,
    ...step.dependsOn.map((entry) => entry.span),
    ...step.routes.map((route) => route.to.span),
    ...step.clarifyFields.map((field) => field.span),
  ]);
  for (const span of [step.kindSpan, step.skill?.span, step.onFailure?.span]) if (span) spans.add(span);
  for (const template of step.templates) spans.add(template.keySpan).add(template.valueSpan);
  return { spans: [...spans], offsets: step.templates.map((template) => template.source.offsets) };
}

/**
 * The plan of a `kind: meta` frontmatter, as far as it can be read: steps
 * that are not mappings are skipped (the structure rules report them), and
 * `final_text_mode: step:<id>` is located on its id. With the server's
 * reused steps, a step whose YAML node the chunk cache kept is not read
 * again, only moved.
 */
export function readComposition(yaml: YamlSyntax, fileText: string, reused?: ReusedSteps): MetaPlan {
  const root = yaml.doc.contents as Node | null;
  const read = (item: Node, index: number): MetaStep => {
    if (!reused) return readStep(yaml, fileText, item, index);
    const build = () => {
      const value = readStep(yaml, fileText, item, index);
      return { value, named: value.hasId, parts: movableParts(value) };
    };
    const step = reused.part(item, 'metaskill', index, nodeStartIn(yaml, item)!, build);
    step.index = index;
    return step;
  };
  const steps = seqItems(valueOf(valueOf(root, 'composition'), 'steps'))
    .map((item, index) => (isMap(item) ? read(item, index) : undefined))
    .filter((step): step is MetaStep => step !== undefined);
  const modeNode = valueOf(root, 'final_text_mode');
  let finalTextStep: Located | undefined;
  if (isScalar(modeNode) && typeof modeNode.value === 'string') {
    const match = /^\s*step:\s*/.exec(modeNode.value);
    if (match) {
      const source = scalarText(
        fileText,
        nodeSpan(yaml, modeNode)!,
        modeNode.type as ScalarStyle | undefined,
        modeNode.value,
      );
      const id = modeNode.value.slice(match[0].length).trim();
      finalTextStep = { value: id, span: valueSpan(source, match[0].length, match[0].length + id.length) };
    }
  }
  return { form: 'composition', steps, ...(finalTextStep ? { finalTextStep } : {}) };
}
