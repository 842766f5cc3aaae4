import type { SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';

export const duplicateInputName = defineRule({
  code: 'duplicate_input_name',
  category: 'aip-graph',
  severity: 'error',
  summary: 'A step declares the same input twice.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

/** A step that declares one input twice has two types for one value. */
export function checkDuplicateInputs(model: SkillModel): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const node of model.nodes) {
    const seen = new Set<string>();
    for (const input of node.inputs) {
      if (seen.has(input.name)) {
        diagnostics.push(
          diagnostic(
            duplicateInputName,
            model.file,
            input.nameSpan,
            `Step "${node.id}" declares input "${input.name}" more than once.`,
          ),
        );
      }
      seen.add(input.name);
    }
  }
  return diagnostics;
}
