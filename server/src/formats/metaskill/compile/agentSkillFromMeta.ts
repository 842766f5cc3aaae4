import type { MetaAnalysis } from '../read/analysis';
import { type MetaPlan, type MetaStep } from '../read/metaPlan';
import { bodyOf, frontmatterOf, titleOf } from '../../../forms/resultPackage';

/**
 * Steps with every `depends_on` before the step (stable: written order
 * among the ready ones), each `on_failure` substitute right after its
 * primary, where a reader looks for it.
 */
export function stepsInOrder(plan: MetaPlan): MetaStep[] {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const substituteOf = new Map<string, MetaStep>();
  for (const primary of plan.steps) {
    const substitute = primary.onFailure ? byId.get(primary.onFailure.value) : undefined;
    if (substitute && substitute !== primary) substituteOf.set(primary.id, substitute);
  }
  const substitutes = new Set(substituteOf.values());
  const done = new Set<string>();
  const ordered: MetaStep[] = [];
  let pending = plan.steps.filter((step) => !substitutes.has(step));
  while (pending.length > 0) {
    const ready = pending.filter((step) =>
      step.dependsOn.every((dependency) => done.has(dependency.value) || !byId.has(dependency.value)),
    );
    // A cycle (an error the checks report) leaves the rest in written order.
    const next = ready.length > 0 ? ready : pending;
    for (const step of next) {
      ordered.push(step);
      done.add(step.id);
      const substitute = substituteOf.get(step.id);
      if (substitute && !done.has(substitute.id)) {
        ordered.push(substitute);
        done.add(substitute.id);
      }
    }
    pending = pending.filter((step) => !next.includes(step));
  }
  return ordered;
}

/** A fenced block that no backtick run inside it can close. */
export function fenced(text: string, info = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text.trimEnd()}\n${fence}`;
}

const KIND_ACTION: Record<string, string> = {
  llm_chat: 'Answer directly (no skill).',
  llm_classify: 'Classify directly (no skill).',
  tool_call: 'Call a tool.',
  user_input: 'Ask the user.',
};

function stepSection(step: MetaStep, index: number, plan: MetaPlan): string {
  const skill = step.skill?.value;
  const lines = [
    `### ${index + 1}. ${step.label ?? step.id}${skill && (step.kind === 'agent' || step.kind === 'skill_exec') ? ` — the \`${skill}\` skill` : ''}`,
    '',
  ];
  const facts: string[] = [];
  if (step.label && step.label !== step.id)
    facts.push(`Step id: \`${step.id}\` (its output is \`outputs.${step.id}\`).`);
  if (KIND_ACTION[step.kind]) facts.push(KIND_ACTION[step.kind]);
  else if (skill)
    facts.push(`Use the \`${skill}\` skill${step.kind === 'skill_exec' ? ' (run its entry point)' : ''}.`);
  const after = step.dependsOn.map((dependency) => `\`${dependency.value}\``);
  if (after.length > 0) facts.push(`Start after: ${after.join(', ')}.`);
  const guard = step.templates.find((template) => template.argument === 'when');
  if (guard) facts.push(`Only when \`${guard.source.value.trim()}\`; otherwise skip it (its output is empty).`);
  for (const route of step.routes)
    facts.push(`Use the \`${route.to.value}\` skill instead${route.when ? ` when \`${route.when.trim()}\`` : ''}.`);
  if (step.onFailure) facts.push(`If it fails, run step \`${step.onFailure.value}\` instead.`);
  const substituteFor = plan.steps
    .filter((other) => other.onFailure?.value === step.id)
    .map((other) => `\`${other.id}\``);
  if (substituteFor.length > 0) facts.push(`Run only when ${substituteFor.join(', ')} fails.`);
  for (const field of step.clarifyFields)
    facts.push(
      `Ask for \`${field.name}\` (${field.type}); later steps read it as \`inputs.collected.${step.id}.${field.name}\`.`,
    );
  if (facts.length > 0) lines.push(facts.map((fact) => `- ${fact}`).join('\n'), '');
  for (const template of step.templates.filter((item) => !item.expression))
    lines.push(`\`${template.argument}\`:`, '', fenced(template.source.value), '');
  return lines.join('\n');
}

/**
 * A MetaSkill (either form) as the body of a plain skill: its steps in an
 * order that respects every `depends_on`, each with the skill it uses and
 * its instruction as written (bindings left as `{{ … }}`, which the text
 * explains), then the MetaSkill's own fallback prose.
 */
export function agentSkillBodyFromMeta(analysis: MetaAnalysis, plan: MetaPlan): string {
  const description = frontmatterOf(analysis).description;
  const sections = [`# ${titleOf(analysis)}`, ''];
  if (typeof description === 'string') sections.push(description.trim(), '');
  sections.push(
    "Run the steps below in order, each with the skill it names and its instruction. In an instruction, `{{ outputs.<step> }}` stands for the text an earlier step produced and `{{ inputs.user_message }}` for the user's request; the filters after `|` shorten or escape that text.",
    '',
  );
  if (plan.finalTextStep) sections.push(`Your answer is the output of step \`${plan.finalTextStep.value}\`.`, '');
  sections.push('## Steps', '');
  stepsInOrder(plan).forEach((step, index) => sections.push(stepSection(step, index, plan)));
  // A `kind: meta` body is the MetaSkill's fallback prose; a meta_sop body is the plan itself, already given above.
  if (plan.form === 'composition') {
    const fallback = bodyOf(analysis)
      .replace(/^\s*#\s+.*\n/, '')
      .trim();
    if (fallback) sections.push('## If a step fails', '', fallback, '');
  }
  return sections.join('\n');
}
