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
  const reaches = nodes.map((node) => reachOf(node, analysis.file));
  return analysis.diagnostics.map((item) => ({
    file: display(item.file),
    code: item.code,
    severity: item.severity,
    message: item.message,
    range: lines.of(item.file).rangeOf(item.span),
    targets: targetsOf(nodes, reaches, { ...item.span, file: item.file }, analysis.file, item.data, idOf),
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
  const spans = [node.span, node.nameSpan, ...node.controlRefs.map((ref) => ref.span)];
  for (const port of [...node.inputs, ...node.outputs])
    spans.push(port.nameSpan, ...(port.typeSpan ? [port.typeSpan] : []));
  const file = node.span.file ?? skillFile;
  let [start, end] = [Infinity, -Infinity];
  for (const span of spans) {
    if ((span.file ?? skillFile) !== file) return undefined;
    start = Math.min(start, span.start);
    end = Math.max(end, span.end, span.start + 1);
  }
  return { file, start, end };
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
