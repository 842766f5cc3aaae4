import * as path from 'node:path';
import type { SkillAnalysis } from '../analyze';
import type { Diagnostic } from '../checks/diagnostic';
import { ControlOrder } from '../model/controlFlow';
import type { GraphNode } from '../model/skillModel';
import { lineEndAt } from '../parse/lineIndex';
import { nodeAtPath, nodeSpan, pairOf } from '../parse/yamlSyntax';
import { fixOf, textChange, type Fix } from './fix';
import { scriptStub } from './scriptStub';
import { AIP_03_SCHEMA_ID, AIP_03_SPEC, runtimeBlockText } from '../formats/aip';

/** The column of `offset` on its line. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The column of a step's keys, read from where its `name` key starts. */
function keyIndent(analysis: SkillAnalysis, node: GraphNode): number | undefined {
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
export function addOutputFixes(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
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

/** Creates a missing `scripts/…` file as a stub in its language; an existing file is never touched. */
export function createScriptFix(
  dir: string,
  item: Diagnostic,
  script: { path: string; step: string; description?: string },
): Fix[] {
  if (!script.path.startsWith('scripts/') || script.path.split('/').includes('..')) return [];
  return [
    fixOf(item, `Create ${script.path}`, 'unsafe', [
      {
        kind: 'create',
        file: path.join(dir, script.path),
        text: scriptStub(script.path, script.step, script.description),
      },
    ]),
  ];
}

/** The stub for a step's script that does not exist. */
export function createStepScriptFix(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
  const node = analysis.model.nodes.find(
    (candidate) => candidate.script && candidate.script.span.start === item.span.start,
  );
  if (!node?.script) return [];
  return createScriptFix(analysis.dir, item, {
    path: node.script.path,
    step: node.id,
    ...(node.description ? { description: node.description.text } : {}),
  });
}

/** The AIP 0.3 metadata for a skill whose body reads as an AIP procedure. */
export function addAipMetadataFix(analysis: SkillAnalysis, item: Diagnostic): Fix[] {
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

/**
 * The published runtime block of its version in place of an edited one (everything between the frontmatter and the
 * procedure). Unsafe: what the author changed in the block is dropped, and belongs in the procedure if it matters.
 */
export function restoreRuntimeBlockFix(item: Diagnostic): Fix[] {
  const version = item.data?.version;
  const replace = item.data?.replace as { start: number; end: number } | undefined;
  const block = typeof version === 'string' ? runtimeBlockText(version) : undefined;
  if (!block || !replace) return [];
  return [
    fixOf(item, `Restore the published AIP ${version} runtime block`, 'unsafe', [
      textChange(item.file, replace.start, replace.end, `\n${block}\n\n`),
    ]),
  ];
}
