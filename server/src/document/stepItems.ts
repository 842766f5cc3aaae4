import { CompletionItemKind, type CompletionItem, type TextEdit } from 'vscode-languageserver-types';
import { reachableFrom, successors } from '../model/controlFlow';
import type { SkillModel } from '../model/skillModel';

/**
 * Steps that may be added to `depends_on` of `self`: not itself and none that already runs after it (that would close a
 * cycle).
 */
export function dependencyCandidates(model: SkillModel, self: string | undefined): string[] {
  if (!self) return model.nodes.map((node) => node.id);
  const after = reachableFrom([self], successors(model.nodes, model.edges));
  return model.nodes.map((node) => node.id).filter((id) => !after.has(id));
}

/** Completion items for step names, each replacing the typed prefix. */
export function stepItems(model: SkillModel, names: string[], edit: (name: string) => TextEdit): CompletionItem[] {
  const nodes = new Map(model.nodes.map((node) => [node.id, node]));
  return [...new Set(names)].map((name) => ({
    label: name,
    kind: CompletionItemKind.Function,
    detail: nodes.get(name)?.script?.path ?? nodes.get(name)?.kind,
    documentation: nodes.get(name)?.description?.text.trim(),
    textEdit: edit(name),
  }));
}
