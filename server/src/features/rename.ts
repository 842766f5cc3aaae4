import type { Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Span } from '../parse/text/lineIndex';
import { RenameError } from '../document/renameError';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { dataEdgesOf, locate } from './locate';
import { producingPort, stepReferences } from './references';
import { formatOf } from '../formats';

interface RenamePlan {
  /** What is renamed, for messages. */
  what: string;
  current: string;
  spans: Span[];
  /** Names the new name must not take. */
  taken: Set<string>;
}

const NAME = /^[A-Za-z0-9_][\w.-]*$/;

function plan(view: DocumentView, offset: number): RenamePlan | undefined {
  const target = locate(view, offset);
  const { model } = view.analysis;
  if (target.kind === 'step' || target.kind === 'controlRef') {
    const name = target.kind === 'step' ? target.node.id : target.ref.target;
    const declarations = model.nodes.filter((node) => node.id === name);
    if (declarations.length === 0) return undefined;
    return {
      what: 'step',
      current: name,
      spans: [...declarations.map((node) => node.nameSpan), ...stepReferences(view, name)],
      taken: new Set(model.nodes.map((node) => node.id)),
    };
  }
  if (target.kind === 'port') {
    // An argument or runtime input (a MetaSkill's) is not a name of the skill's own to change.
    if (target.port.feeds || formatOf(view.analysis).features?.fixedPorts) return undefined;
    const producer = producingPort(view, target.port);
    if (!producer) {
      // An external input: rename it where it is consumed, across every step that takes it.
      const same = model.externalInputs.filter((port) => port.name === target.port.name);
      return {
        what: 'input',
        current: target.port.name,
        spans: same.map((port) => port.nameSpan),
        taken: new Set(model.nodes.flatMap((node) => node.inputs.map((port) => port.name))),
      };
    }
    const consumers = dataEdgesOf(view, producer).consumers;
    const producerNode = model.nodes.find((node) => node.id === producer.nodeId);
    const consumerNodes = model.nodes.filter((node) => consumers.some((port) => port.nodeId === node.id));
    const taken = new Set(
      [...(producerNode?.outputs ?? []), ...consumerNodes.flatMap((node) => node.inputs)].map((port) => port.name),
    );
    return {
      what: 'value',
      current: producer.name,
      spans: [producer.nameSpan, ...consumers.map((port) => port.nameSpan)],
      taken,
    };
  }
  return undefined;
}

/** The range to rename at the cursor, or null when nothing renamable is there. */
export function prepareRename(view: DocumentView, offset: number): { range: Range; placeholder: string } | null {
  const found = plan(view, offset);
  const target = locate(view, offset);
  if (!found) return null;
  const span =
    target.kind === 'step'
      ? target.node.nameSpan
      : target.kind === 'controlRef'
        ? target.ref.span
        : target.kind === 'port'
          ? target.port.nameSpan
          : found.spans[0];
  return { range: rangeOf(view, span), placeholder: found.current };
}

/** Renames a step (and every reference to it) or a value (its output and every input it feeds), refusing clashes. */
export function rename(view: DocumentView, offset: number, newName: string): WorkspaceEdit {
  const found = plan(view, offset);
  if (!found)
    throw new RenameError(
      'Nothing to rename here: place the cursor on a step name, a reference to a step, or an input or output name.',
    );
  if (!NAME.test(newName)) throw new RenameError(`"${newName}" is not a valid ${found.what} name.`);
  if (newName !== found.current && found.taken.has(newName))
    throw new RenameError(
      `A ${found.what} named "${newName}" already exists here; renaming would merge two ${found.what}s.`,
    );
  const unique = [...new Map(found.spans.map((span) => [`${span.start}:${span.end}`, span])).values()];
  return { changes: { [view.uri]: unique.map((span) => ({ range: rangeOf(view, span), newText: newName })) } };
}
