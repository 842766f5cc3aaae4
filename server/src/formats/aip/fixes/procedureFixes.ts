import type { AipAnalysis } from '../read/analysis';
import type { Diagnostic } from '../../../checks/engine/diagnostic';
import { ControlOrder } from '../../../model/controlFlow';
import type { GraphNode } from '../../../model/skillModel';
import { lineEndAt } from '../../../parse/text/lineIndex';
import { nodeAtPath, nodeSpan, pairOf } from '../../../parse/yaml/yamlNodes';
import { fixOf, textChange, type Fix } from '../../../checks/engine/fix';
import { AIP_03_SCHEMA_ID, AIP_03_SPEC } from '../read/aipMetadata';

/** The column of `offset` on its line. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The column of a step's keys, read from where its `name` key starts. */
function keyIndent(analysis: AipAnalysis, node: GraphNode): number | undefined {
  const { procedure, model, text } = analysis;
  if (!procedure) return undefined;
  const item = nodeAtPath(procedure.yaml, ['steps', model.nodes.indexOf(node)]);
  const key = nodeSpan(procedure.yaml, pairOf(item.node, 'name')?.key);
  return key ? columnOf(text, key.start) : undefined;
}

/**
 * The offset just after the last non-blank character before `end` (YAML node ranges run on over trailing blank lines).
 */
function contentEnd(text: string, end: number): number {
  let at = end;
  while (at > 0 && /\s/.test(text[at - 1])) at--;
  return Math.max(0, at - 1);
}

/** For an external input: add it as an output of each step that runs right before its consumer. */
export function addOutputFixes(analysis: AipAnalysis, item: Diagnostic): Fix[] {
  const { model, procedure, text } = analysis;
  const input = model.externalInputs.find((port) => port.nameSpan.start === item.span.start);
  if (!input || !procedure) return [];
  const order = new ControlOrder(model.nodes, model.edges);
  const direct = model.edges
    .filter((edge) => edge.kind !== 'data' && edge.to === input.nodeId)
    .map((edge) => edge.from);
  const producers = model.nodes.filter((node) => direct.includes(node.id) && order.isAncestor(node.id, input.nodeId));
  return producers.flatMap((node, index) => {
    const indent = keyIndent(analysis, node);
    if (indent === undefined) return [];
    const pad = ' '.repeat(indent);
    const type = input.type ? `\n${pad}    type: ${input.type}` : '';
    const outputs = nodeAtPath(procedure.yaml, ['steps', model.nodes.indexOf(node), 'outputs']);
    const last = node.outputs[node.outputs.length - 1];
    const after = lineEndAt(text, contentEnd(text, outputs.depth === 3 && last ? last.span.end : node.span.end));
    const newText =
      outputs.depth === 3 && last
        ? `\n${pad}  - name: ${input.name}${type}`
        : `\n${pad}outputs:\n${pad}  - name: ${input.name}${type}`;
    return [
      fixOf(item, `Add output "${input.name}" to step "${node.id}"`, 'unsafe', [
        textChange(analysis.file, after, after, newText),
      ]),
    ].map((fix) => ({ ...fix, preferred: index === 0 && producers.length === 1 }));
  });
}

/** The AIP 0.3 metadata for a skill whose body reads as an AIP procedure. */
export function addAipMetadataFix(analysis: AipAnalysis, item: Diagnostic): Fix[] {
  const { frontmatter, text } = analysis;
  const close = analysis.syntax?.frontmatter?.close;
  if (!frontmatter || !close) return [];
  const metadata = pairOf(frontmatter.doc.contents, 'metadata');
  const aipLines = (pad: string) => `${pad}aip:\n${pad}  spec: ${AIP_03_SPEC}\n${pad}  schemaId: ${AIP_03_SCHEMA_ID}\n`;
  const metadataKey = metadata ? nodeSpan(frontmatter, metadata.key) : undefined;
  const change = metadataKey
    ? (() => {
        const nextLine = text.indexOf('\n', metadataKey.start);
        const at = nextLine === -1 ? text.length : nextLine + 1;
        return textChange(analysis.file, at, at, aipLines('  '));
      })()
    : textChange(analysis.file, close.start, close.start, `metadata:\n${aipLines('  ')}`);
  return [fixOf(item, 'Add the AIP 0.3 metadata', 'unsafe', [change])];
}
