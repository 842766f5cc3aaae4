import type { SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../diagnostic';

/** Two steps with one name make every reference to that name ambiguous. */
export function checkDuplicateSteps(model: SkillModel): Diagnostic[] {
  const first = new Map<string, number>();
  const diagnostics: Diagnostic[] = [];
  model.nodes.forEach((node, index) => {
    if (node.kind === 'external-input') return;
    const earlier = first.get(node.id);
    if (earlier === undefined) {
      first.set(node.id, index);
      return;
    }
    diagnostics.push(
      diagnostic(
        'duplicate_step_name',
        model.file,
        node.nameSpan,
        `Step name "${node.id}" is already used by step ${earlier + 1}; step names must be unique, or references to it are ambiguous.`,
        { name: node.id },
      ),
    );
  });
  return diagnostics;
}
