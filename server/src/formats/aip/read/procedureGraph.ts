import { checkMentionedPaths } from '../../../checks/links/fileLinks';
import { checkNestedReferences } from '../../../checks/links/nestedReferences';
import { findPathMentions, type PathMention } from '../../../parse/markdown/pathMentions';
import type { Diagnostic } from '../../../checks/engine/diagnostic';
import { checkControlRefs, unknownDependency, unknownStepReference } from '../../../checks/graph/controlRefs';
import { checkCycles } from '../../../checks/graph/cycles';
import { checkTypes, explainUnresolved, resolveDataFlow } from '../../../checks/graph/dataFlow';
import { checkDuplicateInputs } from '../../../checks/graph/duplicateInputs';
import { checkDuplicateSteps } from '../../../checks/graph/duplicateSteps';
import type { GraphChecks } from '../../../incremental/reusedGraphChecks';
import type { GraphEdge, GraphNode, Port, SkillModel } from '../../../model/skillModel';
import { linkCheckOf, type FormatContext, type FormatResult } from '../../../analysis/formatContext';
import type { ProcedureBlock } from './procedureBlock';
import { perStep } from './readSteps';

export interface GraphRules {
  /** `depends_on` graphs (0.3) must be acyclic; `inputs_to` graphs (0.5) may loop. */
  acyclic: boolean;
  unknownRefRule: typeof unknownDependency | typeof unknownStepReference;
  /** Which unresolved inputs are external; the others are left unexplained (0.5 scripts write state we cannot see). */
  isExternal: (input: Port) => boolean;
  /** The format's own rules over the whole graph, kept with the shared ones when the graph is unchanged. */
  formatChecks?: () => Diagnostic[];
}

/** What an AIP loader returns: the graph, and the procedure block its features read (hover, completion). */
export type ProcedureResult = FormatResult & { procedure?: ProcedureBlock };

/** The graph checks both AIP versions share, run over the loaded steps. */
export function checkProcedureGraph(
  context: FormatContext,
  block: ProcedureBlock,
  nodes: GraphNode[],
  edges: readonly GraphEdge[],
  diagnostics: Diagnostic[],
  rules: GraphRules,
): ProcedureResult {
  const run = (): GraphChecks => {
    const model: SkillModel = {
      dir: context.dir,
      file: context.file,
      format: 'aip-0.3',
      nodes,
      edges: [...edges],
      externalInputs: [],
    };
    const found = [
      ...(rules.formatChecks?.() ?? []),
      ...checkDuplicateSteps(model),
      ...checkDuplicateInputs(model),
      ...checkControlRefs(model, rules.unknownRefRule),
    ];
    if (rules.acyclic) found.push(...checkCycles(model));
    const flow = resolveDataFlow(model);
    const externalInputs = flow.unresolved.filter(rules.isExternal);
    found.push(...flow.diagnostics, ...explainUnresolved(model, flow.order, externalInputs), ...checkTypes(model));
    return { diagnostics: found, edges: flow.edges, externalInputs };
  };
  const graph = context.incremental ? context.incremental.graph.of(context.file, nodes, edges, run) : run();
  diagnostics.push(...graph.diagnostics);
  const result = {
    nodes,
    edges: [...edges, ...graph.edges],
    externalInputs: graph.externalInputs,
    procedure: block,
    diagnostics,
  };
  if (context.modelOnly) return result;

  // Paths a step declares (script, template, assets, references) are checked where declared, not again where prose
  // repeats them.
  const declaredPaths = perStep(context, 'declared paths', nodes.length, [], false, (index) =>
    declaredBy(nodes[index]),
  );
  const declared = context.incremental
    ? context.incremental.stepLists.setOf('declared paths', declaredPaths)
    : new Set(declaredPaths.items);
  const links = linkCheckOf(context);
  const check = (mentions: PathMention[]) => checkMentionedPaths(links, mentions, declared, 'step');
  const text = context.syntax.source;
  const region = block.fence.content;
  const { findings, mentions } = context.incremental
    ? context.incremental.stepLists.mentionFindings(text, region, nodes, [context.fs, declared], check)
    : wholeBlock(findPathMentions(text, [region]), check);
  for (const finding of findings) diagnostics.push(finding);
  for (const finding of checkNestedReferences(links, mentions, declared)) diagnostics.push(finding);
  return result;
}

function wholeBlock(mentions: PathMention[], check: (mentions: PathMention[]) => Diagnostic[]) {
  return { findings: check(mentions), mentions };
}

/** The paths a step declares: its script and resources. */
function declaredBy(node: GraphNode): string[] {
  return [...(node.script ? [node.script.path] : []), ...node.links.map((link) => link.path)];
}
