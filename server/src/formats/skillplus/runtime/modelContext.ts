import * as path from 'node:path';
import { evaluatePredicate, stateDefaults, type Position, type StateValue } from '../read/evaluate';
import { nodesById, walkFlow, type Flow, type FlowNode, type FlowText } from '../read/flow';
import { predicateInWords } from '../read/predicateWords';
import { type SkillPlusPackage } from '../read/readPackage';
import { SOFT_ON_FAIL, type Rule } from '../read/readTipsRules';
import { parsePredicate } from '../../../parse/predicate/predicate';
import { CHARS_PER_TOKEN } from '../../../analysis/modelContext';
import type { ContextLeftOut, ContextPart, ContextRequest, ModelContext } from '../../../protocol';

const length = (text: string) => [...text].length;
const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

function part(
  kind: ContextPart['kind'],
  title: string,
  text: string,
  extra: { id?: string; file?: string } = {},
): ContextPart {
  const chars = length(text);
  return { kind, title, ...extra, text, chars, tokens: tokens(chars) };
}

/** `{path}` filled from the State and the items in scope; what is not there stays as written. */
function fill(text: string, state: StateValue, items: Record<string, unknown>): string {
  return text.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, inner: string | undefined) => {
    if (inner === undefined) return match[0];
    const [first, ...rest] = inner.trim().split('.');
    let value: unknown = first in items ? items[first] : state[first];
    for (const segment of rest)
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
    if (value === undefined || value === null) return match;
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function ancestors(flow: Flow, node: FlowNode): FlowNode[] {
  const byId = nodesById(flow);
  const found: FlowNode[] = [];
  for (
    let parent = node.parent ? byId.get(node.parent) : undefined;
    parent && found.length < flow.nodes.length;
    parent = parent.parent ? byId.get(parent.parent) : undefined
  )
    found.push(parent);
  return found;
}

/**
 * The built-ins at a node: the last seam passed is the stage's entry for its first node, else the end of the node
 * before.
 */
function positionAt(
  flow: Flow,
  node: FlowNode,
  state: StateValue,
  request: Omit<ContextRequest, 'node' | 'state'>,
): { position: Position; items: Record<string, unknown> } {
  const around = ancestors(flow, node);
  const fanout = around.find((item) => item.kind === 'fanout');
  const list = fanout?.over
    ? fanout.over.value
        .split('.')
        .reduce<unknown>(
          (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
          state,
        )
    : undefined;
  const item = Array.isArray(list) ? (list[0] ?? null) : null;
  const first = flow.stages.find((stage) => stage.id === node.stage)?.nodes[0] === node.id;
  return {
    position: {
      stage: node.stage ?? null,
      node: node.id,
      round: around.some((parent) => parent.kind === 'loop') ? (request.round ?? 1) : null,
      event: request.event ?? (first ? 'stage_enter' : 'post_node'),
      tool: request.tool ?? null,
      item,
    },
    items: Object.fromEntries(
      around
        .filter((parent) => parent.kind === 'fanout' && parent.item)
        .map((parent) => [parent.item!.value, parent === fanout ? item : null]),
    ),
  };
}

/** Whether any of the texts holds (a YAML list of predicates means any); no texts: always. */
function holds(texts: FlowText[], state: StateValue, position: Position): boolean {
  if (texts.length === 0) return true;
  return texts.some((text) => {
    const read = parsePredicate(text.value);
    return !!read.predicate && read.problems.length === 0 && evaluatePredicate(read.predicate, state, position);
  });
}

export function inWords(texts: FlowText[]): string {
  return texts
    .map((text) => {
      const read = parsePredicate(text.value);
      return read.predicate ? predicateInWords(read.predicate) : text.value;
    })
    .join(' or ');
}

/**
 * The flow as the model reads it: one line per node, done / ← current / not yet; the current stage's goal and node
 * expanded.
 */
function flowMap(flow: Flow, current: FlowNode, state: StateValue, items: Record<string, unknown>): string {
  const index = flow.nodes.indexOf(current);
  const lines: string[] = [];
  const around = new Set(ancestors(flow, current));
  walkFlow(
    flow,
    (stage) => {
      const here = stage.id === current.stage;
      lines.push(`${stage.id}${here && stage.goal ? ` — ${stage.goal.value}` : ''}${here ? ' (current stage)' : ''}`);
    },
    (node, depth) => {
      const at = flow.nodes.indexOf(node);
      // A loop or fan-out holding the current node is under way, not done.
      const mark = node === current ? '← current' : around.has(node) ? 'in progress' : at < index ? 'done' : 'not yet';
      lines.push(`${'  '.repeat(depth)}- ${node.id} (${node.kind}${node.into ? ` → ${node.into.value}` : ''}) ${mark}`);
      if (node === current) {
        if (node.text) lines.push(`${'  '.repeat(depth + 1)}${fill(node.text.value, state, items)}`);
        const tools = node.tools.map((tool) => tool.value);
        if (tools.length > 0) lines.push(`${'  '.repeat(depth + 1)}Tools: ${tools.join(', ')}`);
      }
    },
  );
  return lines.join('\n');
}

export function ruleText(rule: Rule): string {
  const body = rule.body?.trim() ?? '';
  return rule.message && !body.startsWith(rule.message)
    ? `${rule.message}\n${body}`.trim()
    : body || rule.message || '';
}

/**
 * The runtime's per-turn context at one node for one State, as the format
 * note describes it: resident brief and map, then the tips whose `when`
 * holds (not injected before, by priority, within the tip budget), soft
 * rules whose `when` holds or that the node names, and hard `.md` rules as
 * strong instructions. Each part with its size, and what was left out and why.
 */
export function modelContext(
  pkg: SkillPlusPackage,
  brief: string,
  skillName: string,
  request: ContextRequest,
): ModelContext | { error: string } {
  const flow = pkg.flow;
  if (!flow) return { error: 'This package has no flow that could be read.' };
  const node = flow.nodes.find((item) => item.id === request.node);
  if (!node) return { error: `No node "${request.node}"; nodes: ${flow.nodes.map((item) => item.id).join(', ')}.` };
  const state: StateValue = { ...stateDefaults(pkg.state), ...(request.state ?? {}) };
  const { position, items } = positionAt(flow, node, state, request);
  const relative = (file: string) => path.relative(pkg.dir, file);
  const parts: ContextPart[] = [
    part('brief', 'Brief (SKILL.md)', brief.trim(), { file: 'SKILL.md' }),
    part('map', 'Flow map', flowMap(flow, node, state, items)),
  ];
  const leftOut: ContextLeftOut[] = [];

  // Tips: those that hold here and were not injected at an earlier node (once), by priority within the budget.
  const earlier = flow.nodes.slice(0, flow.nodes.indexOf(node));
  const holding = pkg.tips.filter((tip) => {
    if (!holds(tip.when, state, position)) {
      leftOut.push({
        kind: 'tip',
        id: tip.id,
        file: relative(tip.file),
        reason: `its when is false here (${inWords(tip.when)})`,
      });
      return false;
    }
    const before = tip.once
      ? earlier.find((other) => holds(tip.when, state, positionAt(flow, other, state, {}).position))
      : undefined;
    if (before)
      leftOut.push({
        kind: 'tip',
        id: tip.id,
        file: relative(tip.file),
        reason: `already injected at "${before.id}" (once)`,
      });
    return !before;
  });
  let tipChars = 0;
  for (const tip of [...holding].sort((a, b) => b.priority - a.priority)) {
    const text = tip.body.trim();
    if (tipChars + length(text) > pkg.tipBudget) {
      leftOut.push({
        kind: 'tip',
        id: tip.id,
        file: relative(tip.file),
        reason: `over the tip budget (${tipChars} of ${pkg.tipBudget} characters used, this one is ${length(text)})`,
      });
      continue;
    }
    tipChars += length(text);
    parts.push(part('tip', `Tip ${tip.id} (priority ${tip.priority})`, text, { id: tip.id, file: relative(tip.file) }));
  }

  const gates: ModelContext['gates'] = [];
  for (const rule of pkg.rules) {
    const soft = !!rule.onFail && SOFT_ON_FAIL.has(rule.onFail.value);
    const kind = soft ? 'soft-rule' : 'hard-rule';
    const named = node.rules.some((item) => item.value === rule.id);
    const applies = named || holds(rule.when, state, position);
    if (!soft && rule.source === 'py') {
      // A gate: checked by code at the tool seam, never text for the model.
      if (
        named ||
        rule.when.length === 0 ||
        pkg.attachments.some((item) => item.kind === 'rule' && item.id === rule.id && item.nodes.includes(node.id))
      )
        gates.push({ id: rule.id, file: relative(rule.file), onFail: rule.onFail?.value ?? '?' });
      continue;
    }
    if (!applies) {
      leftOut.push({
        kind,
        id: rule.id,
        file: relative(rule.file),
        reason: `its when is false here (${inWords(rule.when)})`,
      });
      continue;
    }
    const why = named ? 'named by rule= here' : rule.when.length === 0 ? 'global' : 'its when holds';
    parts.push(
      part(kind, `${soft ? 'Soft' : 'Hard'} rule ${rule.id} (${rule.onFail?.value ?? '?'}, ${why})`, ruleText(rule), {
        id: rule.id,
        file: relative(rule.file),
      }),
    );
  }
  const chars = parts.reduce((sum, item) => sum + item.chars, 0);
  return {
    skill: skillName,
    state,
    at: { node: node.id, stage: position.stage, event: position.event, round: position.round, tool: position.tool },
    parts,
    leftOut,
    gates,
    tipBudget: pkg.tipBudget,
    tipChars,
    chars,
    tokens: tokens(chars),
  };
}
