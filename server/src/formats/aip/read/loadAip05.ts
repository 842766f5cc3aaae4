import procedureSchema from '../../../../../schemas/aip-0.5.procedure.schema.json';
import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { checkStepLink, missingResource } from '../../../checks/links/fileLinks';
import { scriptHoleFindings } from '../../../checks/links/scriptHoles';
import type { GraphEdge, GraphNode, NodeKind, Port } from '../../../model/skillModel';
import type { Node } from 'yaml';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, scalarString, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';
import { readProcedureBlock } from './procedureBlock';
import { checkProcedureGraph, type ProcedureResult } from './procedureGraph';
import {
  reusedEdges,
  perStep,
  procedureSteps,
  readControlRefs,
  readLink,
  readScalarMap,
  readStepBase,
  readStringList,
} from './readSteps';
import { linkCheckOf, type FormatContext } from '../../../analysis/formatContext';
import { checkStepGraph } from './stepGraph';
import { hasSourceDir, missingSourceDir } from './packageRules';
import { checkRuntimeBlock } from './runtimeBlock';
import { unknownStepReference } from '../../../checks/graph/controlRefs';

const KINDS: NodeKind[] = ['decision', 'execution', 'client_task', 'router', 'end'];

/** The state value a decision question collapses to. */
const ANSWER_TYPES: Record<string, string> = { noul: 'boolean', choice: 'string', score: 'integer' };

/**
 * AIP 0.5: a runtime block, then one fenced YAML procedure of typed steps
 * linked by `inputs_to` and router `branches`, sharing one state object.
 */
export function loadAip05(context: FormatContext): ProcedureResult {
  const { syntax, file, fs } = context;
  const diagnostics: Diagnostic[] = [];
  const block = readProcedureBlock(syntax, file, true, diagnostics, context.incremental?.yaml);
  diagnostics.push(
    ...checkRuntimeBlock(
      syntax,
      file,
      context.frontmatter,
      block?.fence.open.start ?? syntax.body.end,
      block?.fence.open ?? context.frontmatterAnchor,
    ),
  );
  // The aip-spec validator requires `source/` (the human-readable material the skill was compiled from) as 0.3 did.
  if (!context.modelOnly && !hasSourceDir(fs, path.dirname(file)))
    diagnostics.push(
      diagnostic(
        missingSourceDir,
        file,
        context.frontmatterAnchor,
        'An AIP package needs a `source/` folder holding the material it was written from (e.g. the original SKILL.md); the aip-spec validator rejects a skill without it.',
      ),
    );
  if (!block?.value) return { nodes: [], edges: [], diagnostics, ...(block ? { procedure: block } : {}) };
  const { yaml, nodes } = procedureSteps(
    context,
    'aip-0.5',
    procedureSchema,
    block,
    block.value,
    diagnostics,
    readStep,
  );
  const edges = perStep(context, 'control edges', nodes.length, [], false, (index) => {
    const node = nodes[index];
    return reusedEdges(context, node, undefined, () =>
      node.controlRefs.map((ref): GraphEdge => ({
        from: node.id,
        to: ref.target,
        kind: ref.via === 'branch' ? 'branch' : 'control',
        span: ref.span,
        ...(ref.label !== undefined ? { label: ref.label } : {}),
      })),
    );
  }).items;

  const links = linkCheckOf(context);
  const linkFindings = perStep(context, 'link findings', nodes.length, [fs], false, (index) => {
    const node = nodes[index];
    const found: Diagnostic[] = [];
    if (context.modelOnly) return found;
    if (node.script) {
      checkStepLink(links, node.script, missingResource, node.id, found);
      if (found.length === 0) found.push(...scriptHoleFindings(fs, path.dirname(file), file, node));
    }
    for (const link of node.links) checkStepLink(links, link, missingResource, node.id, found);
    return found;
  }).items;
  for (const finding of linkFindings) diagnostics.push(finding);
  const start = nodes[0]?.id;
  return checkProcedureGraph(context, block, nodes, edges, diagnostics, {
    acyclic: false,
    unknownRefRule: unknownStepReference,
    // State keys the start step needs come from outside; later steps may read keys scripts wrote.
    isExternal: (input) => input.nodeId === start,
    formatChecks: () => checkStepGraph(file, yaml, nodes, edges),
  });
}

/**
 * One step as the graph sees it. Its key adds what the 0.5 graph rules read
 * beyond names and ports: the labels each question can answer, the
 * questions thresholds name.
 */
function readStep(yaml: YamlSyntax, item: Node, index: number): { node: GraphNode; key: string } {
  const kindText = scalarString(valueOf(item, 'kind'));
  const kind = KINDS.find((known) => known === kindText) ?? 'step';
  const node = readStepBase(yaml, item, index, kind);
  const questions = valueOf(item, 'questions');
  node.outputs = readScalarMap(yaml, questions).map((question): Port => ({
    name: question.key,
    direction: 'output',
    nodeId: node.id,
    type: ANSWER_TYPES[scalarString(valueOf(valueOf(questions, question.key), 'type')) ?? ''],
    nullable: false,
    span: question.keySpan,
    nameSpan: question.keySpan,
  }));
  // A router reads the state key it branches on: that key is an input, fed by the question that answers it.
  const branchOn = valueOf(item, 'branch_on');
  const branchKey = scalarString(branchOn);
  if (kind === 'router' && branchKey !== undefined) {
    const span = nodeSpan(yaml, branchOn)!;
    node.inputs.push({ name: branchKey, direction: 'input', nodeId: node.id, nullable: false, span, nameSpan: span });
  }
  node.controlRefs = readControlRefs(yaml, item, 'inputs_to', 'inputs_to');
  for (const branch of readScalarMap(yaml, valueOf(item, 'branches'))) {
    if (branch.value !== undefined)
      node.controlRefs.push({ target: branch.value, span: branch.valueSpan!, via: 'branch', label: branch.key });
  }
  const script = readLink(yaml, item, 'script', 'script');
  if (script) node.script = script;
  const template = readLink(yaml, item, 'template', 'template');
  node.links = [
    ...(template ? [template] : []),
    ...readStringList(yaml, valueOf(item, 'assets')).map(({ value, span }) => ({
      path: value,
      span,
      role: 'asset' as const,
    })),
    ...seqItems(valueOf(item, 'references')).flatMap((reference) => {
      const link = readLink(yaml, reference, 'path', 'reference');
      return link ? [link] : [];
    }),
  ];
  const answers = mapEntries(questions).map(
    (question) =>
      `${question.key}=${scalarString(valueOf(question.value, 'type')) ?? ''}:${mapEntries(
        valueOf(question.value, 'criteria'),
      )
        .map((entry) => entry.key)
        .join(',')}`,
  );
  const key = `${branchKey ?? ''}|${answers.join(';')}|${mapEntries(valueOf(item, 'branches'))
    .map((entry) => entry.key)
    .join(',')}|${mapEntries(valueOf(item, 'thresholds'))
    .map((entry) => entry.key)
    .join(',')}`;
  return { node, key };
}
