import * as path from 'node:path';
import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import { irDiagnostics, locOf, type IrDiagnostic } from '../../../forms/skillIr';
import { SkillLines } from '../../../parse/text/skillLines';
import { stateDefaults } from '../read/evaluate';
import { nodesById, type FlowNode, type FlowText } from '../read/flow';
import type { SkillplusAnalysis } from '../read/analysis';

/** The flow IR of the skill+ format note, with the package's diagnostics. */
export interface FlowIr {
  version: '0.1';
  skill: string;
  /** The content hash of the skill revision compiled, as `skillgraph hash` prints it (set when compiled). */
  hash?: string;
  state?: { file: string; class: string; fields: Record<string, { type: string; default?: unknown; input?: true }> };
  stages: { id: string; goal?: string; nodes: string[] }[];
  nodes: Record<string, unknown>[];
  edges: { from: string; to: string; kind: 'seq' | 'case' | 'loop' | 'fanout'; label?: string }[];
  tips: { id: string; file: string; when: string | string[]; once: boolean; priority: number; max_chars?: number }[];
  rules: { id: string; file: string; on_fail?: string; when?: string | string[] }[];
  diagnostics: IrDiagnostic[];
}

const texts = (items: FlowText[]): string | string[] =>
  items.length === 1 ? items[0].value : items.map((item) => item.value);

/** A flow node as the IR writes it: its kind's arguments by their flow.py names. */
function flowNode(analysis: AnalysisBase, lines: SkillLines, node: FlowNode): Record<string, unknown> {
  const value = (text: FlowText | undefined) => text?.value;
  const fields: Record<string, unknown> = {
    id: node.id,
    kind: node.kind,
    stage: node.stage,
    parent: node.parent,
    text: value(node.text),
    into: value(node.into),
    tools: node.tools.length > 0 ? node.tools.map((item) => item.value) : undefined,
    rules: node.rules.length > 0 ? node.rules.map((item) => item.value) : undefined,
    choices: node.choices.length > 0 ? node.choices.map((item) => item.value) : undefined,
    merge: value(node.merge),
    on: value(node.on),
    cases:
      node.kind === 'branch'
        ? node.cases.map((item) => ({
            ...(item.desc ? { desc: item.desc.value } : { values: item.values.map((entry) => entry.value) }),
            nodes: item.nodes,
          }))
        : undefined,
    otherwise: node.otherwise?.nodes,
    until: node.until.length > 0 ? texts(node.until) : undefined,
    goal: value(node.goal),
    max_rounds: node.maxRounds?.value,
    over: value(node.over),
    item: value(node.item),
    max_parallel: node.maxParallel?.value,
    body: node.body.length > 0 ? node.body : undefined,
    loc: locOf(analysis, node.idSpan.file ?? analysis.file, lines.rangeOf(node.idSpan)),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, item]) => item !== undefined));
}

/** A skill+ package as the flow IR of its format note, with the package's diagnostics. */
export function flowIr(analysis: SkillplusAnalysis): FlowIr {
  const pkg = analysis.skillplus;
  const lines = new SkillLines(analysis);
  const flow = pkg.flow;
  const byId = flow ? nodesById(flow) : new Map<string, FlowNode>();
  const relative = (file: string) => path.relative(analysis.dir, file).split(path.sep).join('/');
  const defaults = stateDefaults(pkg.state);
  const root = pkg.state?.root;
  // The model's control edges, named as the IR names them: into a loop or fan-out body and back are `loop`/`fanout`
  // edges.
  const edges: FlowIr['edges'] = analysis.model.edges
    .filter((edge) => edge.kind !== 'data')
    .map((edge) => {
      const from = byId.get(edge.from);
      const to = byId.get(edge.to);
      const intoBody = from && (from.kind === 'loop' || from.kind === 'fanout') && from.body[0] === edge.to;
      const backEdge = to && (to.kind === 'loop' || to.kind === 'fanout') && from?.parent === to.id;
      const kind =
        edge.kind === 'branch'
          ? 'case'
          : intoBody
            ? (from.kind as 'loop' | 'fanout')
            : backEdge
              ? (to.kind as 'loop' | 'fanout')
              : 'seq';
      return { from: edge.from, to: edge.to, kind, ...(edge.label !== undefined ? { label: edge.label } : {}) };
    });
  return {
    version: '0.1',
    skill: analysis.name ?? path.basename(analysis.dir),
    ...(pkg.state && root
      ? {
          state: {
            file: relative(pkg.state.file),
            class: root.name,
            fields: Object.fromEntries(
              root.fields.map((field) => [
                field.name,
                {
                  type: field.typeText,
                  ...(field.hasDefault ? { default: defaults[field.name] } : {}),
                  ...(field.input ? { input: true as const } : {}),
                },
              ]),
            ),
          },
        }
      : {}),
    stages: (flow?.stages ?? []).map((stage) => ({
      id: stage.id,
      ...(stage.goal ? { goal: stage.goal.value } : {}),
      nodes: stage.nodes,
    })),
    nodes: (flow?.nodes ?? []).map((node) => flowNode(analysis, lines, node)),
    edges,
    tips: pkg.tips.map((tip) => ({
      id: tip.id,
      file: relative(tip.file),
      when: texts(tip.when),
      once: tip.once,
      priority: tip.priority,
      ...(tip.maxChars !== undefined ? { max_chars: tip.maxChars } : {}),
    })),
    rules: pkg.rules.map((rule) => ({
      id: rule.id,
      file: relative(rule.file),
      ...(rule.onFail ? { on_fail: rule.onFail.value } : {}),
      ...(rule.when.length > 0 ? { when: texts(rule.when) } : {}),
    })),
    diagnostics: irDiagnostics(analysis, lines),
  };
}
