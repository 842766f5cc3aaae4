import { isMap, isScalar, isSeq, type Node, type Scalar } from 'yaml';
import type { Span } from '../../../parse/text/lineIndex';
import { scalarText, type ScalarStyle } from '../../../parse/yaml/scalarText';
import { parseYamlRegion, type YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';
import {
  emptyNode,
  FLOW_ARGUMENTS,
  FLOW_NODE_KINDS,
  type Flow,
  type FlowNode,
  type FlowNodeKind,
  type FlowProblem,
  type FlowStage,
  type FlowText,
  type FlowValue,
} from './flow';
import { defineRule } from '../../../checks/engine/rule';
import { fixOf, textChange, type Fix, type FixSource } from '../../../checks/engine/fix';
import type { Diagnostic } from '../../../checks/engine/diagnostic';

export const invalidFlowYaml = defineRule({
  code: 'invalid_flow_yaml',
  category: 'skillplus',
  severity: 'error',
  summary: 'flow.yaml is not valid, has unknown keys or text YAML read as a mapping.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'safe',
  fix: quoteMisreadFix,
});

/** Keys a node mapping may hold besides its kind key and its arguments. */
const STRUCTURE_KEYS: Partial<Record<FlowNodeKind, string[]>> = {
  branch: ['cases', 'otherwise'],
  loop: ['nodes'],
  fanout: ['nodes'],
};

/**
 * Reads `flow.yaml`, the second front end: `stages: [{id, goal, nodes}]`,
 * each node a mapping with exactly one kind key (`agent: id`, `ask: id`, …)
 * and the call's keyword arguments under their Python names. Unknown keys,
 * a missing id and text that YAML read as a mapping (an unquoted `{x} …`)
 * are `invalid_flow_yaml` problems.
 */
export function readFlowYaml(file: string, text: string): Flow {
  const flow: Flow = { file, front: 'yaml', stages: [], nodes: [], problems: [] };
  const yaml = parseYamlRegion(text, { start: 0, end: text.length });
  const span = (node: Node | null | undefined): Span => ({ ...(nodeSpan(yaml, node) ?? { start: 0, end: 0 }), file });
  const problem = (rule: FlowProblem['rule'], at: Span, message: string, data?: FlowProblem['data']) =>
    flow.problems.push({ rule, message, span: at, ...(data ? { data } : {}) });
  for (const item of yaml.problems) {
    // The usual cause: text starting with `{` read as a flow mapping (`instruction: {x} and more`); the quick fix
    // quotes it.
    const lineStart = text.lastIndexOf('\n', item.span.start - 1) + 1;
    const lineEnd = text.indexOf('\n', item.span.start) === -1 ? text.length : text.indexOf('\n', item.span.start);
    const braced = /^(\s*(?:-\s+)?[A-Za-z_][\w-]*:\s+)(\{.*?)\s*$/.exec(text.slice(lineStart, lineEnd));
    const quote = braced
      ? { start: lineStart + braced[1].length, end: lineStart + braced[1].length + braced[2].length }
      : undefined;
    problem(
      invalidFlowYaml,
      { ...item.span, file },
      `flow.yaml is not valid YAML: ${item.message}.${quote ? ' Quote text that starts with `{` or holds `: `.' : ''}`,
      quote ? { quote } : undefined,
    );
  }
  if (yaml.problems.length > 0) return flow;

  const root = yaml.doc.contents as Node | null;
  const stages = valueOf(root, 'stages');
  if (!isSeq(stages)) {
    problem(invalidFlowYaml, span(root), 'flow.yaml holds `stages:`, a list of `{id, goal, nodes}`.');
    return flow;
  }
  for (const entry of mapEntries(root))
    if (entry.key !== 'stages')
      problem(invalidFlowYaml, span(entry.keyNode), `Unknown key \`${entry.key}\`: flow.yaml holds only \`stages\`.`);

  for (const stageNode of seqItems(stages)) {
    const id = yamlText(yaml, text, file, valueOf(stageNode, 'id'));
    const stage: FlowStage = {
      id: id?.value ?? `stage@${span(stageNode).start}`,
      idSpan: id?.span ?? span(stageNode),
      nodes: [],
      span: span(stageNode),
    };
    if (!id) problem(invalidFlowYaml, span(stageNode), 'A stage needs an `id`.');
    for (const entry of mapEntries(stageNode)) {
      if (entry.key === 'goal') stage.goal = textOf(entry.value, 'goal');
      else if (!['id', 'nodes'].includes(entry.key))
        problem(
          invalidFlowYaml,
          span(entry.keyNode),
          `Unknown stage key \`${entry.key}\`; a stage has \`id\`, \`goal\` and \`nodes\`.`,
        );
    }
    flow.stages.push(stage);
    readNodes(valueOf(stageNode, 'nodes'), stage, undefined, stage.nodes);
  }
  return flow;

  function textOf(node: Node | null, key: string): FlowText | undefined {
    const found = yamlText(yaml, text, file, node);
    if (!found && node && !(isScalar(node) && node.value === null)) {
      const at = span(node);
      const oneLine = isMap(node) && !text.slice(at.start, at.end).includes('\n');
      problem(
        invalidFlowYaml,
        at,
        isMap(node)
          ? `\`${key}\` was read as a mapping: quote text that starts with \`{\` or holds \`: \`.`
          : `\`${key}\` must be text.`,
        oneLine ? { quote: { start: at.start, end: at.end } } : undefined,
      );
    }
    return found;
  }

  function readNodes(
    list: Node | undefined | null,
    stage: FlowStage,
    parent: FlowNode | undefined,
    into: string[],
  ): void {
    if (list !== undefined && list !== null && !isSeq(list))
      problem(invalidFlowYaml, span(list), '`nodes` is a list of node mappings.');
    for (const item of seqItems(list)) {
      const node = readNode(item, stage, parent);
      if (node) into.push(node.id);
    }
  }

  function readNode(item: Node, stage: FlowStage, parent: FlowNode | undefined): FlowNode | undefined {
    const entries = mapEntries(item);
    const kinds = entries.filter((entry) => (FLOW_NODE_KINDS as string[]).includes(entry.key));
    if (kinds.length !== 1) {
      problem(
        invalidFlowYaml,
        span(item),
        kinds.length === 0
          ? `A node has one kind key: ${FLOW_NODE_KINDS.map((kind) => `\`${kind}: <id>\``).join(', ')}.`
          : `A node has exactly one kind key; this one has ${kinds.map((entry) => `\`${entry.key}\``).join(' and ')}.`,
      );
      return undefined;
    }
    const kind = kinds[0].key as FlowNodeKind;
    const id = yamlText(yaml, text, file, kinds[0].value);
    if (!id) problem(invalidFlowYaml, span(kinds[0].keyNode), `\`${kind}:\` holds the node's id.`);
    const node = emptyNode(
      id?.value ?? `${kind}@${span(item).start}`,
      id?.span ?? span(kinds[0].keyNode),
      kind,
      span(item),
    );
    node.stage = stage.id;
    if (parent) node.parent = parent.id;
    flow.nodes.push(node);
    const allowed = [...FLOW_ARGUMENTS[kind], ...(STRUCTURE_KEYS[kind] ?? [])];
    for (const entry of entries) {
      if (entry.key === kind) continue;
      if (!allowed.includes(entry.key)) {
        problem(
          invalidFlowYaml,
          span(entry.keyNode),
          `Unknown key \`${entry.key}\` on a \`${kind}\` node; it takes ${allowed.map((key) => `\`${key}\``).join(', ')}.`,
        );
        continue;
      }
      const value = entry.value;
      switch (entry.key) {
        case 'tool':
        case 'rule':
        case 'until': {
          const items = isSeq(value) ? seqItems(value) : [value];
          const texts = items.flatMap((part) => textOf(part, entry.key) ?? []);
          if (entry.key === 'tool') node.tools = texts;
          else if (entry.key === 'rule') node.rules = texts;
          else node.until = texts;
          break;
        }
        case 'choices':
          node.choices = seqItems(value).flatMap((part) => flowValue(yaml, file, part) ?? []);
          if (!isSeq(value)) problem(invalidFlowYaml, span(value), '`choices` is a list.');
          break;
        case 'max_rounds':
        case 'max_parallel': {
          const found = flowValue(yaml, file, value);
          if (entry.key === 'max_rounds' && found) node.maxRounds = found;
          if (entry.key === 'max_parallel' && found) node.maxParallel = found;
          break;
        }
        case 'nodes':
          readNodes(value, stage, node, node.body);
          break;
        case 'cases':
          for (const caseNode of seqItems(value)) {
            const values = valueOf(caseNode, 'values');
            const desc = valueOf(caseNode, 'desc');
            for (const caseEntry of mapEntries(caseNode)) {
              if (!['values', 'desc', 'nodes'].includes(caseEntry.key))
                problem(
                  invalidFlowYaml,
                  span(caseEntry.keyNode),
                  `Unknown case key \`${caseEntry.key}\`; a case has \`values\` or \`desc\`, and \`nodes\`.`,
                );
            }
            const nodes: string[] = [];
            const descText = desc ? textOf(desc, 'desc') : undefined;
            node.cases.push({
              values: seqItems(values).flatMap((part) => flowValue(yaml, file, part) ?? []),
              ...(descText ? { desc: descText } : {}),
              nodes,
              span: span(caseNode),
            });
            readNodes(valueOf(caseNode, 'nodes'), stage, node, nodes);
          }
          break;
        case 'otherwise': {
          const nodes: string[] = [];
          node.otherwise = { nodes, span: span(entry.keyNode) };
          readNodes(value, stage, node, nodes);
          break;
        }
        default: {
          const found = textOf(value, entry.key);
          if (found) {
            if (
              entry.key === 'instruction' ||
              entry.key === 'question' ||
              entry.key === 'prompt' ||
              entry.key === 'summary'
            )
              node.text = found;
            else (node as unknown as Record<string, FlowText>)[entry.key] = found;
          }
        }
      }
    }
    return node;
  }
}

/** A string scalar as located text (each character's offset retraced); undefined for anything else. */
export function yamlText(
  yaml: YamlSyntax,
  text: string,
  file: string,
  node: Node | null | undefined,
): FlowText | undefined {
  if (!isScalar(node) || typeof node.value !== 'string') return undefined;
  const at = nodeSpan(yaml, node)!;
  const source = scalarText(text, at, (node as Scalar).type as ScalarStyle | undefined, node.value);
  return { value: node.value, span: { ...at, file }, offsets: source.offsets };
}

function flowValue(yaml: YamlSyntax, file: string, node: Node | null | undefined): FlowValue | undefined {
  if (!isScalar(node)) return undefined;
  const value = node.value;
  if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return undefined;
  return { value: value as FlowValue['value'], span: { ...nodeSpan(yaml, node)!, file } };
}

/** The text YAML misread (a list, a map), quoted as the string it was meant to be: safe. */
function quoteMisreadFix(item: Diagnostic, { text }: FixSource): Fix[] {
  const quote = (item.data as { quote?: { start: number; end: number } } | undefined)?.quote;
  if (!quote) return [];
  return [
    fixOf(item, 'Quote the text', 'safe', [
      textChange(item.file, quote.start, quote.end, JSON.stringify(text.slice(quote.start, quote.end))),
    ]),
  ];
}
