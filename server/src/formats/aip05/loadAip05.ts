import procedureSchema from '../../../../schemas/aip-0.5.procedure.schema.json';
import type { Diagnostic } from '../../checks/diagnostic';
import { checkLink } from '../../checks/fileLinks';
import { validateAgainstSchema } from '../../checks/schemaValidation';
import type { GraphEdge, GraphNode, NodeKind, Port } from '../../model/skillModel';
import { nodeSpan, scalarString, seqItems, valueOf } from '../../parse/yamlSyntax';
import { readProcedureBlock } from '../aip/procedureBlock';
import { checkProcedureGraph } from '../aip/procedureGraph';
import { readControlRefs, readLink, readScalarMap, readStepBase, readStringList } from '../aip/readSteps';
import type { FormatContext, FormatResult } from '../formatContext';
import { checkStepGraph } from './stepGraph';
import { checkRuntimeBlock } from './runtimeBlock';

const KINDS: NodeKind[] = ['decision', 'execution', 'client_task', 'router', 'end'];

/** The state value a decision question collapses to. */
const ANSWER_TYPES: Record<string, string> = { noul: 'boolean', choice: 'string', score: 'integer' };

/**
 * AIP 0.5: a runtime block, then one fenced YAML procedure of typed steps
 * linked by `inputs_to` and router `branches`, sharing one state object.
 */
export function loadAip05(context: FormatContext): FormatResult {
  const { syntax, file, fs, dir } = context;
  const diagnostics: Diagnostic[] = [];
  const block = readProcedureBlock(syntax, file, true, diagnostics, context.yamlCache);
  diagnostics.push(...checkRuntimeBlock(syntax, file, context.frontmatter, block?.fence.open.start ?? syntax.body.end, block?.fence.open ?? context.frontmatterAnchor));
  if (!block?.value) return { nodes: [], edges: [], diagnostics, ...(block ? { procedure: block } : {}) };
  diagnostics.push(
    ...validateAgainstSchema(procedureSchema, block.value, { file, yaml: block.yaml, rootSpan: block.fence.open, defaultCode: 'schema_violation', rootName: 'the procedure' }),
  );

  const yaml = block.yaml;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  seqItems(valueOf(yaml.doc.contents, 'steps')).forEach((item, index) => {
    const kindText = scalarString(valueOf(item, 'kind'));
    const kind = KINDS.find((known) => known === kindText) ?? 'step';
    const node = readStepBase(yaml, item, index, kind);
    node.outputs = readScalarMap(yaml, valueOf(item, 'questions')).map(
      (question): Port => ({
        name: question.key,
        direction: 'output',
        nodeId: node.id,
        type: ANSWER_TYPES[scalarString(valueOf(valueOf(valueOf(item, 'questions'), question.key), 'type')) ?? ''],
        nullable: false,
        span: question.keySpan,
        nameSpan: question.keySpan,
      }),
    );
    // A router reads the state key it branches on: that key is an input, fed by the question that answers it.
    const branchOn = valueOf(item, 'branch_on');
    const branchKey = scalarString(branchOn);
    if (kind === 'router' && branchKey !== undefined) {
      const span = nodeSpan(yaml, branchOn)!;
      node.inputs.push({ name: branchKey, direction: 'input', nodeId: node.id, nullable: false, span, nameSpan: span });
    }
    node.controlRefs = readControlRefs(yaml, item, 'inputs_to', 'inputs_to');
    for (const branch of readScalarMap(yaml, valueOf(item, 'branches'))) {
      if (branch.value !== undefined) node.controlRefs.push({ target: branch.value, span: branch.valueSpan!, via: 'branch', label: branch.key });
    }
    for (const ref of node.controlRefs) {
      edges.push({ from: node.id, to: ref.target, kind: ref.via === 'branch' ? 'branch' : 'control', span: ref.span, ...(ref.label !== undefined ? { label: ref.label } : {}) });
    }
    const script = readLink(yaml, item, 'script', 'script');
    if (script) node.script = script;
    const template = readLink(yaml, item, 'template', 'template');
    node.links = [
      ...(template ? [template] : []),
      ...readStringList(yaml, valueOf(item, 'assets')).map(({ value, span }) => ({ path: value, span, role: 'asset' as const })),
      ...seqItems(valueOf(item, 'references')).flatMap((reference) => {
        const link = readLink(yaml, reference, 'path', 'reference');
        return link ? [link] : [];
      }),
    ];
    nodes.push(node);
  });

  for (const node of nodes) {
    for (const link of [...(node.script ? [node.script] : []), ...node.links]) {
      checkLink({ fs, dir, file }, link.path, link.span, 'missing_resource', `The ${link.role} \`${link.path}\` of step "${node.id}"`, diagnostics);
    }
  }
  diagnostics.push(...checkStepGraph(file, yaml, nodes, edges));
  const start = nodes[0]?.id;
  return checkProcedureGraph(context, block, nodes, edges, diagnostics, {
    acyclic: false,
    unknownRefCode: 'unknown_step_reference',
    // State keys the start step needs come from outside; later steps may read keys scripts wrote.
    isExternal: (input) => input.nodeId === start,
  });
}
