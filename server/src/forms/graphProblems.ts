import type { AnalysisBase } from '../analysis/skillAnalysis';
import type { GraphNode, Port } from '../model/skillModel';
import type { Span } from '../parse/text/lineIndex';
import type { SkillLines } from '../parse/text/skillLines';
import type { GraphProblem, ProblemTarget } from '../protocol';
import { dependencyCycle } from '../checks/graph/cycles';
import { inputNameTypo } from '../checks/graph/dataFlow';

/** The findings a drawing marks specially, by their rule. */
const MARKS: Record<string, GraphProblem['mark']> = {
  [dependencyCycle.code]: 'cycle',
  [inputNameTypo.code]: 'misspelt',
};

/** Whether the problem at `at` is inside `span` (in the same file: spans without one are in SKILL.md). */
const within = (span: Span, at: Span & { file: string }, skillFile: string) =>
  (span.file ?? skillFile) === at.file && span.start <= at.start && at.start < Math.max(span.end, span.start + 1);

/**
 * Places each diagnostic on the nodes, ports and edges it is about, so the
 * preview can mark them. `idOf` gives each node's id in the drawing (unique
 * even when step names are not).
 */
export function graphProblems(
  analysis: AnalysisBase,
  lines: SkillLines,
  display: (file: string) => string,
  idOf: (node: GraphNode) => string,
): GraphProblem[] {
  const nodes = analysis.model.nodes;
  // Made only when there is a problem to place.
  const reaches = analysis.diagnostics.length > 0 ? nodes.map((node) => reachOf(node, analysis.file)) : [];
  return analysis.diagnostics.map((item) => ({
    file: display(item.file),
    code: item.code,
    severity: item.severity,
    message: item.message,
    range: lines.of(item.file).rangeOf(item.span),
    targets: targetsOf(nodes, reaches, { ...item.span, file: item.file }, analysis.file, item.data, idOf),
    ...(MARKS[item.code] ? { mark: MARKS[item.code] } : {}),
  }));
}

/** Where all of a node's spans lie, when they are in one file: a problem elsewhere is about none of them. */
interface Reach {
  file: string;
  start: number;
  end: number;
}

/**
 * The file and the stretch of it a node's spans cover (its own, its ports', its references'); undefined when they are
 * in several files. Each problem is then matched only with the nodes that reach it: a 1,000-step procedure's findings
 * were each matched with every step's ports and references.
 */
function reachOf(node: GraphNode, skillFile: string): Reach | undefined {
  const reach: Reach = { file: node.span.file ?? skillFile, start: Infinity, end: -Infinity };
  // Span by span, without listing them first: this runs for every step of every graph made.
  if (!extend(reach, node.span, skillFile) || !extend(reach, node.nameSpan, skillFile)) return undefined;
  for (const ref of node.controlRefs) if (!extend(reach, ref.span, skillFile)) return undefined;
  for (const ports of [node.inputs, node.outputs])
    for (const port of ports)
      if (!extend(reach, port.nameSpan, skillFile) || (port.typeSpan && !extend(reach, port.typeSpan, skillFile)))
        return undefined;
  return reach;
}

/** Widens `reach` to hold `span`; false when the span is in another file. */
function extend(reach: Reach, span: Span, skillFile: string): boolean {
  if ((span.file ?? skillFile) !== reach.file) return false;
  reach.start = Math.min(reach.start, span.start);
  reach.end = Math.max(reach.end, span.end, span.start + 1);
  return true;
}

function targetsOf(
  allNodes: GraphNode[],
  reaches: (Reach | undefined)[],
  at: Span & { file: string },
  skillFile: string,
  data: Record<string, unknown> | undefined,
  idOf: (node: GraphNode) => string,
): ProblemTarget[] {
  const inside = (span: Span) => within(span, at, skillFile);
  const cycle = data?.cycle;
  if (Array.isArray(cycle)) {
    const ids = cycle as string[];
    return ids.map((from, i) => ({ kind: 'edge' as const, from, to: ids[(i + 1) % ids.length] }));
  }
  const nodes = allNodes.filter((_, index) => {
    const reach = reaches[index];
    return !reach || (reach.file === at.file && reach.start <= at.start && at.start < reach.end);
  });
  const portIn = (ports: Port[]) =>
    ports.find((port) => inside(port.nameSpan) || (port.typeSpan !== undefined && inside(port.typeSpan)));
  for (const node of nodes) {
    const port = portIn(node.inputs) ?? portIn(node.outputs);
    if (port) return [{ kind: 'port', node: idOf(node), name: port.name, direction: port.direction }];
    const ref = node.controlRefs.find((candidate) => inside(candidate.span));
    if (ref) {
      const dependency = ref.via === 'depends_on';
      return [{ kind: 'edge', from: dependency ? ref.target : idOf(node), to: dependency ? idOf(node) : ref.target }];
    }
  }
  const node =
    nodes.find((candidate) => inside(candidate.nameSpan)) ?? nodes.find((candidate) => inside(candidate.span));
  return node ? [{ kind: 'node', id: idOf(node) }] : [];
}
