import type { JinjaRead } from '../../../parse/jinja/jinja';
import type { Span } from '../../../parse/text/lineIndex';
import type { ScalarText } from '../../../parse/yaml/scalarText';
import type { Node } from 'yaml';

/** A value written in the source, with where. */
export interface Located {
  value: string;
  span: Span;
  /** Not written but implied (an SOP phase depends on the phase before): `span` is what implies it. */
  implicit?: boolean;
}

/** The six step kinds OpenSquilla's plan parser accepts. */
export const STEP_KINDS = ['agent', 'llm_chat', 'llm_classify', 'tool_call', 'skill_exec', 'user_input'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export function isStepKind(kind: string): kind is StepKind {
  return (STEP_KINDS as readonly string[]).includes(kind);
}

/** One string the runtime renders (a template) or evaluates (an expression), with where its text lies. */
export interface MetaTemplate {
  /** Which argument holds it: `with.task`, `tool_args.path`, `when`, `route[0].when`, `clarify.skip_if`. */
  argument: string;
  /** The key naming the argument. */
  keySpan: Span;
  /** The whole value as written (with quotes or block header). */
  valueSpan: Span;
  /** The value and the file offset of each of its characters. */
  source: ScalarText;
  /** A bare Jinja expression (`when`, `skip_if`), not a template with `{{ }}`. */
  expression: boolean;
  read: JinjaRead;
}

/** A field a `user_input` step asks for; its answer is `inputs.collected.<step>.<name>`. */
export interface ClarifyField {
  name: string;
  type: string;
  span: Span;
}

/**
 * One step of a MetaSkill plan, from either form: `composition.steps` in
 * the frontmatter or a `meta_sop` phase in the body. Everything the model,
 * the checks and the features need, with the source range of each part.
 */
export interface MetaStep {
  index: number;
  /** The step id, or `steps[i]` when it has none. */
  id: string;
  idSpan: Span;
  hasId: boolean;
  /** The whole step. */
  span: Span;
  /** As written; `agent` when absent. */
  kind: string;
  kindSpan?: Span;
  skill?: Located;
  dependsOn: Located[];
  onFailure?: Located;
  routes: { to: Located; when?: string }[];
  templates: MetaTemplate[];
  /** The step's instruction (`task`, `system` or `text`), for hovers and the drawing. */
  instruction?: string;
  label?: string;
  clarifyFields: ClarifyField[];
  /** The step's YAML mapping (composition form only), for the rules that read its keys. */
  node?: Node;
}

export interface MetaPlan {
  form: 'composition' | 'sop';
  steps: MetaStep[];
  /** The step named by `final_text_mode: step:<id>`. */
  finalTextStep?: Located;
}

/** Filters OpenSquilla's template environment installs, with the most arguments each takes (undefined: not checked). */
export const ALLOWED_FILTERS: Record<string, { maxArgs?: number; summary: string }> = {
  xml_escape: {
    maxArgs: 0,
    summary: 'Escapes `&`, `<`, `>` and quotes, so user text cannot pose as markup in a prompt.',
  },
  truncate: {
    maxArgs: 1,
    summary:
      "`truncate(n)`: keeps the first n characters (default 1024). The runtime's own filter: one argument, no ellipsis.",
  },
  slugify: {
    maxArgs: 0,
    summary: 'Lower-case letters, digits, `_` and `-` only, at most 128 characters: safe in file names.',
  },
  tojson: { maxArgs: 1, summary: '`tojson(indent)`: the value as JSON.' },
  default: {
    maxArgs: 2,
    summary: '`default(value, boolean=false)`: `value` when the input is undefined (or falsy, with `boolean=true`).',
  },
  length: { maxArgs: 0, summary: 'The number of characters or items.' },
  join: { maxArgs: 2, summary: '`join(separator, attribute)`: joins a list into one string.' },
  lower: { maxArgs: 0, summary: 'The text in lower case.' },
  extract_path: {
    maxArgs: 1,
    summary: '`extract_path(suffix)`: the first file path in the text (ending in `.suffix` when given), or "".',
  },
  contains_cjk: { maxArgs: 0, summary: 'True when the text holds Chinese, Japanese or Korean characters.' },
  int: { maxArgs: 1, summary: '`int(default=0)`: the first integer in the text, or `default`.' },
  short_drama_section: { summary: 'Short-drama domain filter: one section of a script.' },
  short_drama_reference_context: { summary: 'Short-drama domain filter: the reference context of a shot.' },
  short_drama_duration_contract_valid: { summary: 'Short-drama domain filter: whether a duration contract holds.' },
  short_drama_shot_duration: { summary: 'Short-drama domain filter: the duration of one shot.' },
  short_drama_media_cost: { summary: 'Short-drama domain filter: the media cost of a plan.' },
};

/** What the runtime puts under `inputs`; `collected` holds the answers of `user_input` steps. */
export const RUNTIME_INPUTS: Record<string, string> = {
  user_message:
    "The user's message that started the run. Raw user text: escape it (`| xml_escape`) before it reaches a prompt.",
  user_language: "The language of the user's message (e.g. `en`, `zh`).",
  language_instruction: 'An instruction telling the model which language to answer in.',
  system_prompt: 'The outer system prompt or activation context of the run.',
  workspace_dir: "The absolute path of the run's workspace folder.",
  meta_run_id: 'The id of this MetaSkill run.',
  collected: 'Answers of `user_input` steps: `inputs.collected.<step id>.<field>` (and `collected.preflight`).',
  audience: 'When set: who the output is for.',
  language: 'When set: the output language.',
  preferences: "When set: the user's stored preferences.",
  meta_preflight_confirmed: 'When set: whether the user confirmed the preflight form.',
  meta_preflight_run_id: 'When set: the run id of the preflight.',
  meta_preflight_fields: 'When set: the fields the preflight asked for.',
};

/**
 * Names under `outputs` the runtime itself fills, not steps. The format note
 * lists `__opensquilla_receipt_proofs_v1__`; OpenSquilla's source
 * (`PAID_SUBMISSION_RECEIPT_PROOFS_OUTPUT_KEY`) and its MetaSkills use
 * `__opensquilla_paid_submission_receipt_proofs_v1__`: both are accepted.
 */
export const RESERVED_OUTPUTS = new Set([
  '__opensquilla_paid_submission_dispositions_v1__',
  '__opensquilla_paid_submission_receipt_proofs_v1__',
  '__opensquilla_receipt_proofs_v1__',
]);
