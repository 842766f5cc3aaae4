import type { Span } from '../parse/lineIndex';
import type { GraphNode, Port } from './skillModel';

/**
 * A copy of a node with every span in it moved by `delta` characters: a step
 * whose text did not change but moved in the file. A copy, not an edit in
 * place, because the previous analysis still holds the original. Written out
 * field by field (a generic walk cost more than the rest of an edit); the
 * unit test fills every field of the model's types, so a span added to them
 * without a line here fails it.
 */
export function movedNode(node: GraphNode, delta: number): GraphNode {
  // Ports are built field by field and nodes with one spread: spreading objects of varied shapes made this the costliest part of an edit.
  const moved = (span: Span): Span => ({ start: span.start + delta, end: span.end + delta });
  const port = (item: Port): Port => {
    const copy: Port = { name: item.name, direction: item.direction, nodeId: item.nodeId, nullable: item.nullable, span: moved(item.span), nameSpan: moved(item.nameSpan) };
    // Optional fields are copied only where present (even if undefined), so the copy equals the port it moves.
    if ('type' in item) copy.type = item.type;
    if ('description' in item) copy.description = item.description;
    if ('feeds' in item) copy.feeds = item.feeds;
    if ('typeSpan' in item) copy.typeSpan = item.typeSpan && moved(item.typeSpan);
    return copy;
  };
  const copy: GraphNode = {
    ...node,
    span: moved(node.span),
    nameSpan: moved(node.nameSpan),
    inputs: node.inputs.map(port),
    outputs: node.outputs.map(port),
    links: node.links.map((link) => ({ ...link, span: moved(link.span) })),
    controlRefs: node.controlRefs.map((ref) => ({ ...ref, span: moved(ref.span) })),
  };
  if (node.description) copy.description = { text: node.description.text, span: moved(node.description.span) };
  if (node.script) copy.script = { ...node.script, span: moved(node.script.span) };
  if (node.skillRefs) copy.skillRefs = node.skillRefs.map((ref) => ({ ...ref, span: moved(ref.span) }));
  if (node.guard) copy.guard = { text: node.guard.text, span: moved(node.guard.span) };
  return copy;
}
