import type { Location } from 'vscode-languageserver-types';
import type { GraphNode, Port } from '../model/skillModel';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { dataEdgesOf, locate } from './locate';

/** The output a port stands for: an output itself, or the output feeding an input. */
export function producingPort(view: DocumentView, port: Port): Port | undefined {
  return port.direction === 'output' ? port : dataEdgesOf(view, port).producers[0];
}

/**
 * Find references: an output (or an input, through its producer) → every
 * input it feeds; a step → every entry naming it; a script → the steps that
 * run it.
 */
export function references(view: DocumentView, offset: number, includeDeclaration: boolean): Location[] {
  const target = locate(view, offset);
  const at = (span: { start: number; end: number }) => ({ uri: view.uri, range: rangeOf(view, span) });
  switch (target.kind) {
    case 'port': {
      const producer = producingPort(view, target.port);
      if (!producer) return includeDeclaration ? [at(target.port.nameSpan)] : [];
      const consumers = dataEdgesOf(view, producer).consumers.map((port) => at(port.nameSpan));
      return includeDeclaration ? [at(producer.nameSpan), ...consumers] : consumers;
    }
    case 'step':
    case 'controlRef': {
      const name = target.kind === 'step' ? target.node.id : target.ref.target;
      const refs = stepReferences(view, name).map((span) => at(span));
      const declarations = view.analysis.model.nodes
        .filter((node) => node.id === name)
        .map((node) => at(node.nameSpan));
      return includeDeclaration ? [...declarations, ...refs] : refs;
    }
    case 'link': {
      const runners = view.analysis.model.nodes.filter((node: GraphNode) => node.script?.path === target.link.path);
      return runners.map((node) => at(node.nameSpan));
    }
    default:
      return [];
  }
}

/**
 * Every written reference to a step name (`depends_on`, `inputs_to`, branch targets, MetaSkill bindings, substitutes,
 * `final_text_mode`).
 */
export function stepReferences(view: DocumentView, name: string) {
  const { model } = view.analysis;
  return [...model.nodes.flatMap((node) => node.controlRefs), ...(model.refs ?? [])]
    .filter((ref) => ref.target === name)
    .map((ref) => ref.span);
}
