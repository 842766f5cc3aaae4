import { isMap, isScalar, type Node } from 'yaml';
import type { MetaAnalysis } from '../read/analysis';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { type MetaPlan, type MetaStep } from '../read/metaPlan';
import { mapEntries, nodeSpan, valueOf } from '../../../parse/yaml/yamlNodes';
import { stepsInOrder } from './agentSkillFromMeta';
import { frontmatterOf, titleOf } from '../../../forms/resultPackage';
import { compileUnsupported } from '../../../forms/compileFindings';

/** The step keys an SOP phase can say: everything else would be lost. */
const SOP_KEYS = new Set(['id', 'kind', 'skill', 'depends_on', 'with']);

/** A step's `with` arguments as the runtime reads them (flat strings). */
function withArguments(step: MetaStep): [string, string][] {
  return step.templates
    .filter((template) => /^with\.[A-Za-z_]\w*$/.test(template.argument))
    .map((template) => [template.argument.slice(5), template.source.value]);
}

/** What of a composition step an SOP cannot express, each at the key that says it. */
function inexpressible(analysis: MetaAnalysis, step: MetaStep): Diagnostic[] {
  const found: Diagnostic[] = [];
  const fail = (node: Node | null | undefined, message: string) => {
    const span = (analysis.frontmatter && node ? nodeSpan(analysis.frontmatter, node) : undefined) ?? step.idSpan;
    found.push(diagnostic(compileUnsupported, analysis.file, span, message));
  };
  for (const entry of mapEntries(step.node)) {
    if (!SOP_KEYS.has(entry.key))
      fail(
        entry.keyNode,
        `\`${entry.key}\` of step \`${step.id}\` has no SOP form (a phase says only the skill, its kind, its arguments and what it depends on), so \`meta_sop\` would lose it.`,
      );
  }
  if (step.kind !== 'agent' && step.kind !== 'skill_exec')
    fail(
      valueOf(step.node, 'kind'),
      `Step \`${step.id}\` is \`${step.kind}\`; an SOP invocation runs only \`as agent\` or \`as skill_exec\`.`,
    );
  const args = valueOf(step.node, 'with');
  for (const entry of isMap(args) ? mapEntries(args) : []) {
    if (!isScalar(entry.value) || typeof entry.value.value !== 'string')
      fail(
        entry.keyNode,
        `\`with.${entry.key}\` of step \`${step.id}\` is not a string; an SOP argument is one line or a \`|\` block of text.`,
      );
    else if (!/^[A-Za-z_]\w*$/.test(entry.key))
      fail(entry.keyNode, `\`with.${entry.key}\`: an SOP argument's key is a plain word.`);
  }
  return found;
}

/** One `- key: value` argument: a line in backticks, or a `|` block. */
function argumentLines(key: string, value: string): string[] {
  const text = value.replace(/\s+$/, '');
  if (!text.includes('\n')) return [`- ${key}: \`${text}\``];
  return [`- ${key}: |`, ...text.split('\n').map((line) => (line.trim() === '' ? '' : `    ${line}`))];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));

/**
 * A composition as `meta_sop` prose: steps in dependency order, grouped
 * into phases of steps with the same dependencies. A phase that depends
 * on exactly the phase before says nothing (that is the SOP's default);
 * any other names its dependencies. What an SOP cannot say is an error
 * at its key, and nothing is compiled.
 */
export function compositionToSop(
  analysis: MetaAnalysis,
  plan: MetaPlan,
): { frontmatter: Record<string, unknown>; body: string; findings: Diagnostic[] } {
  const findings = plan.steps.flatMap((step) => inexpressible(analysis, step));
  const phases: MetaStep[][] = [];
  for (const step of stepsInOrder(plan)) {
    const last = phases[phases.length - 1];
    const deps = step.dependsOn.map((item) => item.value);
    if (
      last &&
      sameSet(
        last[0].dependsOn.map((item) => item.value),
        deps,
      )
    )
      last.push(step);
    else phases.push([step]);
  }
  const lines = [
    `# ${titleOf(analysis)}`,
    '',
    'OpenSquilla compiles the phases below into a plan: each phase runs after the one before, unless it names what it depends on.',
    '',
  ];
  phases.forEach((phase, index) => {
    const deps = phase[0].dependsOn.map((item) => item.value);
    const previous = index > 0 ? phases[index - 1].map((step) => step.id) : [];
    const annotations = [
      ...(phase.length > 1 ? ['parallel'] : []),
      ...(deps.length > 0 && !sameSet(deps, previous) ? [`depends_on: [${deps.join(', ')}]`] : []),
    ];
    const title =
      phase.length === 1 ? (phase[0].label ?? phase[0].id) : phase.map((step) => step.label ?? step.id).join(', ');
    lines.push(
      `## Phase ${index + 1}: ${title.replace(/[[\]]/g, '')}${annotations.length > 0 ? ` [${annotations.join('; ')}]` : ''}`,
    );
    for (const step of phase) {
      const args = withArguments(step);
      const skill = `\`${step.skill?.value ?? step.id}\` as ${step.kind}`;
      if (args.length === 0) lines.push(`Run ${skill}. Save as \`${step.id}\`.`, '');
      else
        lines.push(
          `Invoke ${skill} with:`,
          ...args.flatMap(([key, value]) => argumentLines(key, value)),
          `Save as \`${step.id}\`.`,
          '',
        );
    }
  });
  const { composition: _composition, ...rest } = frontmatterOf(analysis);
  return { frontmatter: { ...rest, kind: 'meta_sop' }, body: lines.join('\n'), findings };
}

/**
 * `meta_sop` phases as `composition.steps`: each invocation a step with its
 * skill, kind, arguments and every dependency written out (the phase order
 * an SOP implies becomes explicit `depends_on`). The body becomes the
 * fallback prose a `kind: meta` skill keeps.
 */
export function sopToComposition(
  analysis: MetaAnalysis,
  plan: MetaPlan,
): { frontmatter: Record<string, unknown>; body: string } {
  const steps = plan.steps.map((step) => {
    const args = withArguments(step);
    return {
      id: step.id,
      ...(step.kindSpan || step.kind !== 'agent' ? { kind: step.kind } : {}),
      ...(step.skill ? { skill: step.skill.value } : {}),
      ...(step.dependsOn.length > 0 ? { depends_on: step.dependsOn.map((item) => item.value) } : {}),
      ...(args.length > 0
        ? { with: Object.fromEntries(args.map(([key, value]) => [key, value.replace(/\s+$/, '')])) }
        : {}),
    };
  });
  const frontmatter = { ...frontmatterOf(analysis), kind: 'meta', composition: { steps } };
  const body = [
    `# ${titleOf(analysis).replace(/\s*\(SOP form\)\s*$/i, '')}`,
    '',
    'If a step fails, say which step failed and what it returned, and stop.',
    '',
  ].join('\n');
  return { frontmatter, body };
}
