import * as path from 'node:path';
import procedureSchema from '../../../../../schemas/aip-0.3.procedure.schema.json';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { checkStepLink, missingScript } from '../../../checks/links/fileLinks';
import { scriptHoleFindings } from '../../../checks/links/scriptHoles';
import type { GraphEdge, GraphNode } from '../../../model/skillModel';
import type { Node } from 'yaml';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { valueOf, scalarString } from '../../../parse/yaml/yamlNodes';
import { linkCheckOf, type FormatContext } from '../../../analysis/formatContext';
import { readProcedureBlock } from './procedureBlock';
import { checkProcedureGraph, type ProcedureResult } from './procedureGraph';
import {
  reusedEdges,
  perStep,
  procedureSteps,
  readControlRefs,
  readLink,
  readStepBase,
  readStringList,
} from './readSteps';
import { checkAipMetadata } from './aipMetadata';
import { checkPackage } from './packageRules';
import { defineRule } from '../../../checks/engine/rule';
import { unknownDependency } from '../../../checks/graph/controlRefs';

export const aipLikeSkill = defineRule({
  code: 'aip_like_skill',
  category: 'aip',
  severity: 'information',
  summary: 'The body is an AIP procedure but the frontmatter lacks AIP metadata.',
  stability: 'stable',
  formats: ['aip-0.3'],
  fixable: 'unsafe',
});

export const scriptOutsideScripts = defineRule({
  code: 'script_outside_scripts',
  category: 'graph',
  severity: 'warning',
  summary: '`script` is not under `scripts/`.',
  stability: 'stable',
  formats: ['aip-0.3'],
});

/**
 * AIP 0.3: frontmatter `metadata.aip`, a `source/` package, and a body of
 * exactly one fenced YAML procedure whose steps are ordered by
 * `depends_on`, else by list position.
 */
export function loadAip03(context: FormatContext): ProcedureResult {
  const { syntax, file, fs, dir } = context;
  const diagnostics: Diagnostic[] = [];
  if (context.unmarked) {
    diagnostics.push(
      diagnostic(
        aipLikeSkill,
        file,
        context.frontmatterAnchor,
        'The body is an AIP procedure, but the frontmatter has no `metadata.aip`; agents and AIP tools will treat it as a plain skill. Add the AIP metadata.',
      ),
    );
  } else if (context.frontmatter && !context.modelOnly) {
    const metadata = checkAipMetadata(file, context.frontmatter, context.frontmatterAnchor, diagnostics);
    diagnostics.push(...checkPackage(fs, dir, file, metadata));
  }

  const block = readProcedureBlock(syntax, file, false, diagnostics, context.incremental?.yaml);
  if (!block?.value) return { nodes: [], edges: [], diagnostics, ...(block ? { procedure: block } : {}) };
  const { nodes } = procedureSteps(context, 'aip-0.3', procedureSchema, block, block.value, diagnostics, readStep);
  const edges = perStep(context, 'control edges', nodes.length, [], true, (index) => {
    const node = nodes[index];
    const named = namesPredecessors.has(node);
    // Without `depends_on`, a step follows the previous list item; not one of its own name (a duplicate, reported as
    // such), whose edge would be drawn and checked as a step that waits for itself.
    const before = index === 0 ? undefined : nodes[index - 1].id;
    const after = named || before === node.id ? undefined : before;
    return reusedEdges(context, node, after, () =>
      named
        ? node.controlRefs.map((ref): GraphEdge => ({ from: ref.target, to: node.id, kind: 'control', span: ref.span }))
        : after === undefined
          ? []
          : [{ from: after, to: node.id, kind: 'control' }],
    );
  }).items;

  const links = linkCheckOf(context);
  const scriptFindings = perStep(context, 'script findings', nodes.length, [fs], false, (index) => {
    const { script, id } = nodes[index];
    if (!script || context.modelOnly) return NONE;
    const found: Diagnostic[] = [];
    const target = script.path;
    if (!target.startsWith('scripts/') && !target.includes('..') && !target.startsWith('/')) {
      found.push(
        diagnostic(
          scriptOutsideScripts,
          file,
          script.span,
          `\`${target}\` is not under \`scripts/\`; AIP keeps every step's script there.`,
        ),
      );
    }
    checkStepLink(links, script, missingScript, id, found);
    if (found.length === 0) found.push(...scriptHoleFindings(fs, path.dirname(file), file, nodes[index]));
    return found;
  }).items;
  for (const finding of scriptFindings) diagnostics.push(finding);
  return checkProcedureGraph(context, block, nodes, edges, diagnostics, {
    acyclic: true,
    unknownRefRule: unknownDependency,
    isExternal: () => true,
  });
}

/**
 * The steps with a `depends_on` (even an empty one): they follow only what it
 * names, the others the step before them. Noted when a step is read, so a
 * reused step (the server keeps unchanged ones) is not looked up again.
 */
const namesPredecessors = new WeakSet<GraphNode>();

const NONE: readonly Diagnostic[] = [];

function readStep(yaml: YamlSyntax, item: Node, index: number): { node: GraphNode } {
  const node = readStepBase(yaml, item, index, 'step');
  node.controlRefs = readControlRefs(yaml, item, 'depends_on', 'depends_on');
  if (valueOf(item, 'depends_on') !== undefined) namesPredecessors.add(node);
  node.oneOf = readStringList(yaml, valueOf(item, 'one_of')).map((entry) => entry.value);
  node.parallel = scalarString(valueOf(item, 'parallel')) === 'true';
  const script = readLink(yaml, item, 'script', 'script');
  if (script) node.script = script;
  return { node };
}
