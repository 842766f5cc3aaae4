import { checkCycles } from '../../../checks/graph/cycles';
import { checkControlRefs, unknownDependency } from '../../../checks/graph/controlRefs';
import type { Diagnostic } from '../../../checks/engine/diagnostic';
import type { SkillModel } from '../../../model/skillModel';
import { checkBody } from '../../agent-skill';
import type { FormatContext, FormatResult } from '../../../analysis/formatContext';
import { checkBindings, checkRawUserMessage } from './bindingRules';
import { checkComposedSkills } from './catalogRules';
import { buildMetaGraph } from './metaModel';
import type { MetaPlan } from './metaPlan';
import { checkPlan } from './planRules';
import { checkDuplicateSteps } from '../../../checks/graph/duplicateSteps';
import { readComposition } from './readComposition';
import { readSop } from './readSop';

/**
 * A MetaSkill: its plan (`composition.steps` in the frontmatter, or the
 * phases of a `meta_sop` body) → the model, then OpenSquilla's own checks
 * and the ones it lacks, and the body's prose links.
 */
export function loadMetaskill(context: FormatContext): FormatResult & { metaPlan?: MetaPlan } {
  const { file, syntax } = context;
  const diagnostics: Diagnostic[] = [];
  let plan: MetaPlan;
  if (context.format === 'metaskill-sop') {
    plan = readSop(context, diagnostics);
  } else {
    if (!context.frontmatter || !context.frontmatterValue) return { nodes: [], edges: [], diagnostics };
    plan = readComposition(context.frontmatter, syntax.text, context.incremental?.steps);
    diagnostics.push(
      ...checkPlan(context.frontmatter, file, context.frontmatterAnchor, plan, context.incremental !== undefined),
    );
    // OpenSquilla's lint scans the whole file of a `kind: meta` skill for raw user text.
    diagnostics.push(...checkRawUserMessage(file, syntax.text));
  }
  const graph = buildMetaGraph(plan);
  const model: SkillModel = {
    dir: context.dir,
    file,
    format: context.format,
    nodes: graph.nodes,
    edges: graph.edges,
    externalInputs: graph.externalInputs,
  };
  // Substitutes, bindings and `final_text_mode` name steps too; their rules say more than "unknown step".
  const dependencies = {
    ...model,
    nodes: model.nodes.map((node) => ({
      ...node,
      controlRefs: node.controlRefs.filter((ref) => ref.via === 'depends_on'),
    })),
  };
  // A composition's ids are checked with its plan, as OpenSquilla words it; an SOP's saved names only here.
  if (context.format === 'metaskill-sop') diagnostics.push(...checkDuplicateSteps(model));
  diagnostics.push(
    ...checkControlRefs(dependencies, unknownDependency),
    ...checkCycles(model),
    ...checkBindings(file, plan, graph),
  );
  const catalog = context.catalog.forSkill(context.dir);
  diagnostics.push(...checkComposedSkills(file, plan, catalog, context.catalog.describe(context.dir)));
  for (const node of graph.nodes)
    for (const ref of node.skillRefs ?? []) if (catalog.has(ref.name)) ref.file = catalog.get(ref.name)!.file;
  if (context.format === 'metaskill') diagnostics.push(...checkBody(context));
  return {
    nodes: graph.nodes,
    edges: graph.edges,
    externalInputs: graph.externalInputs,
    refs: graph.refs,
    metaPlan: plan,
    diagnostics,
  };
}
