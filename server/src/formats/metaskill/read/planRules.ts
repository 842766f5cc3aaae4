import { isMap, type Node } from 'yaml';
import compositionSchema from '../../../../../schemas/metaskill.composition.schema.json';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { closestName } from '../../../checks/match/nameDistance';
import { validateAgainstSchema } from '../../../checks/schema/schemaValidation';
import type { Span } from '../../../parse/text/lineIndex';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, pairOf, scalarString, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';
import { STEP_KINDS, type MetaPlan, type MetaStep } from './metaPlan';
import { defineRule } from '../../../checks/engine/rule';
import { duplicateStepName } from '../../../checks/graph/duplicateSteps';
import { suggestionFix } from '../../../checks/engine/suggestionFix';

export const invalidComposition = defineRule({
  code: 'invalid_composition',
  category: 'metaskill',
  severity: 'error',
  summary: '`composition` or `composition.steps` has the wrong shape, so the plan does not load.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
});

export const invalidMetaStep = defineRule({
  code: 'invalid_meta_step',
  category: 'metaskill',
  severity: 'error',
  summary: "A step field that OpenSquilla's plan parser rejects.",
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const invalidSubstitute = defineRule({
  code: 'invalid_substitute',
  category: 'metaskill',
  severity: 'error',
  summary: 'An `on_failure` substitute breaks the substitution rules.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const unknownStepKey = defineRule({
  code: 'unknown_step_key',
  category: 'metaskill',
  severity: 'warning',
  summary: 'A step key the plan parser silently ignores (often a typo such as `depend_on`).',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

/** Step keys the plan parser reads, and three OpenSquilla's skill creator writes on every step. */
export const STEP_KEYS = Object.keys(compositionSchema.$defs.step.properties);

/**
 * What OpenSquilla's plan parser rejects (the skill then never runs as a
 * plan): the structure of `composition`, each step's fields (the schema),
 * duplicate ids, `on_failure` rules, `tool_allowlist` and `clarify` forms.
 * Also the unknown step keys it silently ignores, as warnings. `stepsReused`:
 * the steps may be the values an earlier analysis checked (the server's
 * chunk cache), so the schema looks at the others only.
 */
export function checkPlan(
  yaml: YamlSyntax,
  file: string,
  anchor: Span,
  plan: MetaPlan,
  stepsReused: boolean,
): Diagnostic[] {
  const root = yaml.doc.contents as Node | null;
  const compositionPair = pairOf(root, 'composition');
  const kindSpan = nodeSpan(yaml, valueOf(root, 'kind')) ?? anchor;
  if (!compositionPair) {
    return [
      diagnostic(
        invalidComposition,
        file,
        kindSpan,
        'A `kind: meta` skill needs `composition.steps`: without it OpenSquilla rejects the plan and the skill never runs as one.',
      ),
    ];
  }
  const value = (yaml.value as Record<string, unknown>).composition;
  const diagnostics = validateAgainstSchema(compositionSchema, value ?? null, {
    file,
    yaml,
    rootSpan: nodeSpan(yaml, compositionPair.key)!,
    defaultRule: invalidMetaStep,
    named: [invalidComposition, invalidMetaStep],
    rootName: '`composition`',
    basePath: ['composition'],
    stepsReused,
  });
  for (const step of plan.steps) {
    if (!step.kindSpan || (STEP_KINDS as readonly string[]).includes(step.kind)) continue;
    const suggestion = closestName(step.kind, STEP_KINDS);
    const found = diagnostics.find(
      (item) => item.span.start === step.kindSpan!.start && item.span.end === step.kindSpan!.end,
    );
    if (found && suggestion) {
      found.data = { suggestion };
      found.message += ` Did you mean \`${suggestion}\`?`;
    }
  }
  diagnostics.push(
    ...duplicateIds(file, plan),
    ...unknownKeys(yaml, file, plan),
    ...substitutes(file, plan),
    ...toolAllowlists(yaml, file, plan),
    ...clarifyForms(yaml, file, plan),
  );
  return diagnostics;
}

function duplicateIds(file: string, plan: MetaPlan): Diagnostic[] {
  const first = new Map<string, MetaStep>();
  const diagnostics: Diagnostic[] = [];
  for (const step of plan.steps) {
    if (!step.hasId) continue;
    const earlier = first.get(step.id);
    if (!earlier) first.set(step.id, step);
    else
      diagnostics.push(
        diagnostic(
          duplicateStepName,
          file,
          step.idSpan,
          `Step id "${step.id}" is already used by step ${earlier.index + 1}; OpenSquilla rejects a plan with duplicate step ids.`,
          { name: step.id },
        ),
      );
  }
  return diagnostics;
}

function unknownKeys(yaml: YamlSyntax, file: string, plan: MetaPlan): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const step of plan.steps) {
    for (const entry of mapEntries(step.node)) {
      if (STEP_KEYS.includes(entry.key)) continue;
      const suggestion = closestName(entry.key, STEP_KEYS);
      diagnostics.push(
        diagnostic(
          unknownStepKey,
          file,
          nodeSpan(yaml, entry.keyNode)!,
          `OpenSquilla ignores the step key \`${entry.key}\` without a word${suggestion ? `: did you mean \`${suggestion}\`?` : '.'}${entry.key === 'depend_on' || suggestion === 'depends_on' ? ' As written, this step has no dependencies and starts at once.' : ''}`,
          suggestion ? { suggestion } : undefined,
        ),
      );
    }
  }
  return diagnostics;
}

/**
 * `on_failure`: the substitute exists, is another step, has no `on_failure` or `depends_on` of its own, and serves one
 * primary.
 */
function substitutes(file: string, plan: MetaPlan): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const byId = new Map(plan.steps.filter((step) => step.hasId).map((step) => [step.id, step]));
  const primaries = new Map<string, MetaStep>();
  for (const step of plan.steps) {
    const target = step.onFailure;
    if (!target) continue;
    const substitute = byId.get(target.value);
    const fail = (message: string, data?: Record<string, unknown>) =>
      diagnostics.push(diagnostic(invalidSubstitute, file, target.span, message, data));
    if (target.value === step.id)
      fail(`Step "${step.id}" names itself as its \`on_failure\` substitute; OpenSquilla rejects the plan.`);
    else if (!substitute) {
      const suggestion = closestName(
        target.value,
        [...byId.keys()].filter((id) => id !== step.id),
      );
      fail(
        `\`on_failure\` names "${target.value}", but no step has that id; OpenSquilla rejects the plan.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
        suggestion ? { suggestion } : undefined,
      );
    } else if (substitute.onFailure)
      fail(`The substitute "${substitute.id}" has an \`on_failure\` of its own; substitutes cannot be chained.`);
    else if (substitute.dependsOn.length > 0)
      fail(
        `The substitute "${substitute.id}" declares \`depends_on\`; a substitute is started when its primary fails, not by dependencies. Remove its \`depends_on\`.`,
      );
    else if (primaries.has(substitute.id))
      fail(
        `"${substitute.id}" is already the substitute of "${primaries.get(substitute.id)!.id}"; a substitute serves one primary only.`,
      );
    if (substitute && !primaries.has(substitute.id)) primaries.set(substitute.id, step);
  }
  return diagnostics;
}

function toolAllowlists(yaml: YamlSyntax, file: string, plan: MetaPlan): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const step of plan.steps) {
    const list = seqItems(valueOf(step.node, 'tool_allowlist')).map((item) => scalarString(item));
    const tool = scalarString(valueOf(step.node, 'tool'));
    if (step.kind === 'tool_call' && tool && list.length > 0 && !list.includes(tool)) {
      diagnostics.push(
        diagnostic(
          invalidMetaStep,
          file,
          nodeSpan(yaml, valueOf(step.node, 'tool_allowlist'))!,
          `\`tool_allowlist\` does not contain the step's tool "${tool}"; OpenSquilla rejects the plan.`,
        ),
      );
    }
    if (step.kind !== 'tool_call' && list.length > 0) {
      diagnostics.push(
        diagnostic(
          invalidMetaStep,
          file,
          nodeSpan(yaml, pairOf(step.node, 'tool_allowlist')?.key)!,
          `\`tool_allowlist\` is only valid on \`tool_call\` steps (this one is \`${step.kind}\`).`,
        ),
      );
    }
  }
  return diagnostics;
}

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** The cross-field rules of `clarify` forms that a schema cannot state. */
function clarifyForms(yaml: YamlSyntax, file: string, plan: MetaPlan): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const step of plan.steps) {
    const clarify = valueOf(step.node, 'clarify');
    if (step.kind !== 'user_input' || !isMap(clarify)) continue;
    const fields = seqItems(valueOf(clarify, 'fields'));
    const names = new Set<string>();
    for (const field of fields) {
      if (!isMap(field)) continue;
      const value = field.toJSON() as Record<string, unknown>;
      const at = (key: string) => nodeSpan(yaml, pairOf(field, key)?.key ?? pairOf(field, 'name')?.value)!;
      const fail = (key: string, message: string) =>
        diagnostics.push(diagnostic(invalidMetaStep, file, at(key), message));
      const name = String(value.name ?? '');
      if (names.has(name)) fail('name', `Two fields of \`clarify\` are named "${name}"; OpenSquilla rejects the plan.`);
      names.add(name);
      const { type, choices, min, max } = value;
      const maxChars = value.max_chars;
      const hasDefault = value.default !== undefined && value.default !== null;
      if (value.required === true && hasDefault)
        fail('default', `Field "${name}" is required and has a \`default\`; the two exclude each other.`);
      if (type === 'enum' && (!Array.isArray(choices) || choices.length === 0))
        fail('type', `Field "${name}" is an \`enum\`: list its \`choices\`.`);
      if (type !== 'enum' && Array.isArray(choices) && choices.length > 0)
        fail('choices', `\`choices\` is only valid on \`enum\` fields ("${name}" is \`${String(type)}\`).`);
      if (type !== 'int' && ((min ?? null) !== null || (max ?? null) !== null))
        fail(
          (min ?? null) !== null ? 'min' : 'max',
          `\`min\` and \`max\` are only valid on \`int\` fields ("${name}" is \`${String(type)}\`).`,
        );
      if (type === 'int' && isInt(min) && isInt(max) && min > max)
        fail('min', `Field "${name}": \`min\` ${min} is above \`max\` ${max}.`);
      if (type !== 'string' && (maxChars ?? null) !== null)
        fail('max_chars', `\`max_chars\` is only valid on \`string\` fields ("${name}" is \`${String(type)}\`).`);
      if (!hasDefault) continue;
      const fallback = value.default;
      if (type === 'enum' && Array.isArray(choices) && !choices.includes(fallback))
        fail('default', `Field "${name}": the default ${JSON.stringify(fallback)} is not one of its \`choices\`.`);
      if (type === 'int' && (!isInt(fallback) || (isInt(min) && fallback < min) || (isInt(max) && fallback > max)))
        fail(
          'default',
          `Field "${name}": the default must be a whole number${isInt(min) ? ` from ${min}` : ''}${isInt(max) ? ` up to ${max}` : ''}.`,
        );
      if (type === 'bool' && typeof fallback !== 'boolean')
        fail('default', `Field "${name}": the default of a \`bool\` field must be true or false.`);
      if (type === 'string' && (typeof fallback !== 'string' || (isInt(maxChars) && fallback.length > maxChars)))
        fail(
          'default',
          `Field "${name}": the default must be a string${isInt(maxChars) ? ` of at most ${maxChars} characters` : ''}.`,
        );
    }
    const mode = scalarString(valueOf(clarify, 'mode')) ?? 'form';
    // The runtime appends an `additional_notes` field unless one is declared: it counts toward the limit.
    const limit = (mode === 'chat' ? 5 : 13) - (names.has('additional_notes') ? 0 : 1);
    if (fields.length > limit && (mode === 'chat' || mode === 'form')) {
      const key = pairOf(clarify, 'fields')?.key;
      diagnostics.push(
        diagnostic(
          invalidMetaStep,
          file,
          nodeSpan(yaml, key)!,
          `A \`${mode}\` asks at most ${mode === 'chat' ? 5 : 13} fields, counting the \`additional_notes\` field the runtime adds${names.has('additional_notes') ? '' : ' (not declared here)'}: this one declares ${fields.length}, at most ${limit} allowed.`,
        ),
      );
    }
  }
  return diagnostics;
}
