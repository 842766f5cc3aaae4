import { ControlOrder } from '../../model/controlFlow';
import type { GraphEdge, Port, SkillModel } from '../../model/skillModel';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { closestName } from '../match/nameDistance';
import { isVocabularyType, suggestType, typesCompatible } from './types';
import { appendTo } from '../../listMap';
import { defineRule } from '../engine/rule';
import { suggestionFix } from '../engine/suggestionFix';

export const externalInput = defineRule({
  code: 'external_input',
  category: 'graph',
  severity: 'information',
  summary: 'An input no step produces: it comes from the user or the environment.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
  fixable: 'unsafe',
});

export const inputNameTypo = defineRule({
  code: 'input_name_typo',
  category: 'graph',
  severity: 'warning',
  summary: 'An input is named almost like an upstream output.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const producerNotAncestor = defineRule({
  code: 'producer_not_ancestor',
  category: 'graph',
  severity: 'warning',
  summary: 'An input is produced by a step that does not run before its consumer.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const typeMismatch = defineRule({
  code: 'type_mismatch',
  category: 'graph',
  severity: 'warning',
  summary: 'An input is declared with a different type than its producer gives.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const nullableMismatch = defineRule({
  code: 'nullable_mismatch',
  category: 'graph',
  severity: 'warning',
  summary: 'A nullable output feeds a non-nullable input.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const unknownType = defineRule({
  code: 'unknown_type',
  category: 'graph',
  severity: 'warning',
  summary: 'A type outside the AIP vocabulary.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export interface DataFlow {
  edges: GraphEdge[];
  /** Which step runs before which, reused by later checks. */
  order: ControlOrder;
  /** Inputs with no producer anywhere in the graph. */
  unresolved: Port[];
  diagnostics: Diagnostic[];
}

/**
 * Connects each input to the output that feeds it (bare name equality, the
 * AIP rule), preferring the nearest producer that runs before the consumer.
 * Reports producers that do not run first, type and nullability mismatches.
 */
export function resolveDataFlow(model: SkillModel): DataFlow {
  const order = new ControlOrder(model.nodes, model.edges);
  const producers = new Map<string, Port[]>();
  for (const node of model.nodes) for (const port of node.outputs) appendTo(producers, port.name, port);

  const edges: GraphEdge[] = [];
  const unresolved: Port[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const node of model.nodes) {
    for (const input of node.inputs) {
      const candidates = (producers.get(input.name) ?? []).filter((port) => port.nodeId !== node.id);
      if (candidates.length === 0) {
        unresolved.push(input);
        continue;
      }
      const ancestral = candidates.filter((port) => order.isAncestor(port.nodeId, node.id));
      const producer = ancestral[ancestral.length - 1] ?? candidates[0];
      edges.push({
        from: producer.nodeId,
        to: node.id,
        kind: 'data',
        label: input.name,
        span: input.nameSpan,
        consumer: input,
        producer,
      });
      if (ancestral.length === 0) {
        diagnostics.push(
          diagnostic(
            producerNotAncestor,
            model.file,
            input.nameSpan,
            `Input "${input.name}" is produced by step "${producer.nodeId}", which does not run before "${node.id}"; add "${producer.nodeId}" to \`depends_on\` or reorder the steps.`,
            {
              producer: producer.nodeId,
            },
          ),
        );
      }
      diagnostics.push(...typeFlow(model.file, producer, input));
    }
  }
  return { edges, order, unresolved, diagnostics };
}

function typeFlow(file: string, producer: Port, consumer: Port): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (
    producer.type &&
    consumer.type &&
    isVocabularyType(producer.type) &&
    isVocabularyType(consumer.type) &&
    !typesCompatible(producer.type, consumer.type)
  ) {
    diagnostics.push(
      diagnostic(
        typeMismatch,
        file,
        consumer.typeSpan ?? consumer.nameSpan,
        `Input "${consumer.name}" is declared as ${consumer.type}, but step "${producer.nodeId}" produces it as ${producer.type}.`,
        {
          expected: producer.type,
        },
      ),
    );
  }
  if (producer.nullable && !consumer.nullable) {
    diagnostics.push(
      diagnostic(
        nullableMismatch,
        file,
        consumer.nameSpan,
        `Step "${producer.nodeId}" may produce no "${consumer.name}" (nullable), but this input is not nullable: handle the missing value and mark it \`nullable: true\`.`,
      ),
    );
  }
  return diagnostics;
}

/**
 * Explains inputs that nothing produces: a likely typo of an output that
 * runs before the consumer (warning), or an external input (information).
 */
export function explainUnresolved(model: SkillModel, order: ControlOrder, unresolved: Port[]): Diagnostic[] {
  const byId = new Map(model.nodes.map((node) => [node.id, node]));
  return unresolved.map((input) => {
    const upstreamOutputs = [...order.ancestorsOf(input.nodeId)]
      .flatMap((id) => byId.get(id)?.outputs ?? [])
      .map((port) => port.name);
    const suggestion = closestName(input.name, upstreamOutputs);
    if (suggestion) {
      return diagnostic(
        inputNameTypo,
        model.file,
        input.nameSpan,
        `No step produces "${input.name}"; did you mean "${suggestion}", produced upstream?`,
        { suggestion },
      );
    }
    return diagnostic(
      externalInput,
      model.file,
      input.nameSpan,
      `"${input.name}" is an external input: no step produces it, so the user or the environment must supply it.`,
    );
  });
}

/** Types outside the AIP vocabulary, with the word most likely meant. */
export function checkTypes(model: SkillModel): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const node of model.nodes) {
    for (const port of [...node.inputs, ...node.outputs]) {
      if (port.type === undefined || isVocabularyType(port.type)) continue;
      const suggestion = suggestType(port.type);
      const hint = suggestion ? ` Did you mean \`${suggestion}\`?` : '';
      diagnostics.push(
        diagnostic(
          unknownType,
          model.file,
          port.typeSpan ?? port.nameSpan,
          `\`${port.type}\` is not in the AIP type vocabulary (string, integer, float, boolean, object, list[*], list[<type>]).${hint}`,
          suggestion ? { suggestion } : undefined,
        ),
      );
    }
  }
  return diagnostics;
}
