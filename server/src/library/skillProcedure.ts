import * as path from 'node:path';
import type { EdgeKind, NodeKind, SkillModel } from '../model/skillModel';

// A skill's procedure as the library graph holds it: its steps with what a governance question asks of each (does it
// act irreversibly, is it a gate that lets a person or a check stop what follows), the values they pass, the scripts
// they run, the skills they compose, and the AIP fields that say when not to use the skill.

export interface ProcedureStep {
  /** The step's id in its skill (its name, or its place when it has none). */
  id: string;
  kind: NodeKind;
  description: string;
  /** Its name or description says it deletes, deploys, publishes, sends, pays… (IRREVERSIBLE). */
  irreversible: boolean;
  /** A decision or confirmation step, or one whose name or description says it approves, reviews or validates. */
  gate: boolean;
  /** The names of the values it reads and writes. */
  inputs: string[];
  outputs: string[];
}

export interface SkillProcedure {
  /** AIP's `purpose`, `trigger_when`, `do_not_use_when`, `anti_patterns` and `scope_and_approval` (empty elsewhere). */
  purpose: string;
  triggerWhen: string[];
  doNotUseWhen: string[];
  antiPatterns: string[];
  scopeAndApproval: string;
  steps: ProcedureStep[];
  /** What runs after what: control edges, router branches, fallbacks. */
  next: { from: string; to: string; via: Exclude<EdgeKind, 'data'> }[];
  /** A value one step produces and another reads (`type`: the producer's declared type, else the reader's). */
  feeds: { from: string; to: string; value: string; type: string }[];
  /** The scripts steps run, as written (from the skill folder). */
  runs: { step: string; path: string }[];
  /** The skills steps compose (MetaSkill `skill:` and route targets), by name. */
  composes: { step: string; name: string }[];
}

/**
 * Verbs of irreversible actions: once done, a later step cannot take them back. Verb forms only, so `deployment` or
 * `payment` (what a step reads about) is no such action.
 */
const IRREVERSIBLE =
  /\b(?:delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|destroy(?:s|ed|ing)?|deploy(?:s|ed|ing)?|publish(?:es|ed|ing)?|push(?:es|ed|ing)?|send(?:s|ing)?|submit(?:s|ted|ting)?|pay(?:s|ing)?|charg(?:e|es|ing)|transfer(?:s|red|ring)?|purg(?:e|es|ed|ing)|wip(?:e|es|ing)|overwrit(?:e|es|ing)|revok(?:e|es|ing)|terminat(?:e|es|ing)|rm -rf)\b/i;

/** Words of a gate: a person or a check decides whether what follows runs. */
const GATE =
  /\b(?:approv(?:e|es|ed|al|ing)|confirm(?:s|ed|ation|ing)?|review(?:s|ed|ing)?|validat(?:e|es|ed|ion|ing)|verif(?:y|ies|ied|ication|ying)|check(?:s|ed|ing)?|dry[- ]run|sign[- ]off|preview(?:s|ed|ing)?|gate)\b/i;

/** Step kinds that are gates whatever they say: the agent or the user answers before the flow goes on. */
const GATE_KINDS = new Set<NodeKind>(['decision', 'confirm', 'ask', 'user_input']);

/**
 * The procedure of a skill's model, with its AIP procedure block's fields (`fields`) when it has one; undefined for a
 * skill with no steps (plain Agent Skills).
 */
export function skillProcedure(model: SkillModel, fields: Record<string, unknown> = {}): SkillProcedure | undefined {
  const steps = model.nodes.filter((node) => node.kind !== 'external-input');
  if (steps.length === 0) return undefined;
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  const list = (key: string) =>
    Array.isArray(fields[key]) ? (fields[key] as unknown[]).filter((item) => typeof item === 'string') : [];
  const ids = new Set(steps.map((step) => step.id));
  return {
    purpose: text('purpose'),
    triggerWhen: list('trigger_when'),
    doNotUseWhen: list('do_not_use_when'),
    antiPatterns: list('anti_patterns'),
    scopeAndApproval: text('scope_and_approval'),
    steps: steps.map((step) => {
      const name = step.label.replace(/[-_]/g, ' ');
      const description = step.description?.text ?? '';
      // What a step does is its name, or its description's first word (`Publish {doc} to …`): the rest of a
      // description says what it reads and why (`from the deploy history`, `drop rows that …`).
      const does = `${name} ${/^\s*(\S+)/.exec(description)?.[1] ?? ''}`;
      return {
        id: step.id,
        kind: step.kind,
        description,
        irreversible: IRREVERSIBLE.test(does),
        gate: GATE_KINDS.has(step.kind) || GATE.test(`${name} ${description}`),
        inputs: step.inputs.map((port) => port.name),
        outputs: step.outputs.map((port) => port.name),
      };
    }),
    next: model.edges.flatMap((edge) =>
      edge.kind !== 'data' && ids.has(edge.from) && ids.has(edge.to)
        ? [{ from: edge.from, to: edge.to, via: edge.kind }]
        : [],
    ),
    feeds: model.edges.flatMap((edge) =>
      edge.kind === 'data' && edge.producer && edge.consumer
        ? [
            {
              from: edge.producer.nodeId,
              to: edge.consumer.nodeId,
              value: edge.consumer.name,
              type: edge.producer.type ?? edge.consumer.type ?? '',
            },
          ]
        : [],
    ),
    runs: steps.flatMap((step) =>
      [...(step.script ? [step.script] : []), ...step.links.filter((link) => link.role === 'script')].flatMap(
        (link) => {
          const written = path.posix.normalize(link.path);
          return written.startsWith('../') || path.posix.isAbsolute(written) ? [] : [{ step: step.id, path: written }];
        },
      ),
    ),
    composes: steps.flatMap((step) => (step.skillRefs ?? []).map((ref) => ({ step: step.id, name: ref.name }))),
  };
}
