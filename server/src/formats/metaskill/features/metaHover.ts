import { BindingScope } from '../read/bindingRules';
import { ALLOWED_FILTERS, RUNTIME_INPUTS } from '../read/metaPlan';
import type { ControlRef, GraphNode, Port, SkillRef } from '../../../model/skillModel';
import { readText } from '../../../workspace/readText';
import { readCatalogSkill } from '../../../workspace/skillCatalog';
import type { DocumentView } from '../../../analysis/documentView';
import type { MetaAnalysis } from '../read/analysis';

const code = (text: string) => `\`${text}\``;

/** The description of a composed skill, read from its SKILL.md. */
export function composedSkillDescription(view: DocumentView<MetaAnalysis>, ref: SkillRef): string | undefined {
  if (!ref.file) return undefined;
  const read = readText(view.fs, ref.file);
  return read.kind === 'text' ? readCatalogSkill(ref.file, read.text)?.description?.trim() : undefined;
}

/** A MetaSkill step: its kind, what it runs (and that skill's description), its guard and the steps it may read. */
export function metaStepHover(view: DocumentView<MetaAnalysis>, node: GraphNode): string {
  const skill = node.skillRefs?.find((ref) => ref.via === 'skill');
  const runs = skill ? ` — runs ${code(skill.name)}${skill.file ? '' : ' *(not in the catalog)*'}` : '';
  const lines = [`**${node.kind.replace('_', ' ')} step** ${code(node.id)}${runs}`];
  const description = skill ? composedSkillDescription(view, skill) : undefined;
  if (description) lines.push(`> ${description.replace(/\s+/g, ' ')}`);
  if (node.description) lines.push(node.description.text.trim().split('\n')[0]);
  const routes = node.skillRefs?.filter((ref) => ref.via === 'route') ?? [];
  if (routes.length > 0)
    lines.push(`Routes: ${routes.map((route) => `${code(route.when ?? '')} → ${code(route.name)}`).join('; ')}`);
  if (node.guard) lines.push(`Runs only when ${code(node.guard.text)}`);
  const scope = [...new BindingScope(view.analysis.model).of(node.id)];
  lines.push(
    scope.length > 0
      ? `Runs after (and may read the outputs of) ${scope.map(code).join(', ')}`
      : 'Starts at once: no step runs before it.',
  );
  return lines.join('\n\n');
}

/** `outputs.X` in a template: the producing step, whether it is in scope there, and what it renders. */
export function bindingHover(view: DocumentView<MetaAnalysis>, consumer: GraphNode, ref: ControlRef): string {
  const producer = view.analysis.model.nodes.find((node) => node.id === ref.target);
  if (!producer) return `No step has the id ${code(ref.target)}.`;
  const inScope = new BindingScope(view.analysis.model).has(consumer.id, ref.target);
  const skill = producer.skillRefs?.find((item) => item.via === 'skill');
  return [
    `${code(`outputs.${ref.target}`)} — the plain-text output of the ${producer.kind.replace('_', ' ')} step ${code(ref.target)}${skill ? ` (${code(skill.name)})` : ''}`,
    inScope
      ? `In scope: ${code(consumer.id)} runs after ${code(ref.target)}.`
      : `**Not in scope**: ${code(consumer.id)} does not depend on ${code(ref.target)}, so it may not have run yet.`,
    producer.guard ? `Empty when ${code(ref.target)} is skipped (its \`when\`: ${code(producer.guard.text)}).` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** `inputs.X`: what the runtime puts there. */
export function runtimeInputHover(port: Port): string {
  const [, name, member] = /^inputs\.([^.]+)(?:\.(.+))?$/.exec(port.name) ?? [];
  const about = member
    ? `The answers of the \`user_input\` step ${code(member)}.`
    : (RUNTIME_INPUTS[name] ?? 'Not an input the runtime sets.');
  return `**runtime input** ${code(port.name)}${port.feeds ? ` → ${code(port.feeds)}` : ''}\n\n${about}`;
}

/** A template filter: what it does and its arguments. */
export function filterHover(name: string): string {
  const filter = ALLOWED_FILTERS[name];
  return filter
    ? `**filter** ${code(name)}\n\n${filter.summary}`
    : `${code(name)} is not one of the filters OpenSquilla's templates allow.`;
}

/** A composed skill: its description and where it is. */
export function skillRefHover(view: DocumentView<MetaAnalysis>, ref: SkillRef): string {
  if (!ref.file) return `${code(ref.name)} is not in the catalog.`;
  const description = composedSkillDescription(view, ref);
  return [
    `**skill** ${code(ref.name)}${ref.via === 'route' && ref.when ? ` when ${code(ref.when)}` : ''}`,
    description ?? '',
    ref.file,
  ]
    .filter(Boolean)
    .join('\n\n');
}
