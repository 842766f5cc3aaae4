import * as vscode from 'vscode';
import type { GraphJson, GraphJsonNode } from '../../../server/src/protocol';

/**
 * The innermost node written where the cursor is in `file`: a loop or fan-out holds its body, whose nodes come first.
 */
export function nodeAtCursor(graph: GraphJson, file: string, cursor: vscode.Position): GraphJsonNode | undefined {
  const holding = graph.nodes.filter(
    (node) =>
      node.kind !== 'external-input' &&
      node.kind !== 'missing' &&
      node.file === file &&
      new vscode.Range(
        node.extent.start.line,
        node.extent.start.character,
        node.extent.end.line,
        node.extent.end.character,
      ).contains(cursor),
  );
  const lines = (node: GraphJsonNode) => node.extent.end.line - node.extent.start.line;
  return holding.sort((a, b) => lines(a) - lines(b))[0];
}
