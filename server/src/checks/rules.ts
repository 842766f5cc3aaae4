import type { Severity } from './diagnostic';

interface RuleInfo {
  severity: Severity;
  /** One line for SARIF rule descriptions and the docs index. */
  summary: string;
}

/**
 * Every diagnostic code, its default severity and a one-line summary. Codes
 * are stable: editors, SARIF consumers and `docs/rules/<code>.md` key on them.
 * Codes mirrored from upstream validators keep upstream's names.
 */
export const RULES = {
  // The file and its container
  missing_skill_md: { severity: 'error', summary: 'A skill file is not named exactly SKILL.md.' },
  file_too_large: { severity: 'error', summary: 'A file is too large to be a skill file and is not analysed.' },
  binary_file: { severity: 'error', summary: 'A skill file holds binary data, not text.' },
  utf8_bom: { severity: 'information', summary: 'SKILL.md starts with a UTF-8 byte-order mark.' },
  crlf_line_endings: { severity: 'information', summary: 'SKILL.md uses CRLF line endings.' },
  missing_frontmatter: { severity: 'error', summary: 'SKILL.md does not start with YAML frontmatter.' },
  invalid_frontmatter: { severity: 'error', summary: 'The frontmatter is not a readable YAML mapping.' },
  unquoted_colon: {
    severity: 'error',
    summary: 'An unquoted ": " inside a value breaks the frontmatter, so agents skip the skill.',
  },
  duplicate_key: { severity: 'warning', summary: 'A key is set twice; the reader keeps only the last value.' },
  yaml_alias_limit: { severity: 'error', summary: 'YAML aliases expand beyond the safe limit.' },
  unclosed_fence: { severity: 'warning', summary: 'A fenced code block never closes.' },
  body_too_long: { severity: 'warning', summary: 'The SKILL.md body is longer than recommended.' },
  // Frontmatter fields (Agent Skills and client profiles)
  missing_required_frontmatter: { severity: 'error', summary: 'A required frontmatter key is missing.' },
  invalid_name: { severity: 'error', summary: '`name` breaks the naming rules.' },
  name_mismatch: { severity: 'error', summary: '`name` differs from the skill folder name.' },
  invalid_description: { severity: 'error', summary: '`description` is missing, empty, too long or not a string.' },
  invalid_compatibility: { severity: 'error', summary: '`compatibility` is not a string of 1 to 500 characters.' },
  invalid_allowed_tools: { severity: 'error', summary: '`allowed-tools` is not one space-separated string.' },
  invalid_license: { severity: 'error', summary: '`license` is not a short string.' },
  invalid_metadata: { severity: 'error', summary: '`metadata` is not a map of strings to strings.' },
  invalid_frontmatter_field: {
    severity: 'error',
    summary: 'A client-specific frontmatter key has the wrong type or value.',
  },
  unknown_frontmatter_key: { severity: 'warning', summary: 'A frontmatter key the targeted client does not know.' },
  portable_value: {
    severity: 'warning',
    summary:
      'A list, map or number where the spec asks for a string: accepted by most clients, rejected by strict ones.',
  },
  loader_size_limit: { severity: 'error', summary: 'SKILL.md is larger than the targeted client loads.' },
  description_truncated: {
    severity: 'warning',
    summary: 'Claude Code truncates a description and when_to_use longer than 1536 characters.',
  },
  // What a skill from a stranger may hide (checks/security/)
  hidden_unicode: {
    severity: 'warning',
    summary: 'Invisible or bidirectional characters: text an agent reads that a reader does not see.',
  },
  hidden_instructions: {
    severity: 'warning',
    summary: 'An HTML comment or a collapsed section that speaks to the agent, hidden from a reader.',
  },
  encoded_text: { severity: 'warning', summary: 'Base64, hex or escaped bytes that decode to text no reviewer reads.' },
  hostile_instruction: {
    severity: 'error',
    summary:
      'Prose telling the agent to set aside its instructions, hide what it does, skip confirmations, take credentials or send data away.',
  },
  remote_code: { severity: 'warning', summary: 'A command that runs code it downloads (`curl … | sh`).' },
  risky_command: {
    severity: 'warning',
    summary: 'A command that writes into shell or SSH files, opens permissions to all, or turns off TLS checks.',
  },
  committed_secret: { severity: 'error', summary: 'A credential committed in the skill (a token, a private key).' },
  unrestricted_shell: {
    severity: 'information',
    summary: '`allowed-tools` grants every shell command where the skill uses a few.',
  },
  hook_runs_command: {
    severity: 'information',
    summary: 'A Claude Code hook of the skill runs a command without asking.',
  },
  invocation_command: {
    severity: 'information',
    summary: 'A command Claude Code runs when the skill is invoked (`` !`command` ``, a ```` ```! ```` block).',
  },
  shown_command_runs: {
    severity: 'warning',
    summary: 'A `` !`command` `` shown as an example in SKILL.md, which Claude Code runs all the same.',
  },
  arguments_in_command: {
    severity: 'warning',
    summary: "A command run at invocation with the skill's arguments spliced in as typed (`$ARGUMENTS`, `$0`).",
  },
  audit_incomplete: {
    severity: 'information',
    summary: 'A text file of the skill the security rules did not read: too large, or past the files they read.',
  },
  invalid_openai_yaml: {
    severity: 'warning',
    summary: "A value of a skill's `agents/openai.yaml` that Codex cannot use, and leaves out.",
  },
  invalid_evals: {
    severity: 'warning',
    summary: "A skill's `evals/evals.json` that eval tools cannot run as written: its shape, ids, `skill_name`.",
  },
  eval_unknown_target: {
    severity: 'warning',
    summary: 'An eval expectation names a step the skill does not have, or a file nothing says it makes.',
  },
  invalid_trigger_queries: {
    severity: 'warning',
    summary: 'A trigger query set (`evals/*queries*.json`) of the wrong shape, or with a query twice.',
  },
  trigger_queries_one_sided: {
    severity: 'warning',
    summary: 'A trigger query set whose queries all should trigger the skill, or none does.',
  },
  invalid_hooks: {
    severity: 'warning',
    summary:
      "A skill's `hooks` that Claude Code cannot run: a wrong shape, a hook without its command, an event misspelt.",
  },
  argument_hint_mismatch: {
    severity: 'information',
    summary:
      'The body reads `$ARGUMENTS` with no `argument-hint`, or `argument-hint` is set and the body reads no argument.',
  },
  placeholder_collision: {
    severity: 'warning',
    summary:
      '`$1` written for awk, a shell script, a regex or a spreadsheet, which Claude Code replaces with an argument.',
  },
  agent_without_fork: { severity: 'error', summary: '`agent` is set without `context: fork`.' },
  angle_bracket_in_description: {
    severity: 'error',
    summary: "A `<` or `>` in `description`, which Codex's skill validator rejects.",
  },
  xml_in_frontmatter: { severity: 'error', summary: 'XML tags in `name` or `description` are rejected on upload.' },
  reserved_name: { severity: 'error', summary: '`name` contains a reserved word.' },
  upload_too_large: { severity: 'error', summary: 'The skill folder is larger than the upload limit.' },
  // Paths named by the skill
  missing_file: { severity: 'warning', summary: 'A path the skill names does not exist in the skill folder.' },
  path_case_mismatch: { severity: 'warning', summary: 'A path matches a file only when case is ignored.' },
  path_escapes_skill: { severity: 'warning', summary: 'A path points outside the skill folder.' },
  backslash_path: { severity: 'warning', summary: 'A path uses backslashes.' },
  nested_reference: {
    severity: 'warning',
    summary: 'A referenced file links on to further files (more than one level deep).',
  },
  // AIP container and metadata (upstream kinds)
  aip_like_skill: {
    severity: 'information',
    summary: 'The body is an AIP procedure but the frontmatter lacks AIP metadata.',
  },
  empty_body: { severity: 'error', summary: 'The body holds no procedure.' },
  invalid_body_format: {
    severity: 'error',
    summary: 'The body is not exactly one fenced YAML block (after the runtime block in 0.5).',
  },
  invalid_body_yaml: { severity: 'error', summary: 'The procedure block is not valid YAML or not a mapping.' },
  schema_violation: { severity: 'error', summary: 'The procedure breaks the AIP JSON Schema.' },
  invalid_aip_metadata: { severity: 'error', summary: '`metadata.aip` is not a map.' },
  missing_aip_spec: { severity: 'error', summary: '`metadata.aip.spec` is missing.' },
  invalid_aip_spec: { severity: 'error', summary: '`metadata.aip.spec` is not a URL.' },
  aip_spec_mismatch: { severity: 'error', summary: '`metadata.aip.spec` and `schemaId` name different AIP versions.' },
  missing_aip_schema_id: { severity: 'error', summary: '`metadata.aip.schemaId` is missing.' },
  invalid_aip_schema_id: { severity: 'error', summary: '`metadata.aip.schemaId` is not a URL.' },
  missing_source_dir: { severity: 'error', summary: 'An AIP package has no `source/` folder.' },
  missing_schema_file: { severity: 'error', summary: '`source/` holds no `*.schema.json`.' },
  schema_id_mismatch: { severity: 'error', summary: 'No bundled schema has an `$id` equal to `schemaId`.' },
  duplicate_schema_id: { severity: 'error', summary: 'Two bundled schemas share one `$id`.' },
  missing_aip_version: { severity: 'error', summary: '`metadata.aip-version` is missing or not a string.' },
  aip_version_mismatch: {
    severity: 'error',
    summary: 'The runtime block names a different AIP version than the frontmatter.',
  },
  missing_runtime_block: {
    severity: 'error',
    summary: 'An AIP 0.5 body lacks the runtime block before the procedure.',
  },
  runtime_block_outdated: {
    severity: 'warning',
    summary: 'The runtime block is for an older AIP version than the frontmatter.',
  },
  runtime_block_modified: {
    severity: 'error',
    summary: 'The runtime block is not the text of its AIP version, verbatim.',
  },
  // Graph checks
  duplicate_step_name: { severity: 'error', summary: 'Two steps share one name.' },
  unknown_dependency: { severity: 'error', summary: '`depends_on` names a step that does not exist.' },
  dependency_cycle: { severity: 'error', summary: 'Steps depend on each other in a cycle.' },
  external_input: {
    severity: 'information',
    summary: 'An input no step produces: it comes from the user or the environment.',
  },
  input_name_typo: { severity: 'warning', summary: 'An input is named almost like an upstream output.' },
  producer_not_ancestor: {
    severity: 'warning',
    summary: 'An input is produced by a step that does not run before its consumer.',
  },
  type_mismatch: {
    severity: 'warning',
    summary: 'An input is declared with a different type than its producer gives.',
  },
  nullable_mismatch: { severity: 'warning', summary: 'A nullable output feeds a non-nullable input.' },
  unknown_type: { severity: 'warning', summary: 'A type outside the AIP vocabulary.' },
  script_outside_scripts: { severity: 'warning', summary: '`script` is not under `scripts/`.' },
  missing_script: { severity: 'warning', summary: 'The script a step runs does not exist.' },
  script_unresolved: {
    severity: 'warning',
    summary: "An AIP step's shell script keeps a placeholder, or reads a variable nothing sets.",
  },
  // AIP 0.5 graph checks (upstream kinds)
  invalid_start_step: { severity: 'error', summary: 'The first step cannot start the procedure.' },
  missing_end_step: { severity: 'error', summary: 'No `end` step.' },
  multiple_end_steps: { severity: 'error', summary: 'More than one `end` step.' },
  unknown_step_reference: { severity: 'error', summary: '`inputs_to` or a branch names a step that does not exist.' },
  unreachable_step: { severity: 'error', summary: 'A step no path from the start reaches.' },
  no_path_to_end: { severity: 'error', summary: 'A step from which the end cannot be reached.' },
  unknown_branch_value: { severity: 'error', summary: 'A router branch value its question can never produce.' },
  duplicate_input_name: { severity: 'error', summary: 'A step declares the same input twice.' },
  unknown_threshold_question: { severity: 'error', summary: 'A threshold names a question the step does not ask.' },
  missing_resource: {
    severity: 'error',
    summary: 'A script, template, asset or reference the procedure names does not exist.',
  },

  // MetaSkill plans (OpenSquilla's plan parser, SOP compiler and lint, then the checks they lack)
  invalid_composition: {
    severity: 'error',
    summary: '`composition` or `composition.steps` has the wrong shape, so the plan does not load.',
  },
  invalid_meta_step: { severity: 'error', summary: "A step field that OpenSquilla's plan parser rejects." },
  invalid_substitute: { severity: 'error', summary: 'An `on_failure` substitute breaks the substitution rules.' },
  invalid_sop: { severity: 'error', summary: "A `meta_sop` body that OpenSquilla's SOP compiler rejects." },
  unknown_step_key: {
    severity: 'warning',
    summary: 'A step key the plan parser silently ignores (often a typo such as `depend_on`).',
  },
  unknown_skill: { severity: 'error', summary: 'A step or route runs a skill that is not in the catalog.' },
  nested_meta_skill: { severity: 'error', summary: 'A step runs another MetaSkill, which the runtime refuses.' },
  unknown_output: { severity: 'error', summary: '`outputs.X` names no step.' },
  binding_out_of_scope: { severity: 'warning', summary: '`outputs.X` reads a step that does not run before this one.' },
  unknown_input: { severity: 'warning', summary: '`inputs.X` names nothing the runtime sets.' },
  unknown_filter: { severity: 'error', summary: "A Jinja filter outside the runtime's allowlist." },
  filter_arguments: { severity: 'error', summary: 'A Jinja filter called with more arguments than it takes.' },
  template_syntax: { severity: 'error', summary: 'A Jinja template or expression that does not parse.' },
  template_in_expression: {
    severity: 'error',
    summary: '`{{ }}` inside a Jinja expression (`when`, `skip_if`, `route[].when`).',
  },
  raw_user_message: {
    severity: 'error',
    summary: '`inputs.user_message` reaches a template without `| xml_escape` (lint G1.6).',
  },
  invalid_final_text_mode: { severity: 'warning', summary: '`final_text_mode: step:X` names no step.' },
  // skill+ packages (flow, state, tips and rules across files)
  invalid_skillplus_metadata: { severity: 'error', summary: 'A `skillplus-*` metadata value is malformed.' },
  invalid_flow_file: {
    severity: 'error',
    summary: 'The flow file is missing, or both flow.py and flow.yaml are there without a choice.',
  },
  dynamic_flow: { severity: 'error', summary: 'flow.py holds code outside the static subset the runtime reads.' },
  invalid_flow_call: {
    severity: 'error',
    summary: 'A flow call or key with a missing, unknown or non-literal argument.',
  },
  invalid_flow_yaml: {
    severity: 'error',
    summary: 'flow.yaml is not valid, has unknown keys or text YAML read as a mapping.',
  },
  duplicate_flow_id: { severity: 'error', summary: 'Two stages or two nodes share one id.' },
  nested_stage: { severity: 'error', summary: 'A stage inside a stage.' },
  node_outside_stage: { severity: 'error', summary: 'A node outside every stage.' },
  invalid_branch: {
    severity: 'error',
    summary: 'A branch without cases, with mixed, empty or repeated cases, or case values of the wrong type.',
  },
  invalid_loop: { severity: 'error', summary: 'A loop without `max_rounds`, or without `until` or `goal`.' },
  invalid_fanout: {
    severity: 'error',
    summary:
      'A fan-out whose `over`/`into` are not lists, whose `item` shadows a field, or whose body writes a scalar.',
  },
  invalid_state: { severity: 'error', summary: 'state.py is missing, does not parse, or lacks the State class.' },
  state_type_unreadable: { severity: 'warning', summary: 'A State annotation skill+ cannot read.' },
  unknown_state_path: { severity: 'error', summary: '`into`, `on` or `over` names no State field.' },
  state_type_mismatch: { severity: 'error', summary: 'A node writes a State field of the wrong type.' },
  unknown_placeholder: { severity: 'error', summary: 'A `{placeholder}` names no State path and no item in scope.' },
  field_never_written: { severity: 'information', summary: 'A State field no node writes and that is not an input.' },
  unknown_rule: { severity: 'error', summary: '`rule=` names no rule.' },
  predicate_syntax: { severity: 'error', summary: 'A `when` or `until` predicate does not parse.' },
  unknown_predicate_path: {
    severity: 'error',
    summary: 'A predicate reads a name that is no State path and no built-in.',
  },
  unknown_flow_id: { severity: 'error', summary: '`stage=` or `node=` names no stage or node.' },
  predicate_value: {
    severity: 'error',
    summary: 'A predicate compares with a value of the wrong type, outside a `Literal`, or an unknown event.',
  },
  predicate_never_holds: {
    severity: 'warning',
    summary: 'A predicate that can never hold, so its tip or rule never applies.',
  },
  invalid_on_fail: { severity: 'error', summary: 'A rule without a valid `on_fail`.' },
  invalid_rule_decorator: {
    severity: 'error',
    summary: 'A `@rule(...)` with non-literal arguments, no id, or a function that does not take `(state, ctx)`.',
  },
  duplicate_rule_id: { severity: 'error', summary: 'Two rules share one id.' },
  tip_key_without_when: { severity: 'warning', summary: 'Tip-only keys on a reference without `when`.' },
  tip_too_long: { severity: 'warning', summary: 'A tip body longer than its `max_chars`.' },
  unused_rule_or_tip: { severity: 'information', summary: 'A rule or tip that applies at no node of the flow.' },
  spec_unknown_id: { severity: 'warning', summary: 'spec.md lists a stage or rule id that does not exist.' },
  spec_unlisted_id: { severity: 'information', summary: 'A stage or rule id that spec.md does not list.' },
  // The reference validator's verdict (`strict`)
  restricted_yaml: {
    severity: 'error',
    summary: 'YAML the reference validator does not read: a flow collection, an anchor or alias, or a tag.',
  },
  // Configuration and suppressions
  invalid_config: {
    severity: 'error',
    summary: 'A mistake in a Skillgraph configuration file; the part it is in is ignored.',
  },
  unused_suppression: {
    severity: 'warning',
    summary: 'A skillgraph-disable comment that suppresses no finding.',
  },
  // The library (skillgraph library): what skills are to each other and to a client together
  unknown_skill_mention: {
    severity: 'warning',
    summary:
      'A skill names another (`Skill(x)`, `/x`, `$x`) that no skill of the library is called, a letter or two off one.',
  },
  shadowed_skill: {
    severity: 'warning',
    summary: 'Two skills of the library share a name: a client loads one of them, or lists both alike.',
  },
  similar_descriptions: {
    severity: 'warning',
    summary: 'Two descriptions share most of their distinctive words: an agent cannot tell the skills apart.',
  },
  skill_list_over_budget: {
    severity: 'warning',
    summary: "The library's names and descriptions are longer than a client lists at start.",
  },
  skill_call_cycle: { severity: 'warning', summary: 'Skills invoke each other in a ring.' },
  // Compiling (skillgraph compile): findings about a result before it is written
  compile_todo: {
    severity: 'warning',
    summary: 'Something a compiled skill needs that the source does not say: marked TODO in the result.',
  },
  compile_unsupported: {
    severity: 'error',
    summary: 'Something in the source that the target form cannot express, so the compile would lose it.',
  },
} satisfies Record<string, RuleInfo>;

export type RuleCode = keyof typeof RULES;

export function isRuleCode(code: string): code is RuleCode {
  return Object.prototype.hasOwnProperty.call(RULES, code);
}
