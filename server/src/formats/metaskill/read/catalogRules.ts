import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { closestName } from '../../../checks/match/nameDistance';
import type { CatalogSkill } from '../../../workspace/skillCatalog';
import type { Located, MetaPlan } from './metaPlan';
import { defineRule } from '../../../checks/engine/rule';
import { suggestionFix } from '../../../checks/engine/suggestionFix';

export const unknownSkill = defineRule({
  code: 'unknown_skill',
  category: 'metaskill',
  severity: 'error',
  summary: 'A step or route runs a skill that is not in the catalog.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const nestedMetaSkill = defineRule({
  code: 'nested_meta_skill',
  category: 'metaskill',
  severity: 'error',
  summary: 'A step runs another MetaSkill, which the runtime refuses.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
});

const META_KINDS = new Set(['meta', 'meta_sop']);

/**
 * The skills a plan runs must exist in the catalog and not be MetaSkills
 * themselves (OpenSquilla's lint G1.2, for `agent` and `skill_exec` steps).
 * `route[].to` gets the same check, which upstream lacks: a missing route
 * target fails only when its case fires.
 */
export function checkComposedSkills(
  file: string,
  plan: MetaPlan,
  catalog: Map<string, CatalogSkill>,
  catalogWhere: string,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const names = [...catalog.keys()];
  /** `subject` says who runs the skill: `Step "a" runs`, `A route of step "a" runs`. */
  const check = (ref: Located, subject: string) => {
    const found = catalog.get(ref.value);
    if (found && found.file === file) {
      diagnostics.push(
        diagnostic(
          nestedMetaSkill,
          file,
          ref.span,
          `${subject} this MetaSkill itself; a MetaSkill cannot compose a MetaSkill.`,
        ),
      );
    } else if (found && found.kind && META_KINDS.has(found.kind)) {
      diagnostics.push(
        diagnostic(
          nestedMetaSkill,
          file,
          ref.span,
          `${subject} "${ref.value}", itself a MetaSkill (\`kind: ${found.kind}\`); OpenSquilla's agent executor refuses to compose another MetaSkill (lint G1.2).`,
          { skill: found.file },
        ),
      );
    } else if (!found) {
      const suggestion = closestName(ref.value, names);
      diagnostics.push(
        diagnostic(
          unknownSkill,
          file,
          ref.span,
          `${subject} "${ref.value}", which is not in the catalog (${catalogWhere}); the step fails when it gets there.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
          suggestion ? { suggestion } : undefined,
        ),
      );
    }
  };
  for (const step of plan.steps) {
    if ((step.kind === 'agent' || step.kind === 'skill_exec') && step.skill && step.skill.value !== '')
      check(step.skill, `Step "${step.id}" runs`);
    for (const route of step.routes) check(route.to, `A route of step "${step.id}" runs`);
  }
  return diagnostics;
}
