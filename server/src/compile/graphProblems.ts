import type { SkillAnalysis } from '../analyze';
import type { Severity } from '../checks/diagnostic';
import type { GraphNode, Port } from '../model/skillModel';
import type { LineIndex, LspRange, Span } from '../parse/lineIndex';

/** What a problem is about in the drawing. */
export type ProblemTarget =
  | { kind: 'node'; id: string }
  | { kind: 'port'; node: string; name: string; direction: Port['direction'] }
  | { kind: 'edge'; from: string; to: string };

export interface GraphProblem {
  code: string;
  severity: Severity;
  message: string;
  range: LspRange;
  /** Empty for problems about the skill as a whole (frontmatter, package). */
  targets: ProblemTarget[];
}

const within = (span: Span, offset: number) => span.start <= offset && offset < Math.max(span.end, span.start + 1);

/**
 * Places each diagnostic on the nodes, ports and edges it is about, so the
 * preview can mark them. `idOf` gives each node's id in the drawing (unique
 * even when step names are not).
 */
export function graphProblems(analysis: SkillAnalysis, lines: LineIndex, idOf: (node: GraphNode) => string): GraphProblem[] {
  const nodes = analysis.model.nodes;
  return analysis.diagnostics.map((item) => ({
    code: item.code,
    severity: item.severity,
    message: item.message,
    range: lines.rangeOf(item.span),
    targets: targetsOf(nodes, item.span.start, item.data, idOf),
  }));
}

function targetsOf(nodes: GraphNode[], offset: number, data: Record<string, unknown> | undefined, idOf: (node: GraphNode) => string): ProblemTarget[] {
  const cycle = data?.cycle;
  if (Array.isArray(cycle)) {
    const ids = cycle as string[];
    return ids.map((from, i) => ({ kind: 'edge' as const, from, to: ids[(i + 1) % ids.length] }));
  }
  for (const node of nodes) {
    for (const port of [...node.inputs, ...node.outputs]) {
      if (within(port.nameSpan, offset) || (port.typeSpan && within(port.typeSpan, offset))) return [{ kind: 'port', node: idOf(node), name: port.name, direction: port.direction }];
    }
    const ref = node.controlRefs.find((candidate) => within(candidate.span, offset));
    if (ref) {
      const dependency = ref.via === 'depends_on';
      return [{ kind: 'edge', from: dependency ? ref.target : idOf(node), to: dependency ? idOf(node) : ref.target }];
    }
  }
  const node = nodes.find((candidate) => within(candidate.nameSpan, offset)) ?? nodes.find((candidate) => within(candidate.span, offset));
  return node ? [{ kind: 'node', id: idOf(node) }] : [];
}
