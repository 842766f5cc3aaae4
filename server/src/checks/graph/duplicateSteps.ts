import type { SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';

export const duplicateStepName = defineRule({
  code: 'duplicate_step_name',
  category: 'graph',
  severity: 'error',
  summary: 'Two steps share one name.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5', 'metaskill', 'metaskill-sop'],
});

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
        duplicateStepName,
        model.file,
        node.nameSpan,
        `Step name "${node.id}" is already used by step ${earlier + 1}; step names must be unique, or references to it are ambiguous.`,
        { name: node.id },
      ),
    );
  });
  return diagnostics;
}
