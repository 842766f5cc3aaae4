import type { ControlRef, SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../diagnostic';
import type { RuleCode } from '../rules';
import { closestName } from './nameDistance';

const VIA_WORDS: Record<ControlRef['via'], string> = {
  depends_on: '`depends_on`',
  inputs_to: '`inputs_to`',
  branch: 'This branch',
};

/** References to steps that do not exist, with the nearest existing name as a suggestion. */
export function checkControlRefs(model: SkillModel, code: RuleCode): Diagnostic[] {
  const names = new Set(model.nodes.map((node) => node.id));
  const diagnostics: Diagnostic[] = [];
  for (const node of model.nodes) {
    for (const ref of node.controlRefs) {
      if (names.has(ref.target)) continue;
      const suggestion = closestName(ref.target, [...names].filter((name) => name !== node.id));
      const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
      diagnostics.push(
        diagnostic(code, model.file, ref.span, `${VIA_WORDS[ref.via]} names "${ref.target}", but no step has that name.${hint}`, suggestion ? { suggestion } : undefined),
      );
    }
  }
  return diagnostics;
}
