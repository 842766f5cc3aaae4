import { stringify } from 'yaml';
import { aip05Type } from '../../../checks/graph/types';
import { CURRENT_AIP_VERSION, CURRENT_RUNTIME_BLOCK } from '../read/runtimeBlock';
import { skillFileText } from '../../../forms/resultPackage';

// What every AIP 0.5 package Skillgraph writes shares, whatever it is compiled from: its SKILL.md (the runtime block
// and one YAML procedure), its inputs, and its templates.

/** An AIP 0.5 input: a name and a type from the vocabulary. */
export interface Input {
  name: string;
  type: string;
  description?: string;
}

/** What a value's input says when its type is not known: it is written as a string and reported. */
export const UNTYPED = 'TODO: the type of this value';

/** An input from a value whose type may be unknown or outside the vocabulary (then a string, marked UNTYPED). */
export function typedInput(name: string, type: string | undefined, description?: string): Input {
  const written = aip05Type(type);
  return {
    name,
    type: written ?? 'string',
    ...(written ? (description ? { description } : {}) : { description: UNTYPED }),
  };
}

/** A client task's step reference: a file under `references/` and when to load it. */
export interface Reference {
  path: string;
  description: string;
}

/**
 * A decision before `step` with one `choice` question: which of the alternatives (`criteria`: label → what it means,
 * or null) the step takes. Its answer lands in the state under the question's name, which the step declares as an
 * input and its template reads (`templateLine`).
 */
export function choiceDecision(
  step: string,
  name: string,
  criteria: Record<string, string | null>,
  instructions: string,
): { decision: Record<string, unknown>; input: Input; templateLine: string } {
  const question = `${step.replace(/-/g, '_')}_choice`;
  return {
    decision: {
      name,
      kind: 'decision',
      description: `Choose which of its ${Object.keys(criteria).length} alternatives ${step} takes.`,
      inputs: [],
      questions: { [question]: { type: 'choice', instructions, criteria } },
      inputs_to: step,
    },
    input: { name: question, type: 'string', description: `The alternative ${name} chose.` },
    templateLine: `Take the alternative chosen before this step: {${question}}.`,
  };
}

/** Literal braces doubled: the runtime fills `{key}` in a template from the state. */
export const templateText = (text: string) => text.replace(/[{}]/g, (brace) => brace + brace);

/**
 * A package's SKILL.md: the frontmatter with the current `aip-version`, the runtime block, then the procedure. A
 * reference many steps cite is written out at each (never as a YAML alias), so every step reads on its own.
 */
export function aip05SkillMd(
  frontmatter: Record<string, unknown>,
  metadata: Record<string, string>,
  procedure: Record<string, unknown>,
): string {
  const body = `${CURRENT_RUNTIME_BLOCK}\n\n\`\`\`yaml\n${stringify(procedure, { lineWidth: 100, version: '1.1', aliasDuplicateObjects: false })}\`\`\``;
  return skillFileText({ ...frontmatter, metadata: { ...metadata, 'aip-version': CURRENT_AIP_VERSION } }, body);
}
