import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-types';
import type { Port } from '../model/skillModel';
import { rangeOf, type DocumentView } from '../analysis/documentView';

/** The outline: the skill, its steps, and each step's ports as children. */
export function documentSymbols(view: DocumentView): DocumentSymbol[] {
  const { model, source } = view.analysis;
  const port = (item: Port): DocumentSymbol => ({
    name: item.name,
    detail: `${item.direction}${item.type ? `: ${item.type}` : ''}`,
    kind: item.direction === 'input' ? SymbolKind.Variable : SymbolKind.Field,
    range: rangeOf(view, item.span),
    selectionRange: rangeOf(view, item.nameSpan),
  });
  const steps = model.nodes.map((node): DocumentSymbol => ({
    name: node.label,
    detail: node.script ? node.script.path : node.kind === 'step' ? 'agent' : node.kind,
    kind: SymbolKind.Function,
    range: rangeOf(view, {
      start: Math.min(node.span.start, node.nameSpan.start),
      end: Math.max(node.span.end, node.nameSpan.end),
    }),
    selectionRange: rangeOf(view, node.nameSpan),
    children: [...node.inputs, ...node.outputs].map(port),
  }));
  const whole = { start: 0, end: source.length };
  const nameAt = view.analysis.syntax?.frontmatter?.open ?? { start: 0, end: 0 };
  return [
    {
      name: model.name ?? 'SKILL.md',
      detail: model.format,
      kind: SymbolKind.Module,
      range: rangeOf(view, whole),
      selectionRange: rangeOf(view, nameAt),
      children: steps,
    },
  ];
}
