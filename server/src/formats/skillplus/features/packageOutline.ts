import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-types';
import { nodesById, type FlowNode } from '../read/flow';
import { rangeOf, type DocumentView } from '../../../analysis/documentView';
import type { SkillplusAnalysis } from '../read/analysis';

const KINDS: Record<FlowNode['kind'], SymbolKind> = {
  agent: SymbolKind.Function,
  ask: SymbolKind.Event,
  confirm: SymbolKind.Boolean,
  branch: SymbolKind.Enum,
  loop: SymbolKind.Operator,
  fanout: SymbolKind.Array,
  end: SymbolKind.Null,
};

/** The outline of a flow file: stages, and in each its nodes, nested as the flow nests them. */
export function packageOutline(view: DocumentView<SkillplusAnalysis>): DocumentSymbol[] {
  const flow = view.analysis.skillplus?.flow;
  if (!flow || flow.file !== view.file) return [];
  const byId = nodesById(flow);
  const children = (node: FlowNode): string[] => [
    ...node.body,
    ...node.cases.flatMap((item) => item.nodes),
    ...(node.otherwise?.nodes ?? []),
  ];
  const symbol = (node: FlowNode, depth: number): DocumentSymbol => ({
    name: node.id,
    detail: `${node.kind}${node.into ? ` → ${node.into.value}` : ''}`,
    kind: KINDS[node.kind],
    range: rangeOf(view, {
      start: Math.min(node.span.start, node.idSpan.start),
      end: Math.max(node.span.end, node.idSpan.end),
      file: view.file,
    }),
    selectionRange: rangeOf(view, node.idSpan),
    // Depth is bounded by the text, but a malformed flow must not recurse without end.
    children:
      depth > 50 ? [] : children(node).flatMap((id) => (byId.has(id) ? [symbol(byId.get(id)!, depth + 1)] : [])),
  });
  return flow.stages.map((stage) => ({
    name: stage.id,
    detail: stage.goal?.value ?? 'stage',
    kind: SymbolKind.Namespace,
    range: rangeOf(view, {
      start: Math.min(stage.span.start, stage.idSpan.start),
      end: Math.max(stage.span.end, stage.idSpan.end),
      file: view.file,
    }),
    selectionRange: rangeOf(view, stage.idSpan),
    children: stage.nodes.flatMap((id) => (byId.has(id) ? [symbol(byId.get(id)!, 0)] : [])),
  }));
}
