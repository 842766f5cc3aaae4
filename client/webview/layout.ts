import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import type { GraphJson, GraphJsonEdge, GraphJsonGroup, GraphJsonNode, GraphJsonPort } from '../../server/src/compile/graphJson';
import type { Direction } from './protocol';

export const ROW = 18;
export const HEADER = 40;
const CHAR = 7;
const PORT_SIZE = 6;
/** Graphs with more nodes than this get the cheaper layout options. */
const LARGE_GRAPH = 150;

export interface PlacedPort {
  id: string;
  name: string;
  direction: 'input' | 'output';
  x: number;
  y: number;
  port: GraphJsonPort;
}

export interface PlacedNode {
  node: GraphJsonNode;
  x: number;
  y: number;
  width: number;
  height: number;
  ports: PlacedPort[];
}

export interface PlacedEdge {
  id: string;
  edge: GraphJsonEdge;
  points: { x: number; y: number }[];
  label?: { text: string; x: number; y: number; width: number; height: number };
}

/** A cluster (a skill+ stage) around its nodes. */
export interface PlacedGroup {
  group: GraphJsonGroup;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  groups: PlacedGroup[];
  width: number;
  height: number;
  /** Identifies the structure laid out: the same signature can reuse the same positions. */
  signature: string;
}

const elk = new ELK();

/** Room above a cluster's nodes for its title. */
export const GROUP_HEADER = 30;
const GROUP_PREFIX = 'group\u241f';
const groupId = (id: string) => `${GROUP_PREFIX}${id}`;

export function portId(node: string, direction: 'input' | 'output', name: string): string {
  return `${node}\u241f${direction}\u241f${name}`;
}

function textWidth(text: string): number {
  return text.length * CHAR;
}

function portText(port: GraphJsonPort): string {
  return port.type ? `${port.name}: ${port.type}` : port.name;
}

/** Inputs drawn as broken stubs instead of edges from an external source: likely typos of an upstream output. */
export function brokenInputs(graph: GraphJson): Set<string> {
  const broken = new Set<string>();
  for (const problem of graph.problems) {
    if (problem.code !== 'input_name_typo') continue;
    for (const target of problem.targets) if (target.kind === 'port') broken.add(portId(target.node, 'input', target.name));
  }
  return broken;
}

export function edgeLabel(edge: GraphJsonEdge): string | undefined {
  if (edge.kind === 'data') return edge.type ? `${edge.label}: ${edge.type}` : edge.label;
  return edge.label;
}

/** The text rows under a node's ports: AIP `one_of`/`parallel`, a MetaSkill step's guard and route cases. */
export function badges(node: GraphJsonNode): string[] {
  const rows: string[] = [];
  if (node.oneOf?.length || node.parallel) rows.push([node.parallel ? '∥ parallel' : '', node.oneOf?.length ? `one of: ${node.oneOf.join(' | ')}` : ''].filter(Boolean).join('  '));
  if (node.when) rows.push(`when ${node.when}`);
  if (node.routes?.length) rows.push(`routes: ${node.routes.map((route) => route.to).join(' | ')}`);
  const tips = node.attachments?.filter((item) => item.kind === 'tip').map((item) => item.id) ?? [];
  const rules = node.attachments?.filter((item) => item.kind === 'rule').map((item) => (item.soft ? item.id : `${item.id}!`)) ?? [];
  if (tips.length > 0) rows.push(`tips: ${tips.join(', ')}`);
  if (rules.length > 0) rows.push(`rules: ${rules.join(', ')}`);
  return rows.map((row) => (row.length > MAX_BADGE ? `${row.slice(0, MAX_BADGE - 1)}…` : row));
}
const MAX_BADGE = 48;

/** What runs a step, shown under its name: a script, a composed skill, or its kind. */
export function subtitleOf(node: GraphJsonNode): string {
  if (node.script) return `⚙ ${node.script}`;
  if (node.skill && node.skill !== node.id) return `↗ ${node.skill}`;
  return node.kind === 'step' ? 'agent judgment' : node.kind.replace('_', ' ');
}

export function nodeSize(node: GraphJsonNode): { width: number; height: number } {
  const rows = Math.max(node.inputs.length, node.outputs.length);
  const left = Math.max(0, ...node.inputs.map((port) => textWidth(portText(port))));
  const right = Math.max(0, ...node.outputs.map((port) => textWidth(portText(port))));
  const subtitle = textWidth(subtitleOf(node)) + 24;
  const rowsBelow = badges(node);
  const badgeWidth = Math.max(0, ...rowsBelow.map((row) => textWidth(row) + 16));
  if (node.kind === 'external-input' || node.kind === 'missing') return { width: Math.max(90, textWidth(node.label) + 36), height: 32 };
  const width = Math.max(150, textWidth(node.label) + 48, left + right + 40, subtitle, badgeWidth);
  return { width, height: HEADER + rows * ROW + rowsBelow.length * ROW + (rows > 0 ? 8 : 4) };
}

/** The structure of a graph: node ids, ports and edges. Labels, types and problems do not move anything. */
export function signatureOf(graph: GraphJson, direction: Direction): string {
  const nodes = graph.nodes.map((node) => `${node.id}(${node.inputs.map((port) => port.name).join(',')}|${node.outputs.map((port) => port.name).join(',')})`);
  const edges = graph.edges.map((edge) => `${edge.from}>${edge.to}:${edge.kind}:${edge.label ?? ''}`);
  const groups = graph.nodes.map((node) => node.group ?? '');
  return `${direction};${nodes.join(';')};${edges.join(';')};${groups.join(',')}`;
}

/** Centres a label on the longest segment of an edge's route, where it has the most room. */
function labelOnLongestSegment(text: string, points: { x: number; y: number }[]): NonNullable<PlacedEdge['label']> {
  let best = { x: 0, y: 0, length: -1 };
  for (let i = 1; i < points.length; i++) {
    const length = Math.abs(points[i].x - points[i - 1].x) + Math.abs(points[i].y - points[i - 1].y);
    if (length > best.length) best = { x: (points[i].x + points[i - 1].x) / 2, y: (points[i].y + points[i - 1].y) / 2, length };
  }
  const width = textWidth(text) + 8;
  const height = 14;
  return { text, x: best.x - width / 2, y: best.y - height - 2, width, height };
}

/** Lays the graph out with ELK's layered algorithm; ports keep their rows, inputs on the left, outputs on the right. */
export async function layoutGraph(graph: GraphJson, direction: Direction): Promise<Layout> {
  const broken = brokenInputs(graph);
  const skipped = new Set(graph.nodes.filter((node) => node.kind === 'external-input' && node.outputs.every((port) => graph.edges.filter((edge) => edge.from === node.id).every((edge) => broken.has(portId(edge.to, 'input', port.name))))).map((node) => node.id));
  const shown = graph.nodes.filter((node) => !skipped.has(node.id));
  const portsOf = new Map<string, Set<string>>();
  const children: ElkNode[] = shown.map((node) => {
    const size = nodeSize(node);
    const external = node.kind === 'external-input';
    const ports: ElkPort[] = [
      ...node.inputs.map((port, row) => ({ id: portId(node.id, 'input', port.name), x: -PORT_SIZE / 2, y: HEADER + row * ROW + ROW / 2 - PORT_SIZE / 2, width: PORT_SIZE, height: PORT_SIZE, layoutOptions: { 'elk.port.side': 'WEST' } })),
      ...node.outputs.map((port, row) => ({
        id: portId(node.id, 'output', port.name),
        x: size.width - PORT_SIZE / 2,
        y: external ? size.height / 2 - PORT_SIZE / 2 : HEADER + row * ROW + ROW / 2 - PORT_SIZE / 2,
        width: PORT_SIZE,
        height: PORT_SIZE,
        layoutOptions: { 'elk.port.side': 'EAST' },
      })),
    ];
    portsOf.set(node.id, new Set(ports.map((port) => port.id)));
    return { id: node.id, ...size, ports, layoutOptions: { 'elk.portConstraints': 'FIXED_POS' } };
  });
  // skill+ stages: each a compound node holding its nodes, laid out with the rest in one pass.
  const groups = (graph.groups ?? []).filter((group) => shown.some((node) => node.group === group.id));
  const groupIds = new Set(groups.map((group) => group.id));
  const top: ElkNode[] = [
    ...groups.map((group) => ({
      id: groupId(group.id),
      layoutOptions: { 'elk.padding': `[top=${GROUP_HEADER},left=14,bottom=14,right=14]` },
      children: children.filter((_, index) => shown[index].group === group.id),
    })),
    ...children.filter((_, index) => !groupIds.has(shown[index].group ?? '')),
  ];
  const edges: ElkExtendedEdge[] = [];
  const kept: GraphJsonEdge[] = [];
  graph.edges.forEach((edge) => {
    if (skipped.has(edge.from) || skipped.has(edge.to)) return;
    // A data edge joins the ports its label names, unless it names them itself (a MetaSkill binding feeds an argument).
    const fromName = edge.fromPort ?? edge.label;
    const toName = edge.toPort ?? edge.label;
    const from = edge.kind === 'data' && fromName !== undefined ? portId(edge.from, 'output', fromName) : undefined;
    const to = edge.kind === 'data' && toName !== undefined ? portId(edge.to, 'input', toName) : undefined;
    edges.push({
      id: `e${kept.length}`,
      sources: [from && portsOf.get(edge.from)?.has(from) ? from : edge.from],
      targets: [to && portsOf.get(edge.to)?.has(to) ? to : edge.to],
    });
    kept.push(edge);
  });
  const result: ElkNode = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction,
      'elk.edgeRouting': 'ORTHOGONAL',
      // Room between layers for the edge labels, which are placed after layout (labels
      // given to ELK become dummy nodes and made a 300-step layout take half a minute).
      'elk.layered.spacing.nodeNodeBetweenLayers': '90',
      'elk.spacing.nodeNode': '36',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      // Cheaper crossing minimisation: the greedy switch pass alone cost most of a large layout.
      'elk.layered.thoroughness': '1',
      'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
      'elk.layered.layering.strategy': 'LONGEST_PATH',
      // Large graphs skip crossing minimisation: list order already keeps a procedure readable, and it is the costliest phase.
      // Not with clusters: without it ELK's hierarchical layout of a 300-node flow ran for minutes instead of seconds.
      'elk.layered.crossingMinimization.strategy': shown.length > LARGE_GRAPH && groups.length === 0 ? 'NONE' : 'LAYER_SWEEP',
      // Every coordinate (nodes, ports, edges) comes back in one system, inside clusters too.
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
      // Clusters: edges cross their borders.
      ...(groups.length > 0 ? { 'elk.hierarchyHandling': 'INCLUDE_CHILDREN' } : {}),
    },
    children: top,
    edges,
  });
  const byId = new Map(shown.map((node) => [node.id, node]));
  const laidNodes = (result.children ?? []).flatMap((child) => (child.id.startsWith(GROUP_PREFIX) ? child.children ?? [] : [child]));
  const placedGroups: PlacedGroup[] = (result.children ?? []).filter((child) => child.id.startsWith(GROUP_PREFIX)).map((child) => ({ group: groups.find((group) => groupId(group.id) === child.id)!, x: child.x ?? 0, y: child.y ?? 0, width: child.width ?? 0, height: child.height ?? 0 }));
  const placedNodes: PlacedNode[] = laidNodes.map((child) => {
    const node = byId.get(child.id)!;
    const ports = (child.ports ?? []).map((port) => {
      const [, direction, name] = port.id.split('\u241f') as [string, 'input' | 'output', string];
      const source = (direction === 'input' ? node.inputs : node.outputs).find((item) => item.name === name)!;
      return { id: port.id, name, direction, x: (port.x ?? 0) + PORT_SIZE / 2, y: (port.y ?? 0) + PORT_SIZE / 2, port: source };
    });
    return { node, x: child.x ?? 0, y: child.y ?? 0, width: child.width ?? 0, height: child.height ?? 0, ports };
  });
  const placedEdges: PlacedEdge[] = (result.edges ?? []).map((laid, index) => {
    const sections = laid.sections ?? [];
    const points = sections.flatMap((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]);
    const text = edgeLabel(kept[index]);
    return { id: laid.id, edge: kept[index], points, ...(text ? { label: labelOnLongestSegment(text, points) } : {}) };
  });
  return { nodes: placedNodes, edges: placedEdges, groups: placedGroups, width: result.width ?? 0, height: result.height ?? 0, signature: signatureOf(graph, direction) };
}
