import type { SyntaxNode } from '@lezer/common';
import { movablePartsIn, moveParts, type MovableParts } from '../../../model/spansIn';
import type { ReusedReadings } from '../../../parse/parseCache';
import type { Flow, FlowNode, FlowNodeKind, FlowStage } from './flow';
import { readCall, type CallReading } from './readFlowCall';

// The statements of flow.py a reading keeps for the next one (a plain call, a whole stage), and how the next reading
// takes back those whose text is unchanged, moved, instead of reading them again.

/**
 * What a reading of flow.py keeps of a statement of its text for the next one:
 * a node written as a plain call, or a whole stage (a `with flow.stage`
 * block) with the nodes it holds, its movable parts found when it first
 * moves.
 */
export type FlowStatement =
  | { kind: 'node'; node: FlowNode; parts: MovableParts }
  | { kind: 'stage'; stage: FlowStage; nodes: FlowNode[]; parts?: MovableParts };

/** A reading of flow.py under way: the flow it makes, and what the last reading kept. */
export interface FlowReading extends CallReading {
  flow: Flow;
  /**
   * The nodes this reading placed: a reused stage shares its nodes with the calls it holds, and a node is placed once.
   */
  placed: Set<FlowNode>;
  /** Dynamic parts met, reported or not (only the first is). */
  dynamicParts: number;
  reused: ReusedReadings<FlowStatement> | undefined;
}

/**
 * A node written as a plain call (`flow.agent(…)`, not a `with` block).
 * With the statements the last reading of this file kept, a call whose text
 * it read without a problem is not read again: its node is the
 * same object, moved where the call now is. An edit in one node of
 * flow.py then reads that node, not all of them. Like the YAML chunks of
 * a procedure, a reused node is moved in place: the flow of the last
 * reading is current only until the next one.
 */
export function readPlainCall(reading: FlowReading, call: SyntaxNode, kind: FlowNodeKind): FlowNode {
  const { py, flow, placed, reused } = reading;
  if (!reused) return readCall(reading, call, kind);
  // The text names the kind (`flow.agent(`).
  const statementText = py.text.slice(call.from, call.to);
  const known = reused.take(statementText, (value) => value.kind === 'node' && !placed.has(value.node));
  if (known?.value.kind === 'node') {
    moveParts(known.value.parts, call.from - known.at);
    known.at = call.from;
    return known.value.node;
  }
  const problems = flow.problems.length;
  const parts = reading.dynamicParts;
  const node = readCall(reading, call, kind);
  // Problems are reported as the reading goes (a dynamic part once per file, whichever comes first): a call that had
  // one is read again each time.
  if (flow.problems.length === problems && reading.dynamicParts === parts)
    reused.keep(statementText, call.from, { kind: 'node', node, parts: movablePartsIn(node) });
  return node;
}

/**
 * A `with flow.stage(…)` block. With the statements the last reading kept, a
 * stage whose text is unchanged is not read again: the same stage and
 * nodes, moved. An edit inside one stage then walks that stage, not every
 * stage of the flow. Otherwise `read` reads it.
 */
export function readReusedStage(reading: FlowReading, statement: SyntaxNode, read: () => FlowStage): void {
  const { py, flow, placed, reused } = reading;
  // What a stage reads depends on its text alone (its nodes start a scope of their own), but for being nested: a
  // problem, and then it is not kept.
  const statementText = reused ? py.text.slice(statement.from, statement.to) : undefined;
  const known =
    statementText === undefined
      ? undefined
      : reused!.take(
          statementText,
          (value) => value.kind === 'stage' && value.nodes.every((node) => !placed.has(node)),
        );
  if (known?.value.kind === 'stage') {
    const delta = statement.from - known.at;
    if (delta !== 0)
      moveParts((known.value.parts ??= movablePartsIn({ stage: known.value.stage, nodes: known.value.nodes })), delta);
    known.at = statement.from;
    flow.stages.push(known.value.stage);
    for (const node of known.value.nodes) {
      flow.nodes.push(node);
      placed.add(node);
    }
    return;
  }
  const problems = flow.problems.length;
  const parts = reading.dynamicParts;
  const first = flow.nodes.length;
  const stage = read();
  // As with calls, a stage read with a problem (its own or a node's) is read again each time.
  if (statementText !== undefined && flow.problems.length === problems && reading.dynamicParts === parts)
    reused!.keep(statementText, statement.from, { kind: 'stage', stage, nodes: flow.nodes.slice(first) });
}
