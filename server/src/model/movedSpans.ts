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
  const moved = (span: Span): Span => ({ start: span.start + delta, end: span.end + delta });
  const port = (item: Port): Port => ({ ...item, span: moved(item.span), nameSpan: moved(item.nameSpan), ...(item.typeSpan ? { typeSpan: moved(item.typeSpan) } : {}) });
  return {
    ...node,
    span: moved(node.span),
    nameSpan: moved(node.nameSpan),
    inputs: node.inputs.map(port),
    outputs: node.outputs.map(port),
    links: node.links.map((link) => ({ ...link, span: moved(link.span) })),
    controlRefs: node.controlRefs.map((ref) => ({ ...ref, span: moved(ref.span) })),
    ...(node.description ? { description: { ...node.description, span: moved(node.description.span) } } : {}),
    ...(node.script ? { script: { ...node.script, span: moved(node.script.span) } } : {}),
    ...(node.skillRefs ? { skillRefs: node.skillRefs.map((ref) => ({ ...ref, span: moved(ref.span) })) } : {}),
    ...(node.guard ? { guard: { ...node.guard, span: moved(node.guard.span) } } : {}),
  };
}
