import { CompletionItemKind, type CompletionItem, type TextEdit } from 'vscode-languageserver-types';
import compositionSchema from '../../../../../schemas/metaskill.composition.schema.json';
import { BindingScope } from '../read/bindingRules';
import { ALLOWED_FILTERS, RUNTIME_INPUTS, STEP_KINDS } from '../read/metaPlan';
import { completionContextAt } from '../../../parse/jinja/jinjaCursor';
import type { SkillModel } from '../../../model/skillModel';
import type { CatalogSkill } from '../../../workspace/skillCatalog';
import type { YamlCursor } from '../../../parse/yaml/yamlCursor';
import { rangeOf, type DocumentView } from '../../../analysis/documentView';
import { addDependencyEdit } from '../fixes/compositionEdits';
import { dependencyCandidates, stepItems } from '../../../document/stepItems';

export interface MetaCompletionRequest {
  /** The document: a MetaSkill's, or its text while it does not parse as one (`model` is then the last that did). */
  view: DocumentView;
  offset: number;
  /** The current model, or the last one that loaded while the text does not parse. */
  model: SkillModel;
  /** The skills a step may run. */
  catalog: Map<string, CatalogSkill>;
}

/** Keys only one kind of step reads. */
const KIND_ONLY: Record<string, string> = {
  output_choices: 'llm_classify',
  tool: 'tool_call',
  tool_args: 'tool_call',
  tool_allowlist: 'tool_call',
  clarify: 'user_input',
  side_effect: 'skill_exec',
};
const STEP_PROPERTIES = compositionSchema.$defs.step.properties as Record<string, { description?: string }>;
/** Keys whose value is an expression, not a template. */
const EXPRESSION_KEY = /^\s*(?:-\s+)?(when|skip_if)\s*:/;

function replacing(request: MetaCompletionRequest, prefix: string, newText: string): TextEdit {
  return { range: rangeOf(request.view, { start: request.offset - prefix.length, end: request.offset }), newText };
}

/**
 * Completion in a MetaSkill's frontmatter: inside `{{ }}` and expressions
 * (steps in scope after `outputs.`, the runtime's inputs, `user_input`
 * answers, filters), composed skills after `skill:` and `to:`, the six
 * kinds, step ids in `depends_on` and `on_failure`, and the keys a step of
 * its kind reads. Undefined where it has nothing to say, so the generic
 * frontmatter completion can answer.
 */
export function metaCompletion(request: MetaCompletionRequest, cursor: YamlCursor): CompletionItem[] | undefined {
  const { view, offset, model } = request;
  const text = view.analysis.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(lineStart, offset);
  const expression = EXPRESSION_KEY.exec(line);
  const valueStart = expression ? line.indexOf(':') + 1 : 0;
  const template = completionContextAt(
    expression ? line.slice(valueStart).replace(/^\s*["']?/, '') : line,
    expression ? line.slice(valueStart).replace(/^\s*["']?/, '').length : line.length,
    !!expression,
  );
  const step = cursor.step?.name;
  if (template && (expression || /\{\{|\{%/.test(line))) return templateItems(request, template, step);
  if (cursor.position.kind === 'value') {
    const { key, prefix } = cursor.position;
    if (key === 'skill' || (key === 'to' && cursor.parents.includes('route'))) return skillItems(request, prefix);
    if (key === 'kind')
      return STEP_KINDS.map((kind) => ({
        label: kind,
        kind: CompletionItemKind.EnumMember,
        textEdit: replacing(request, prefix, kind),
      }));
    const steps = (names: string[]) => stepItems(model, names, (name) => replacing(request, prefix, name));
    if (key === 'depends_on') return steps(dependencyCandidates(model, step));
    if (key === 'on_failure') return steps(model.nodes.map((node) => node.id).filter((id) => id !== step));
    return undefined;
  }
  const last = cursor.parents[cursor.parents.length - 1];
  const owner = last === '-' ? cursor.parents[cursor.parents.length - 2] : last;
  if (owner !== 'steps' || cursor.parents[0] !== 'composition') return undefined;
  const kind = model.nodes.find((node) => node.id === step)?.kind ?? 'agent';
  return Object.keys(STEP_PROPERTIES)
    .filter((key) => !KIND_ONLY[key] || KIND_ONLY[key] === kind)
    .map((key) => ({
      label: key,
      kind: CompletionItemKind.Property,
      documentation: STEP_PROPERTIES[key].description,
      textEdit: replacing(request, cursor.position.prefix, `${key}: `),
    }));
}

function templateItems(
  request: MetaCompletionRequest,
  context: NonNullable<ReturnType<typeof completionContextAt>>,
  step: string | undefined,
): CompletionItem[] {
  const { model } = request;
  switch (context.kind) {
    case 'member':
      if (context.root === 'inputs') {
        return Object.entries(RUNTIME_INPUTS).map(([name, about]) => ({
          label: name,
          kind: CompletionItemKind.Variable,
          documentation: about,
          textEdit: replacing(request, context.prefix, name),
        }));
      }
      return outputItems(request, context.prefix, step);
    case 'collected': {
      const steps = model.nodes.filter((node) => node.kind === 'user_input');
      return steps.map((node) => ({
        label: node.id,
        kind: CompletionItemKind.Variable,
        detail: 'answers of this user_input step',
        textEdit: replacing(request, context.prefix, node.id),
      }));
    }
    case 'filter':
      return Object.entries(ALLOWED_FILTERS).map(([name, filter]) => ({
        label: name,
        kind: CompletionItemKind.Function,
        documentation: filter.summary,
        textEdit: replacing(request, context.prefix, name),
      }));
    case 'root':
      return ['outputs', 'inputs'].map((name) => ({
        label: name,
        kind: CompletionItemKind.Module,
        detail: name === 'outputs' ? 'texts of earlier steps' : 'what the runtime provides',
        textEdit: replacing(request, context.prefix, name),
      }));
  }
}

/** Steps after `outputs.`: those the step depends on first; others marked, picking one also adds it to `depends_on`. */
function outputItems(request: MetaCompletionRequest, prefix: string, step: string | undefined): CompletionItem[] {
  const { model, view } = request;
  const scope = step ? new BindingScope(model).of(step) : new Set<string>();
  return model.nodes
    .filter((node) => node.id !== step)
    .map((node): CompletionItem => {
      const inScope = scope.has(node.id);
      const change = !inScope && step ? addDependencyEdit(view.analysis, step, node.id) : undefined;
      const dependency = change && { range: rangeOf(view, change), newText: change.newText };
      return {
        label: node.id,
        kind: CompletionItemKind.Variable,
        detail: inScope
          ? `${node.kind} — runs before ${step}`
          : `${node.kind} — not in depends_on${dependency ? ' (adds it)' : ''}`,
        documentation: node.description?.text.trim(),
        sortText: `${inScope ? '0' : '1'}${node.id}`,
        textEdit: replacing(request, prefix, node.id),
        ...(dependency ? { additionalTextEdits: [dependency] } : {}),
      };
    });
}

function skillItems(request: MetaCompletionRequest, prefix: string): CompletionItem[] {
  return [...request.catalog.values()]
    .filter((skill) => skill.kind !== 'meta' && skill.kind !== 'meta_sop' && skill.file !== request.view.analysis.file)
    .map((skill) => ({
      label: skill.name,
      kind: CompletionItemKind.Module,
      detail: skill.entrypoint ? 'skill with an entrypoint (skill_exec)' : 'skill',
      documentation: skill.description,
      textEdit: replacing(request, prefix, skill.name),
    }));
}
