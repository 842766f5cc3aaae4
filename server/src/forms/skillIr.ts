import * as path from 'node:path';
import type { AnalysisBase } from '../analysis/skillAnalysis';
import type { Severity } from '../checks/engine/diagnostic';
import type { FormatId } from '../model/skillModel';
import { SkillLines } from '../parse/text/skillLines';
import { edgeCore, toGraphJson } from './graphJson';
import type { GraphJsonPort, LspRange } from '../protocol';

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

export function locOf(analysis: AnalysisBase, file: string, range: LspRange): IrLoc {
  return {
    file: path.relative(analysis.dir, file).split(path.sep).join('/'),
    line: range.start.line + 1,
    col: range.start.character + 1,
  };
}

export function irDiagnostics(analysis: AnalysisBase, lines: SkillLines): IrDiagnostic[] {
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
export function toGraphIr(analysis: AnalysisBase): GraphIr {
  const lines = new SkillLines(analysis);
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
