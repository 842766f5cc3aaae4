import { readTemplate } from '../../../parse/jinja/jinja';
import type { Span } from '../../../parse/text/lineIndex';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, scalarString, seqItems } from '../../../parse/yaml/yamlNodes';
import type { FormatContext } from '../../../analysis/formatContext';
import type { Located, MetaStep, MetaTemplate } from './metaPlan';

/**
 * An SOP invocation as read from the body: the skill, its kind, its `- key: value` arguments and the id it is saved as.
 */
export interface Invocation {
  skill: Located;
  kind?: Located;
  args: { key: string; keySpan: Span; value: string; offsets: number[]; valueSpan: Span }[];
  id?: Located;
  span: Span;
}

/** A `## Phase N` with its annotations, its invocations and, for `parallel for_each`, the items it loops over. */
export interface Phase {
  index: number;
  heading: Span;
  dependsOn?: Located[];
  forEach?: { variable: string; items: { values: Record<string, string>; idSpan?: Span; span: Span }[] };
  invocations: Invocation[];
}

/**
 * The ```` ```yaml for_each ```` block of a phase: one key, the loop variable, with a list of items that each have an
 * `id`.
 */
export function readForEach(
  yaml: YamlSyntax,
  phase: Phase,
  fence: Span,
  fail: (span: Span, message: string) => void,
): void {
  const entries = mapEntries(yaml.doc.contents);
  if (yaml.problems.length > 0 || entries.length !== 1) {
    fail(fence, 'A `yaml for_each` block holds exactly one key, the loop variable, with a list of items.');
    return;
  }
  const [entry] = entries;
  if (entry.key !== phase.forEach!.variable)
    fail(
      nodeSpan(yaml, entry.keyNode)!,
      `The block's key \`${entry.key}\` is not the phase's loop variable \`${phase.forEach!.variable}\`.`,
    );
  const items = seqItems(entry.value);
  if (items.length === 0) fail(nodeSpan(yaml, entry.keyNode)!, `\`${entry.key}\` must be a non-empty list.`);
  const seen = new Set<string>();
  for (const item of items) {
    const values: Record<string, string> = {};
    let idSpan: Span | undefined;
    for (const field of mapEntries(item)) {
      const value = scalarString(field.value);
      if (value === undefined) continue;
      values[field.key] = value;
      if (field.key === 'id') idSpan = nodeSpan(yaml, field.value);
    }
    const span = nodeSpan(yaml, item)!;
    if (values.id === undefined) fail(span, 'Each `for_each` item needs an `id`.');
    else if (seen.has(values.id)) fail(idSpan!, `Two \`for_each\` items have the id "${values.id}".`);
    if (values.id !== undefined) seen.add(values.id);
    phase.forEach!.items.push({ values, ...(idSpan ? { idSpan } : {}), span });
  }
}

/** `{{ VAR.key }}` placeholders of a `for_each` phase. */
function placeholders(variable: string): RegExp {
  return new RegExp(`\\{\\{\\s*${variable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\w+)\\s*\\}\\}`, 'g');
}

/** Phases → steps with their dependencies and kinds (as the compiler emits them). */
export function emitSteps(
  context: FormatContext,
  phases: Phase[],
  fail: (span: Span, message: string) => void,
): MetaStep[] {
  const catalog = context.catalog.forSkill(context.dir);
  const steps: MetaStep[] = [];
  let previous: string[] = [];
  for (const phase of phases) {
    const dependsOn: Located[] =
      phase.dependsOn ?? previous.map((id) => ({ value: id, span: phase.heading, implicit: true }));
    const ids: string[] = [];
    for (const invocation of phase.invocations) {
      if (!invocation.id) continue;
      const kind = invocation.kind?.value ?? (catalog.get(invocation.skill.value)?.entrypoint ? 'skill_exec' : 'agent');
      const expansions = phase.forEach ? phase.forEach.items : [undefined];
      for (const item of expansions) {
        const fill = (text: string) =>
          phase.forEach && item
            ? text.replace(placeholders(phase.forEach.variable), (_, key: string) => item.values[key] ?? '')
            : text;
        const id = fill(invocation.id.value);
        const idSpan = item?.idSpan ?? invocation.id.span;
        const templates: MetaTemplate[] = [];
        for (const argument of invocation.args) {
          const missing =
            phase.forEach &&
            item &&
            [...argument.value.matchAll(placeholders(phase.forEach.variable))].some(
              (match) => item.values[match[1]] === undefined,
            );
          if (missing) continue; // the compiler leaves out an argument whose item has no such key
          const { value, offsets } = substitute(
            argument.value,
            argument.offsets,
            phase.forEach?.variable,
            item?.values,
          );
          templates.push({
            argument: `with.${argument.key}`,
            keySpan: argument.keySpan,
            valueSpan: argument.valueSpan,
            source: { value, offsets, exact: true },
            expression: false,
            read: readTemplate(value),
          });
        }
        const instruction = invocation.args.find((argument) =>
          ['task', 'system', 'text', 'prompt'].includes(argument.key),
        );
        steps.push({
          index: steps.length,
          id,
          idSpan,
          hasId: true,
          span: item ? { start: invocation.span.start, end: invocation.span.end } : invocation.span,
          kind,
          ...(invocation.kind ? { kindSpan: invocation.kind.span } : {}),
          skill: invocation.skill,
          dependsOn,
          routes: [],
          templates,
          ...(instruction ? { instruction: fill(instruction.value) } : {}),
          clarifyFields: [],
        });
        ids.push(id);
      }
    }
    if (phase.forEach && phase.forEach.items.length === 0 && phase.invocations.length > 0)
      fail(
        phase.heading,
        `Phase ${phase.index} loops over \`${phase.forEach.variable}\` but has no \`yaml for_each\` block listing its items.`,
      );
    previous = ids;
  }
  return steps;
}

/**
 * A `for_each` argument with its placeholders replaced by the item's values; replaced characters point at their
 * placeholder.
 */
function substitute(
  text: string,
  offsets: number[],
  variable: string | undefined,
  values: Record<string, string> | undefined,
): { value: string; offsets: number[] } {
  if (!variable || !values) return { value: text, offsets };
  let value = '';
  const mapped: number[] = [];
  let last = 0;
  for (const match of text.matchAll(placeholders(variable))) {
    value += text.slice(last, match.index);
    mapped.push(...offsets.slice(last, match.index));
    const replacement = values[match[1]] ?? '';
    value += replacement;
    for (let i = 0; i < replacement.length; i++) mapped.push(offsets[match.index!]);
    last = match.index! + match[0].length;
  }
  value += text.slice(last);
  mapped.push(...offsets.slice(last));
  return { value, offsets: mapped };
}
