import type { ControlRef, SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { closestName } from '../match/nameDistance';
import { defineRule, type Rule } from '../engine/rule';
import { suggestionFix } from '../engine/suggestionFix';

export const unknownDependency = defineRule({
  code: 'unknown_dependency',
  category: 'graph',
  severity: 'error',
  summary: '`depends_on` names a step that does not exist.',
  stability: 'stable',
  formats: ['aip-0.3', 'metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const unknownStepReference = defineRule({
  code: 'unknown_step_reference',
  category: 'aip-graph',
  severity: 'error',
  summary: '`inputs_to` or a branch names a step that does not exist.',
  stability: 'stable',
  formats: ['aip-0.5'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

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
 * suggestion. `ruleFor` gives the rule each kind of reference breaks.
 */
export function checkControlRefs(model: SkillModel, ruleFor: Rule | ((ref: ControlRef) => Rule)): Diagnostic[] {
  const names = new Set(model.nodes.map((node) => node.id));
  const diagnostics: Diagnostic[] = [];
  const owned = [
    ...model.nodes.flatMap((node) => node.controlRefs.map((ref) => ({ ref, owner: node.id as string | undefined }))),
    ...(model.refs ?? []).map((ref) => ({ ref, owner: undefined })),
  ];
  for (const { ref, owner } of owned) {
    if (names.has(ref.target)) continue;
    const rule = typeof ruleFor === 'function' ? ruleFor(ref) : ruleFor;
    const suggestion = closestName(
      ref.target,
      [...names].filter((name) => name !== owner),
    );
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
    diagnostics.push(
      diagnostic(
        rule,
        model.file,
        ref.span,
        `${VIA_WORDS[ref.via]} names "${ref.target}", but no step has that name.${hint}`,
        suggestion ? { suggestion } : undefined,
      ),
    );
  }
  return diagnostics;
}
