import type { ControlRef, SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../diagnostic';
import type { RuleCode } from '../rules';
import { closestName } from '../nameDistance';

const VIA_WORDS: Record<ControlRef['via'], string> = {
  depends_on: '`depends_on`',
  inputs_to: '`inputs_to`',
  branch: 'This branch',
  on_failure: '`on_failure`',
  binding: 'This binding',
  final_text_mode: '`final_text_mode`',
};

/**
 * References to steps that do not exist, with the nearest existing name as a
 * suggestion. `codeOf` gives the code for each kind of reference.
 */
export function checkControlRefs(model: SkillModel, codeOf: RuleCode | ((ref: ControlRef) => RuleCode)): Diagnostic[] {
  const names = new Set(model.nodes.map((node) => node.id));
  const diagnostics: Diagnostic[] = [];
  const owned = [
    ...model.nodes.flatMap((node) => node.controlRefs.map((ref) => ({ ref, owner: node.id as string | undefined }))),
    ...(model.refs ?? []).map((ref) => ({ ref, owner: undefined })),
  ];
  for (const { ref, owner } of owned) {
    if (names.has(ref.target)) continue;
    const code = typeof codeOf === 'string' ? codeOf : codeOf(ref);
    const suggestion = closestName(
      ref.target,
      [...names].filter((name) => name !== owner),
    );
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
    diagnostics.push(
      diagnostic(
        code,
        model.file,
        ref.span,
        `${VIA_WORDS[ref.via]} names "${ref.target}", but no step has that name.${hint}`,
        suggestion ? { suggestion } : undefined,
      ),
    );
  }
  return diagnostics;
}
