import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { closestName } from '../../../checks/match/nameDistance';
import type { Span } from '../../../parse/text/lineIndex';
import { ALLOWED_FILTERS, RESERVED_OUTPUTS, RUNTIME_INPUTS, type MetaPlan } from './metaPlan';
import { ControlOrder } from '../../../model/controlFlow';
import { templateSpan, type MetaGraph } from './metaModel';
import { defineRule } from '../../../checks/engine/rule';
import { suggestionFix } from '../../../checks/engine/suggestionFix';
import { fixOf, textChange, type Fix } from '../../../checks/engine/fix';

export const unknownOutput = defineRule({
  code: 'unknown_output',
  category: 'metaskill',
  severity: 'error',
  summary: '`outputs.X` names no step.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const bindingOutOfScope = defineRule({
  code: 'binding_out_of_scope',
  category: 'metaskill',
  severity: 'warning',
  summary: '`outputs.X` reads a step that does not run before this one.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
});

export const unknownInput = defineRule({
  code: 'unknown_input',
  category: 'metaskill',
  severity: 'warning',
  summary: '`inputs.X` names nothing the runtime sets.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const unknownFilter = defineRule({
  code: 'unknown_filter',
  category: 'metaskill',
  severity: 'error',
  summary: "A Jinja filter outside the runtime's allowlist.",
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const filterArguments = defineRule({
  code: 'filter_arguments',
  category: 'metaskill',
  severity: 'error',
  summary: 'A Jinja filter called with more arguments than it takes.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
});

export const templateSyntax = defineRule({
  code: 'template_syntax',
  category: 'metaskill',
  severity: 'error',
  summary: 'A Jinja template or expression that does not parse.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
});

export const templateInExpression = defineRule({
  code: 'template_in_expression',
  category: 'metaskill',
  severity: 'error',
  summary: '`{{ }}` inside a Jinja expression (`when`, `skip_if`, `route[].when`).',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
});

export const rawUserMessage = defineRule({
  code: 'raw_user_message',
  category: 'metaskill',
  severity: 'error',
  summary: '`inputs.user_message` reaches a template without `| xml_escape` (lint G1.6).',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: escapeUserMessageFix,
});

export const invalidFinalTextMode = defineRule({
  code: 'invalid_final_text_mode',
  category: 'metaskill',
  severity: 'warning',
  summary: '`final_text_mode: step:X` names no step.',
  stability: 'stable',
  formats: ['metaskill', 'metaskill-sop'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

/**
 * Which outputs a step may read: those of its transitive `depends_on`
 * ancestors. A substitute declares no dependencies and starts when its
 * primary fails, so it sees what its primary sees. Built once per plan;
 * a question walks back from the reading step and stops at the producer
 * (ControlOrder), which is usually close, so 2,000 chained steps stay cheap.
 */
export class BindingScope {
  private readonly order: ControlOrder;
  private readonly primaries = new Map<string, string>();
  private readonly dependent = new Set<string>();

  constructor(graph: Pick<MetaGraph, 'nodes' | 'edges'>) {
    this.order = new ControlOrder(graph.nodes, graph.edges);
    for (const edge of graph.edges) {
      if (edge.kind === 'control') this.dependent.add(edge.to);
      else if (edge.kind === 'fallback' && edge.from !== edge.to && !this.primaries.has(edge.to))
        this.primaries.set(edge.to, edge.from);
    }
  }

  /** Where the walk starts: the step itself, or the primary of a substitute without dependencies. */
  private start(stepId: string): string {
    const primary = this.primaries.get(stepId);
    return primary && !this.dependent.has(stepId) ? primary : stepId;
  }

  /** Whether `producer` always finishes before `stepId` starts. */
  has(stepId: string, producer: string): boolean {
    return producer !== stepId && this.order.isAncestor(producer, this.start(stepId));
  }

  /** Every step whose output `stepId` may read. */
  of(stepId: string): Set<string> {
    const scope = this.order.ancestorsOf(this.start(stepId));
    scope.delete(stepId);
    return scope;
  }
}

/**
 * The checks OpenSquilla lacks, on every template and expression: syntax,
 * `{{ }}` inside an expression, `outputs.X` naming no step or a step that
 * does not run first, filters outside the allowlist and their arguments,
 * runtime inputs that do not exist, and `final_text_mode: step:X`.
 */
export function checkBindings(file: string, plan: MetaPlan, graph: MetaGraph): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const ids = plan.steps.filter((step) => step.hasId).map((step) => step.id);
  const known = new Set(ids);
  const userInputs = new Set(plan.steps.filter((step) => step.kind === 'user_input').map((step) => step.id));
  const scope = new BindingScope(graph);
  for (const step of plan.steps) {
    for (const template of step.templates) {
      const at = (from: number, to: number): Span => templateSpan(template, from, to);
      for (const problem of template.read.problems) {
        const where = template.expression ? 'expression' : 'template';
        diagnostics.push(
          diagnostic(
            problem.kind === 'syntax' ? templateSyntax : templateInExpression,
            file,
            at(problem.start, problem.end),
            `${problem.message} (in the ${where} of \`${template.argument}\` of step "${step.id}"; it fails when the step runs)`,
          ),
        );
      }
      for (const ref of template.read.refs) {
        const span = at(ref.nameStart, ref.nameEnd);
        if (ref.root === 'outputs') {
          if (RESERVED_OUTPUTS.has(ref.name)) continue;
          if (!known.has(ref.name)) {
            const suggestion = closestName(
              ref.name,
              ids.filter((id) => id !== step.id),
            );
            const found = diagnostic(
              unknownOutput,
              file,
              span,
              `\`outputs.${ref.name}\` names no step${suggestion ? `; did you mean "${suggestion}"?` : '.'} ${ref.access === 'get' ? 'It always renders its default.' : `It is undefined when step "${step.id}" runs, and rendering fails.`}`,
              suggestion ? { suggestion } : undefined,
            );
            // `outputs.get('x', default)` never fails: a likely typo, not a broken run.
            diagnostics.push(ref.access === 'get' ? { ...found, severity: 'warning' } : found);
          } else if (ref.name === step.id) {
            diagnostics.push(
              diagnostic(
                bindingOutOfScope,
                file,
                span,
                `Step "${step.id}" reads its own output, which does not exist while it runs.`,
              ),
            );
          } else if (!scope.has(step.id, ref.name)) {
            const substitute = plan.steps.some((candidate) => candidate.onFailure?.value === step.id);
            diagnostics.push(
              diagnostic(
                bindingOutOfScope,
                file,
                span,
                `Step "${ref.name}" is not among the steps "${step.id}" depends on${substitute ? ' (a substitute sees what its primary depends on)' : ''}: the two may run at the same time, and \`outputs.${ref.name}\` is then ${ref.access === 'get' ? 'missing (its default is used)' : 'undefined'}. Add "${ref.name}" to \`depends_on\`.`,
                substitute ? { producer: ref.name } : { producer: ref.name, consumer: step.id },
              ),
            );
          }
          continue;
        }
        if (
          ref.member &&
          ref.name === 'collected' &&
          !userInputs.has(ref.member.name) &&
          ref.member.name !== 'preflight'
        ) {
          const suggestion = closestName(ref.member.name, [...userInputs]);
          diagnostics.push(
            diagnostic(
              unknownInput,
              file,
              at(ref.member.start, ref.member.end),
              `\`inputs.collected.${ref.member.name}\`: no \`user_input\` step has the id "${ref.member.name}"${suggestion ? `; did you mean "${suggestion}"?` : '.'}`,
              suggestion ? { suggestion } : undefined,
            ),
          );
        } else if (
          !(ref.name in RUNTIME_INPUTS) &&
          !template.source.value.slice(ref.start, ref.end).includes('.get(')
        ) {
          const suggestion = closestName(ref.name, Object.keys(RUNTIME_INPUTS));
          diagnostics.push(
            diagnostic(
              unknownInput,
              file,
              span,
              `The runtime sets no \`inputs.${ref.name}\`${suggestion ? `; did you mean \`inputs.${suggestion}\`?` : ''}. Reading it fails when the step runs (use \`inputs.get('${ref.name}')\` for an optional value).`,
              suggestion ? { suggestion } : undefined,
            ),
          );
        }
      }
      for (const filter of template.read.filters) {
        const allowed = ALLOWED_FILTERS[filter.name];
        const span = at(filter.start, filter.end);
        if (!allowed) {
          const suggestion = closestName(filter.name, Object.keys(ALLOWED_FILTERS));
          diagnostics.push(
            diagnostic(
              unknownFilter,
              file,
              span,
              `OpenSquilla's templates have no filter \`${filter.name}\`${suggestion ? `; did you mean \`${suggestion}\`?` : ''}. Rendering fails when the step runs. Allowed: ${Object.keys(ALLOWED_FILTERS).join(', ')}.`,
              suggestion ? { suggestion } : undefined,
            ),
          );
        } else if (allowed.maxArgs !== undefined && filter.args > allowed.maxArgs) {
          diagnostics.push(
            diagnostic(
              filterArguments,
              file,
              span,
              `\`${filter.name}\` takes ${allowed.maxArgs === 0 ? 'no arguments' : `at most ${allowed.maxArgs} argument${allowed.maxArgs === 1 ? '' : 's'}`}, not ${filter.args}; rendering fails when the step runs. ${allowed.summary}`,
            ),
          );
        }
      }
    }
  }
  if (plan.finalTextStep && !known.has(plan.finalTextStep.value)) {
    const suggestion = closestName(plan.finalTextStep.value, ids);
    diagnostics.push(
      diagnostic(
        invalidFinalTextMode,
        file,
        plan.finalTextStep.span,
        `\`final_text_mode\` names step "${plan.finalTextStep.value}", which does not exist; OpenSquilla then silently answers with the last step's output.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
        suggestion ? { suggestion } : undefined,
      ),
    );
  }
  return diagnostics;
}

/** OpenSquilla's lint G1.6, as it scans: the whole file, only this literal form. */
const RAW_USER_MESSAGE = /\{\{\s*inputs\.user_message(?=[\s|}])(?!\s*\|\s*(xml_escape|slugify)\b)/g;

/** Raw user text reaching a prompt: `{{ inputs.user_message` not followed at once by `| xml_escape` or `| slugify`. */
export function checkRawUserMessage(file: string, text: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const match of text.matchAll(RAW_USER_MESSAGE)) {
    const start = match.index! + match[0].indexOf('inputs');
    const end = start + 'inputs.user_message'.length;
    diagnostics.push(
      diagnostic(
        rawUserMessage,
        file,
        { start, end },
        "Raw user text goes into a template here: OpenSquilla's lint (G1.6) requires `| xml_escape` (or `| slugify` in file names) right after `inputs.user_message`, so the message cannot pose as instructions.",
        {
          insertAt: end,
        },
      ),
    );
  }
  return diagnostics;
}

/** `| xml_escape` inserted after the unescaped `inputs.user_message`: unsafe, as the step may want the raw text. */
function escapeUserMessageFix(item: Diagnostic): Fix[] {
  const insertAt = item.data?.insertAt;
  return typeof insertAt === 'number'
    ? [
        fixOf(item, 'Escape it: insert "| xml_escape"', 'unsafe', [
          textChange(item.file, insertAt, insertAt, ' | xml_escape'),
        ]),
      ]
    : [];
}
