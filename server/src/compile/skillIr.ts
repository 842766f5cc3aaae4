import * as path from 'node:path';
import type { SkillAnalysis } from '../analyze';
import type { Severity } from '../checks/diagnostic';
import { type FlowNode, type FlowText, nodesById, stateDefaults, type SkillPlusPackage } from '../formats/skillplus';
import type { FormatId } from '../model/skillModel';
import type { LspRange } from '../parse/lineIndex';
import { SkillLines } from '../parse/skillLines';
import { edgeCore, toGraphJson, type GraphJsonPort } from './graphJson';

/**
 * A place in a file of the skill: the path relative to the skill folder, 1-based line and column (as `check` prints
 * them).
 */
export interface IrLoc {
  file: string;
  line: number;
  col: number;
}

export interface IrDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  loc: IrLoc & { endLine: number; endCol: number };
}

export interface IrPort {
  name: string;
  type?: string;
  nullable: boolean;
}

/** The format-neutral IR of an AIP, MetaSkill or plain skill (schemas/skill-ir.schema.json). */
export interface GraphIr {
  ir: 1;
  format: Exclude<FormatId, 'skillplus'>;
  /** The content hash of the skill revision compiled, as `skillgraph hash` prints it (set when compiled). */
  hash?: string;
  skill: { name?: string; description?: string };
  nodes: {
    id: string;
    kind: string;
    label: string;
    description?: string;
    script?: string;
    inputs: IrPort[];
    outputs: IrPort[];
    oneOf?: string[];
    parallel?: boolean;
    skill?: string;
    routes?: { when?: string; to: string }[];
    when?: string;
    loc: IrLoc;
  }[];
  edges: {
    from: string;
    to: string;
    kind: string;
    label?: string;
    type?: string;
    fromPort?: string;
    toPort?: string;
  }[];
  /** Values no step produces: supplied by the user or the runtime, into the node that reads them. */
  inputs: { name: string; type?: string; to: string; feeds?: string }[];
  diagnostics: IrDiagnostic[];
}

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

export type SkillIr = GraphIr | FlowIr;

function locOf(analysis: SkillAnalysis, file: string, range: LspRange): IrLoc {
  return {
    file: path.relative(analysis.dir, file).split(path.sep).join('/'),
    line: range.start.line + 1,
    col: range.start.character + 1,
  };
}

function irDiagnostics(analysis: SkillAnalysis, lines: SkillLines): IrDiagnostic[] {
  return analysis.diagnostics.map((item) => {
    const range = lines.of(item.file).rangeOf(item.span);
    return {
      code: item.code,
      severity: item.severity,
      message: item.message,
      loc: { ...locOf(analysis, item.file, range), endLine: range.end.line + 1, endCol: range.end.character + 1 },
    };
  });
}

const port = (item: GraphJsonPort): IrPort => ({
  name: item.name,
  ...(item.type !== undefined ? { type: item.type } : {}),
  nullable: item.nullable,
});

/**
 * The skill as a graph IR, for every format. A skill with errors still
 * compiles: its diagnostics are part of the IR. A skill+ package gives the
 * flow IR of its format note.
 */
export function toSkillIr(analysis: SkillAnalysis): SkillIr {
  const lines = new SkillLines(analysis);
  if (analysis.format === 'skillplus' && analysis.skillplus) return flowIr(analysis, analysis.skillplus, lines);
  const graph = toGraphJson(analysis);
  const description = (analysis.frontmatter?.value as Record<string, unknown> | undefined)?.description;
  const external = new Set(graph.nodes.filter((node) => node.kind === 'external-input').map((node) => node.id));
  return {
    ir: 1,
    format: analysis.format as GraphIr['format'],
    skill: {
      ...(analysis.name !== undefined ? { name: analysis.name } : {}),
      ...(typeof description === 'string' ? { description } : {}),
    },
    nodes: graph.nodes
      .filter((node) => !external.has(node.id))
      .map((node) => ({
        id: node.id,
        kind: node.kind,
        label: node.label,
        ...(node.description !== undefined ? { description: node.description } : {}),
        ...(node.script !== undefined ? { script: node.script } : {}),
        inputs: node.inputs.map(port),
        outputs: node.outputs.map(port),
        ...(node.oneOf ? { oneOf: node.oneOf } : {}),
        ...(node.parallel ? { parallel: true } : {}),
        ...(node.skill !== undefined ? { skill: node.skill } : {}),
        ...(node.routes
          ? {
              routes: node.routes.map((route) => ({
                ...(route.when !== undefined ? { when: route.when } : {}),
                to: route.to,
              })),
            }
          : {}),
        ...(node.when !== undefined ? { when: node.when } : {}),
        loc: locOf(analysis, node.file, node.range),
      })),
    edges: graph.edges
      .filter((edge) => !external.has(edge.from))
      .map((edge) => ({
        ...edgeCore(edge),
        ...(edge.fromPort !== undefined ? { fromPort: edge.fromPort } : {}),
        ...(edge.toPort !== undefined ? { toPort: edge.toPort } : {}),
      })),
    inputs: graph.edges
      .filter((edge) => external.has(edge.from))
      .map((edge) => {
        const name = edge.fromPort ?? edge.label ?? edge.from;
        return {
          name,
          ...(edge.type !== undefined ? { type: edge.type } : {}),
          to: edge.to,
          ...(edge.label !== undefined && edge.label !== name ? { feeds: edge.label } : {}),
        };
      }),
    diagnostics: irDiagnostics(analysis, lines),
  };
}

const texts = (items: FlowText[]): string | string[] =>
  items.length === 1 ? items[0].value : items.map((item) => item.value);

/** A flow node as the IR writes it: its kind's arguments by their flow.py names. */
function flowNode(analysis: SkillAnalysis, lines: SkillLines, node: FlowNode): Record<string, unknown> {
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

function flowIr(analysis: SkillAnalysis, pkg: SkillPlusPackage, lines: SkillLines): FlowIr {
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
