import type { AipAnalysis } from '../read/analysis';
import type { GraphNode, Port } from '../../../model/skillModel';
import { titleOf } from '../../../forms/resultPackage';

export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const bullets = (items: string[]) => items.map((item) => `- ${item.trim().replace(/\n\s*/g, ' ')}`).join('\n');

function portText(item: Port): string {
  return `\`${item.name}\`${item.type ? ` (${item.type}${item.nullable ? ', may be empty' : ''})` : ''}${item.description ? `: ${item.description.trim().replace(/\n\s*/g, ' ')}` : ''}`;
}

/** A list of `{a, b}` items as bullets `**a**: b`. */
export function pairs(value: unknown, key: string, body: string): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) =>
    item && typeof item === 'object' && typeof (item as Record<string, unknown>)[body] === 'string'
      ? [`**${String((item as Record<string, unknown>)[key])}**: ${String((item as Record<string, unknown>)[body])}`]
      : [],
  );
}

/** AIP 0.3 `scenarios` as sentences: when the need arises, the action (its context) → its outcome. */
export function scenarios(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const entry = item as Record<string, unknown>;
    const parts = [`When ${String(entry.need)}: ${String(entry.action)}`];
    if (typeof entry.context === 'string') parts.push(`(${entry.context})`);
    if (typeof entry.outcome === 'string') parts.push(`→ ${entry.outcome}`);
    return [parts.join(' ')];
  });
}

/** One step as a numbered section: what it does, what to run, what it needs and produces, where it leads. */
function stepSection(node: GraphNode, index: number): string {
  const lines = [
    `### ${index + 1}. ${node.label}${node.kind !== 'step' ? ` (${node.kind.replace('_', ' ')})` : ''}`,
    '',
  ];
  if (node.description) lines.push(node.description.text.trim(), '');
  const facts: string[] = [];
  if (node.script) facts.push(`Run \`${node.script.path}\`.`);
  for (const link of node.links.filter((item) => item !== node.script && item.role !== 'prose'))
    facts.push(
      `${link.role === 'template' ? 'Template' : link.role === 'asset' ? 'Asset' : link.role === 'reference' ? 'Read' : 'Script'}: \`${link.path}\``,
    );
  if (node.inputs.length > 0) facts.push(`Needs: ${node.inputs.map(portText).join('; ')}`);
  if (node.outputs.length > 0) facts.push(`Produces: ${node.outputs.map(portText).join('; ')}`);
  if (node.oneOf && node.oneOf.length > 0) facts.push(`Pick one of: ${node.oneOf.join(', ')}`);
  if (node.parallel) facts.push('Its sub-tasks may run in parallel.');
  const after = node.controlRefs.filter((ref) => ref.via === 'depends_on').map((ref) => ref.target);
  if (after.length > 0) facts.push(`Start after: ${after.join(', ')}`);
  const next = node.controlRefs.filter((ref) => ref.via === 'inputs_to').map((ref) => ref.target);
  if (next.length > 0) facts.push(`Then: ${next.join(', ')}`);
  for (const ref of node.controlRefs.filter((item) => item.via === 'branch'))
    facts.push(`If it is \`${ref.label}\`: go to ${ref.target}`);
  if (facts.length > 0) lines.push(bullets(facts), '');
  return lines.join('\n');
}

/**
 * An AIP procedure (0.3 or 0.5) as the body of a plain skill: purpose,
 * when to use it, the values the user supplies, then each step in order
 * with the script to run, what it needs and produces and where it leads,
 * then the procedure's guidance (modes, scenarios, anti-patterns).
 */
export function agentSkillBodyFromProcedure(analysis: AipAnalysis): string {
  const procedure = analysis.procedure?.value ?? {};
  const sections: string[] = [`# ${titleOf(analysis)}`, ''];
  if (typeof procedure.purpose === 'string') sections.push(procedure.purpose.trim(), '');
  const section = (title: string, items: string[]) => {
    if (items.length > 0) sections.push(`## ${title}`, '', bullets(items), '');
  };
  section('When to use', strings(procedure.trigger_when));
  section('Do not use when', strings(procedure.do_not_use_when));
  if (typeof procedure.scope_and_approval === 'string')
    sections.push('## Scope and approval', '', procedure.scope_and_approval.trim(), '');
  const seen = new Set<string>();
  section(
    'What you need from the user',
    analysis.model.externalInputs.filter((item) => !seen.has(item.name) && seen.add(item.name)).map(portText),
  );
  sections.push('## Procedure', '');
  analysis.model.nodes.forEach((node, index) => sections.push(stepSection(node, index)));
  section('Modes', pairs(procedure.modes, 'name', 'body'));
  section('Search shortcuts', pairs(procedure.search_shortcuts, 'category', 'body'));
  section('Integrations', pairs(procedure.integrations, 'partner', 'body'));
  section('Scenarios', scenarios(procedure.scenarios));
  section('Never', strings(procedure.anti_patterns));
  return sections.join('\n');
}
