import { diagnostic, type Diagnostic } from '../../checks/diagnostic';
import { closestName } from '../../checks/graph/nameDistance';
import type { CatalogSkill } from '../../workspace/skillCatalog';
import type { Located, MetaPlan } from './metaPlan';

const META_KINDS = new Set(['meta', 'meta_sop']);

/**
 * The skills a plan runs must exist in the catalog and not be MetaSkills
 * themselves (OpenSquilla's lint G1.2, for `agent` and `skill_exec` steps).
 * `route[].to` gets the same check, which upstream lacks: a missing route
 * target fails only when its case fires.
 */
export function checkComposedSkills(file: string, plan: MetaPlan, catalog: Map<string, CatalogSkill>, catalogWhere: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const names = [...catalog.keys()];
  const check = (ref: Located, role: string) => {
    const found = catalog.get(ref.value);
    if (found && found.file === file) {
      diagnostics.push(diagnostic('nested_meta_skill', file, ref.span, `${role} is this MetaSkill itself; a MetaSkill cannot compose a MetaSkill.`));
    } else if (found && found.kind && META_KINDS.has(found.kind)) {
      diagnostics.push(diagnostic('nested_meta_skill', file, ref.span, `${role} "${ref.value}" is itself a MetaSkill (\`kind: ${found.kind}\`); OpenSquilla's agent executor refuses to compose another MetaSkill (lint G1.2).`, { skill: found.file }));
    } else if (!found) {
      const suggestion = closestName(ref.value, names);
      diagnostics.push(
        diagnostic('unknown_skill', file, ref.span, `${role} "${ref.value}" is not in the catalog (${catalogWhere}); the step fails when it runs.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, suggestion ? { suggestion } : undefined),
      );
    }
  };
  for (const step of plan.steps) {
    if ((step.kind === 'agent' || step.kind === 'skill_exec') && step.skill && step.skill.value !== '') check(step.skill, `The skill of step "${step.id}"`);
    for (const route of step.routes) check(route.to, `The route target of step "${step.id}"`);
  }
  return diagnostics;
}

