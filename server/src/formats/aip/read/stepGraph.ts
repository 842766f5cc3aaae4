import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { reachableFrom, reverse, successors } from '../../../model/controlFlow';
import type { GraphEdge, GraphNode } from '../../../model/skillModel';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { mapEntries, nodeSpan, scalarString, seqItems, valueOf } from '../../../parse/yaml/yamlNodes';
import { defineRule } from '../../../checks/engine/rule';

export const invalidStartStep = defineRule({
  code: 'invalid_start_step',
  category: 'aip-graph',
  severity: 'error',
  summary: 'The first step cannot start the procedure.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const missingEndStep = defineRule({
  code: 'missing_end_step',
  category: 'aip-graph',
  severity: 'error',
  summary: 'No `end` step.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const multipleEndSteps = defineRule({
  code: 'multiple_end_steps',
  category: 'aip-graph',
  severity: 'error',
  summary: 'More than one `end` step.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const unreachableStep = defineRule({
  code: 'unreachable_step',
  category: 'aip-graph',
  severity: 'error',
  summary: 'A step no path from the start reaches.',
  stability: 'stable',
  formats: ['aip-0.5'],
  unnecessary: true,
});

export const noPathToEnd = defineRule({
  code: 'no_path_to_end',
  category: 'aip-graph',
  severity: 'error',
  summary: 'A step from which the end cannot be reached.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const unknownBranchValue = defineRule({
  code: 'unknown_branch_value',
  category: 'aip-graph',
  severity: 'error',
  summary: 'A router branch value its question can never produce.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const unknownThresholdQuestion = defineRule({
  code: 'unknown_threshold_question',
  category: 'aip-graph',
  severity: 'error',
  summary: 'A threshold names a question the step does not ask.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

/**
 * The AIP 0.5 graph rules of the upstream validator: one start (the first
 * step), one `end`, every step reachable and able to reach the end, router
 * branches on values their question can give, thresholds on asked questions.
 */
export function checkStepGraph(
  file: string,
  yaml: YamlSyntax,
  nodes: GraphNode[],
  edges: readonly GraphEdge[],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (nodes.length === 0) return diagnostics;
  const start = nodes[0];
  if (start.kind === 'end' || start.kind === 'router') {
    diagnostics.push(
      diagnostic(
        invalidStartStep,
        file,
        start.nameSpan,
        `The first step starts the procedure, so it cannot be ${start.kind === 'end' ? 'an `end`' : 'a `router` (nothing has set the value it branches on yet)'}.`,
      ),
    );
  }
  const ends = nodes.filter((node) => node.kind === 'end');
  if (ends.length === 0) {
    diagnostics.push(
      diagnostic(
        missingEndStep,
        file,
        start.nameSpan,
        'The procedure has no step of kind `end`; add one declaring the final state.',
      ),
    );
  }
  for (const extra of ends.slice(1)) {
    diagnostics.push(
      diagnostic(
        multipleEndSteps,
        file,
        extra.nameSpan,
        `Step "${extra.id}" is a second \`end\`; a procedure has exactly one (already "${ends[0].id}").`,
      ),
    );
  }

  const next = successors(nodes, edges);
  const reached = reachableFrom([start.id], next);
  const canEnd = reachableFrom(
    ends.map((node) => node.id),
    reverse(next),
  );
  for (const node of nodes) {
    if (!reached.has(node.id)) {
      diagnostics.push(
        diagnostic(
          unreachableStep,
          file,
          node.nameSpan,
          `No path from the start step "${start.id}" reaches "${node.id}"; point an \`inputs_to\` or a branch at it, or remove it.`,
        ),
      );
    } else if (ends.length > 0 && !canEnd.has(node.id)) {
      diagnostics.push(
        diagnostic(
          noPathToEnd,
          file,
          node.nameSpan,
          `From "${node.id}" the procedure can never reach its end "${ends[0].id}"; give it an \`inputs_to\`.`,
        ),
      );
    }
  }
  diagnostics.push(...checkBranchValues(file, yaml, nodes), ...checkThresholds(file, yaml, nodes));
  return diagnostics;
}

/** The labels a decision question can collapse to, by question name. */
function answerValues(yaml: YamlSyntax, nodes: GraphNode[]): Map<string, Set<string>> {
  const values = new Map<string, Set<string>>();
  const items = seqItems(valueOf(yaml.doc.contents, 'steps'));
  nodes.forEach((node, index) => {
    if (node.kind !== 'decision') return;
    for (const question of mapEntries(valueOf(items[index], 'questions'))) {
      const type = scalarString(valueOf(question.value, 'type'));
      if (type === 'noul') values.set(question.key, new Set(['true', 'false']));
      if (type === 'choice')
        values.set(question.key, new Set(mapEntries(valueOf(question.value, 'criteria')).map((entry) => entry.key)));
    }
  });
  return values;
}

function checkBranchValues(file: string, yaml: YamlSyntax, nodes: GraphNode[]): Diagnostic[] {
  const values = answerValues(yaml, nodes);
  const items = seqItems(valueOf(yaml.doc.contents, 'steps'));
  const diagnostics: Diagnostic[] = [];
  nodes.forEach((node, index) => {
    if (node.kind !== 'router') return;
    const on = scalarString(valueOf(items[index], 'branch_on'));
    const possible = on === undefined ? undefined : values.get(on);
    if (!possible) return; // a value a script writes: its range is not declared anywhere
    for (const branch of mapEntries(valueOf(items[index], 'branches'))) {
      if (possible.has(branch.key)) continue;
      diagnostics.push(
        diagnostic(
          unknownBranchValue,
          file,
          nodeSpan(yaml, branch.keyNode)!,
          `Branch "${branch.key}" can never be taken: question "${on}" answers only ${[...possible].map((value) => `"${value}"`).join(', ')}.`,
        ),
      );
    }
  });
  return diagnostics;
}

function checkThresholds(file: string, yaml: YamlSyntax, nodes: GraphNode[]): Diagnostic[] {
  const items = seqItems(valueOf(yaml.doc.contents, 'steps'));
  const diagnostics: Diagnostic[] = [];
  nodes.forEach((node, index) => {
    const asked = new Set(node.outputs.map((port) => port.name));
    for (const threshold of mapEntries(valueOf(items[index], 'thresholds'))) {
      if (asked.has(threshold.key)) continue;
      diagnostics.push(
        diagnostic(
          unknownThresholdQuestion,
          file,
          nodeSpan(yaml, threshold.keyNode)!,
          `Threshold "${threshold.key}" names no question of step "${node.id}".`,
        ),
      );
    }
  });
  return diagnostics;
}
