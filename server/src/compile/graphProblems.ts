import type { SkillAnalysis } from '../analyze';
import type { Severity } from '../checks/diagnostic';
import type { GraphNode, Port } from '../model/skillModel';
import type { LspRange, Span } from '../parse/lineIndex';
import type { SkillLines } from '../parse/skillLines';

/** What a problem is about in the drawing. */
export type ProblemTarget =
  | { kind: 'node'; id: string }
  | { kind: 'port'; node: string; name: string; direction: Port['direction'] }
  | { kind: 'edge'; from: string; to: string };

export interface GraphProblem {
  /** The file the problem is in (a skill+ package spreads them over several). */
  file: string;
  code: string;
  severity: Severity;
  message: string;
  range: LspRange;
  /** Empty for problems about the skill as a whole (frontmatter, package). */
  targets: ProblemTarget[];
}

/** Whether the problem at `at` is inside `span` (in the same file: spans without one are in SKILL.md). */
const within = (span: Span, at: Span & { file: string }, skillFile: string) =>
  (span.file ?? skillFile) === at.file && span.start <= at.start && at.start < Math.max(span.end, span.start + 1);

/**
 * Places each diagnostic on the nodes, ports and edges it is about, so the
 * preview can mark them. `idOf` gives each node's id in the drawing (unique
 * even when step names are not).
 */
export function graphProblems(
  analysis: SkillAnalysis,
  lines: SkillLines,
  display: (file: string) => string,
  idOf: (node: GraphNode) => string,
): GraphProblem[] {
  const nodes = analysis.model.nodes;
  return analysis.diagnostics.map((item) => ({
    file: display(item.file),
    code: item.code,
    severity: item.severity,
    message: item.message,
    range: lines.of(item.file).rangeOf(item.span),
    targets: targetsOf(nodes, { ...item.span, file: item.file }, analysis.file, item.data, idOf),
  }));
}

function targetsOf(
  nodes: GraphNode[],
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
