import type { AnalysisBase } from '../analysis/skillAnalysis';
import type { Span } from '../parse/text/lineIndex';
import { SkillLines } from '../parse/text/skillLines';
import type { GraphNode, Port } from '../model/skillModel';
import { graphProblems } from './graphProblems';
import { appendTo } from '../listMap';
import { remoteCode, riskyCommand } from '../checks/security/riskyExecution';
import type { GraphJson, GraphJsonEdge, GraphJsonNode, GraphJsonPort, LspRange } from '../protocol';

/** A graph with nothing in it, of `like`'s skill: the side of a change where the skill does not exist. */
export function emptyGraph(like: GraphJson): GraphJson {
  return { version: 1, skill: like.skill, nodes: [], edges: [], problems: [] };
}

/** What an edge is, without where it is written: its ends, kind, and the value it carries with its type. */
export function edgeCore(
  edge: Pick<GraphJsonEdge, 'from' | 'to' | 'kind' | 'label' | 'type'>,
): Pick<GraphJsonEdge, 'from' | 'to' | 'kind' | 'label' | 'type'> {
  return {
    from: edge.from,
    to: edge.to,
    kind: edge.kind,
    ...(edge.label !== undefined ? { label: edge.label } : {}),
    ...(edge.type !== undefined ? { type: edge.type } : {}),
  };
}

/** The id of the source node standing for an external input. */
export function externalNodeId(name: string): string {
  return `input:${name}`;
}

/** What a MetaSkill step composes: its skill, route cases and guard. */
function composition(node: GraphNode, display: (file: string) => string): Partial<GraphJsonNode> {
  const skill = node.skillRefs?.find((ref) => ref.via === 'skill');
  const routes = node.skillRefs?.filter((ref) => ref.via === 'route') ?? [];
  return {
    ...(skill ? { skill: skill.name, ...(skill.file ? { skillFile: display(skill.file) } : {}) } : {}),
    ...(routes.length > 0
      ? {
          routes: routes.map((route) => ({
            ...(route.when !== undefined ? { when: route.when } : {}),
            to: route.name,
            ...(route.file ? { skillFile: display(route.file) } : {}),
          })),
        }
      : {}),
    ...(node.guard ? { when: node.guard.text } : {}),
  };
}

/** Converts a model to its JSON form, with 0-based LSP ranges. `display` maps absolute paths to the paths to print. */
export function toGraphJson(analysis: AnalysisBase, display: (file: string) => string = (file) => file): GraphJson {
  const lines = new SkillLines(analysis);
  const file = display(analysis.file);
  // Nearly every span is in SKILL.md: its path is made once, not once per step (a relative path costs a path walk).
  const fileOf = (span: Span) => (span.file === undefined || span.file === analysis.file ? file : display(span.file));
  // A risky script is reported where its step names it (checks/security): the step carries what the script does. The
  // findings and the test cases are grouped once, not filtered for every step (a 1,000-step procedure with as many
  // findings made a million comparisons).
  const risks = new Map<number, string[]>();
  for (const item of analysis.diagnostics)
    if ((item.code === remoteCode.code || item.code === riskyCommand.code) && item.file === analysis.file)
      appendTo(risks, item.span.start, String(item.data?.risk ?? item.code));
  const risksOf = (node: GraphNode) => (node.script && risks.get(node.script.span.start)) || [];
  const evals = new Map<string, { id: string; file: string; range: LspRange }[]>();
  for (const link of analysis.evalLinks ?? [])
    appendTo(evals, link.step, { id: link.id, file: fileOf(link.span), range: lines.rangeOf(link.span) });
  // The objects below are built field by field in the order the JSON lists them, an optional field only when present:
  // a temporary object spread for every absent field was about a fifth of converting a 1,000-step graph.
  const port = (item: Port): GraphJsonPort => {
    const json = { name: item.name } as GraphJsonPort;
    if (item.type !== undefined) json.type = item.type;
    json.nullable = item.nullable;
    if (item.description !== undefined) json.description = item.description;
    json.range = lines.rangeOf(item.nameSpan);
    return json;
  };
  const model = analysis.model;
  // Node ids must be unique in the drawing; a duplicated step name (itself a diagnostic) gets a suffix.
  const seen = new Map<string, number>();
  const uniqueId = (id: string) => {
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    return count === 1 ? id : `${id}#${count}`;
  };
  const ids = new Map(model.nodes.map((node) => [node, uniqueId(node.id)]));
  const nodes: GraphJsonNode[] = model.nodes.map((node) => {
    const json = {
      id: ids.get(node)!,
      kind: node.kind,
      label: node.label,
      file: fileOf(node.nameSpan),
      range: lines.rangeOf(node.nameSpan),
      extent: lines.rangeOf({
        start: Math.min(node.span.start, node.nameSpan.start),
        end: Math.max(node.span.end, node.nameSpan.end),
        ...(node.span.file ? { file: node.span.file } : {}),
      }),
    } as GraphJsonNode;
    if (node.script) json.script = node.script.path;
    json.inputs = node.inputs.map(port);
    json.outputs = node.outputs.map(port);
    if (node.oneOf && node.oneOf.length > 0) json.oneOf = node.oneOf;
    if (node.parallel) json.parallel = true;
    if (node.description) json.description = node.description.text.trim();
    if (node.skillRefs || node.guard) Object.assign(json, composition(node, display));
    if (node.group !== undefined) json.group = node.group;
    if (node.attachments && node.attachments.length > 0)
      json.attachments = node.attachments.map((item) => ({ ...item, file: display(item.file) }));
    const stepEvals = evals.get(node.id);
    if (stepEvals) json.evals = stepEvals;
    const stepRisks = risksOf(node);
    if (stepRisks.length > 0) json.risks = stepRisks;
    return json;
  });
  const known = new Set(nodes.map((node) => node.id));
  // A reference to no step still gets drawn: to or from a `missing` node, as a dangling edge.
  for (const edge of model.edges) {
    for (const end of [edge.from, edge.to]) {
      if (known.has(end) || !edge.span) continue;
      known.add(end);
      const range = lines.rangeOf(edge.span);
      nodes.push({
        id: end,
        kind: 'missing',
        label: end,
        file: fileOf(edge.span),
        range,
        extent: range,
        inputs: [],
        outputs: [],
      });
    }
  }
  const missing = new Set(nodes.filter((node) => node.kind === 'missing').map((node) => node.id));
  const edges: GraphJsonEdge[] = model.edges
    .filter((edge) => known.has(edge.from) && known.has(edge.to))
    .map((edge) => {
      const json: GraphJsonEdge = { from: edge.from, to: edge.to, kind: edge.kind };
      if (edge.label !== undefined) json.label = edge.label;
      const type = edge.producer?.type ?? edge.consumer?.type;
      if (type) json.type = type;
      if (edge.span) {
        json.range = lines.rangeOf(edge.span);
        if (edge.span.file && edge.span.file !== analysis.file) json.file = fileOf(edge.span);
      }
      if (missing.has(edge.from) || missing.has(edge.to)) json.dangling = true;
      if (edge.kind === 'data' && edge.producer && edge.producer.name !== edge.label)
        json.fromPort = edge.producer.name;
      if (edge.kind === 'data' && edge.consumer && edge.consumer.name !== edge.label) json.toPort = edge.consumer.name;
      return json;
    });
  const externalNames = new Set<string>();
  for (const input of model.externalInputs) {
    const id = externalNodeId(input.name);
    if (!externalNames.has(input.name)) {
      externalNames.add(input.name);
      const range = lines.rangeOf(input.nameSpan);
      nodes.push({
        id,
        kind: 'external-input',
        label: input.name,
        file: fileOf(input.nameSpan),
        range,
        extent: range,
        inputs: [],
        outputs: [port(input)],
      });
    }
    // A MetaSkill input is labelled with the argument it feeds, as its bindings are.
    const label = input.feeds ?? input.name;
    edges.push({
      from: id,
      to: input.nodeId,
      kind: 'data',
      label,
      ...(input.type ? { type: input.type } : {}),
      range: lines.rangeOf(input.nameSpan),
      ...(input.nameSpan.file && input.nameSpan.file !== analysis.file ? { file: fileOf(input.nameSpan) } : {}),
      ...(label !== input.name ? { fromPort: input.name } : {}),
    });
  }
  return {
    version: 1,
    skill: {
      ...(model.name !== undefined ? { name: model.name } : {}),
      format: model.format,
      dir: display(analysis.dir),
      file,
    },
    nodes,
    edges,
    ...(model.groups && model.groups.length > 0
      ? {
          groups: model.groups.map((group) => ({
            id: group.id,
            label: group.label,
            ...(group.description ? { description: group.description } : {}),
            file: fileOf(group.span),
            range: lines.rangeOf(group.span),
          })),
        }
      : {}),
    problems: graphProblems(analysis, lines, display, (node) => ids.get(node) ?? node.id),
  };
}
