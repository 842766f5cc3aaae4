import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import {
  misspeltInputs,
  type GraphJson,
  type GraphJsonEdge,
  type GraphJsonGroup,
  type GraphJsonNode,
  type GraphJsonPort,
} from '../../server/src/protocol';
import { backEdgeRoute, goesBack } from './backEdges';
import { placeLabels } from './edgeLabels';
import { spreadSharedEnds } from './edgeEnds';
import { edgeLabel, groupHeading, headerHeight, nodeSize, ROW, shortEdgeLabel, textWidth } from './nodeMetrics';
import type { Direction } from './protocol';
const PORT_SIZE = 6;
const LABEL_HEIGHT = 14;
/** Room on either side of a label laid along an edge between two layers. */
const LABEL_CLEARANCE = 12;
/** Graphs with more nodes than this get the cheaper layout options. */
const LARGE_GRAPH = 150;

export interface PlacedPort {
  id: string;
  name: string;
  direction: 'input' | 'output';
  /** Where edges attach: the node's left/right side left-to-right, its top/bottom top-down. */
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
  /** The label drawn on the edge. */
  label?: { text: string; x: number; y: number; width: number; height: number };
  /** The whole label, for the hover, when what is drawn is less. */
  title?: string;
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
  direction: Direction;
  /** Identifies the structure laid out: the same signature can reuse the same positions. */
  signature: string;
}

const elk = new ELK();

const GROUP_PREFIX = 'group\u241f';
const groupId = (id: string) => `${GROUP_PREFIX}${id}`;

export function portId(node: string, direction: 'input' | 'output', name: string): string {
  return `${node}\u241f${direction}\u241f${name}`;
}

/** Inputs drawn as broken stubs instead of edges from an external source: likely typos of an upstream output. */
export function brokenInputs(graph: GraphJson): Set<string> {
  return new Set(misspeltInputs(graph).map((input) => portId(input.node, 'input', input.name)));
}

/** The structure of a graph: node ids, ports and edges. Labels, types and problems do not move anything. */
export function signatureOf(graph: GraphJson, direction: Direction): string {
  const nodes = graph.nodes.map(
    (node) =>
      `${node.id}(${node.inputs.map((port) => port.name).join(',')}|${node.outputs.map((port) => port.name).join(',')})`,
  );
  const edges = graph.edges.map((edge) => `${edge.from}>${edge.to}:${edge.kind}:${edge.label ?? ''}`);
  const groups = graph.nodes.map((node) => node.group ?? '');
  return `${direction};${nodes.join(';')};${edges.join(';')};${groups.join(',')}`;
}

/** Centres a label on the longest segment of an edge's route, where it has the most room. */
function labelOnLongestSegment(text: string, points: { x: number; y: number }[]): NonNullable<PlacedEdge['label']> {
  let best = { x: 0, y: 0, length: -1 };
  for (let i = 1; i < points.length; i++) {
    const length = Math.abs(points[i].x - points[i - 1].x) + Math.abs(points[i].y - points[i - 1].y);
    if (length > best.length)
      best = { x: (points[i].x + points[i - 1].x) / 2, y: (points[i].y + points[i - 1].y) / 2, length };
  }
  const width = textWidth(text) + 8;
  return { text, x: best.x - width / 2, y: best.y - LABEL_HEIGHT - 2, width, height: LABEL_HEIGHT };
}

/** Lays the graph out with ELK's layered algorithm; ports keep their rows, inputs on the left, outputs on the right. */
export async function layoutGraph(graph: GraphJson, direction: Direction): Promise<Layout> {
  const broken = brokenInputs(graph);
  const skipped = new Set(
    graph.nodes
      .filter(
        (node) =>
          node.kind === 'external-input' &&
          node.outputs.every((port) =>
            graph.edges
              .filter((edge) => edge.from === node.id)
              .every((edge) => broken.has(portId(edge.to, 'input', port.name))),
          ),
      )
      .map((node) => node.id),
  );
  const shown = graph.nodes.filter((node) => !skipped.has(node.id));
  const portsOf = new Map<string, Set<string>>();
  const down = direction === 'DOWN';
  const children: ElkNode[] = shown.map((node) => {
    const size = nodeSize(node, direction);
    const external = node.kind === 'external-input';
    const header = headerHeight(node);
    // Left-to-right, a port sits beside its row; top-down, inputs spread along the top and outputs along the bottom, in
    // row order.
    const along = (row: number, count: number) => (size.width * (row + 1)) / (count + 1) - PORT_SIZE / 2;
    const rowY = (row: number) => header + row * ROW + ROW / 2 - PORT_SIZE / 2;

    const ports: ElkPort[] = [
      ...node.inputs.map((port, row) => ({
        id: portId(node.id, 'input', port.name),
        ...(down ? { x: along(row, node.inputs.length), y: -PORT_SIZE / 2 } : { x: -PORT_SIZE / 2, y: rowY(row) }),
        width: PORT_SIZE,
        height: PORT_SIZE,
        layoutOptions: { 'elk.port.side': down ? 'NORTH' : 'WEST' },
      })),
      ...node.outputs.map((port, row) => ({
        id: portId(node.id, 'output', port.name),
        ...(down
          ? { x: along(row, node.outputs.length), y: size.height - PORT_SIZE / 2 }
          : { x: size.width - PORT_SIZE / 2, y: external ? size.height / 2 - PORT_SIZE / 2 : rowY(row) }),
        width: PORT_SIZE,
        height: PORT_SIZE,
        layoutOptions: { 'elk.port.side': down ? 'SOUTH' : 'EAST' },
      })),
    ];
    portsOf.set(node.id, new Set(ports.map((port) => port.id)));
    return { id: node.id, ...size, ports, layoutOptions: { 'elk.portConstraints': 'FIXED_POS' } };
  });
  // Left-to-right a label lies along its edge between two layers: they are as far apart as the widest label needs, and
  // stages' nodes as those outside.
  const betweenLayers = Math.max(
    90,
    ...graph.edges.map((edge) => textWidth(shortEdgeLabel(edge) ?? '') + 8 + 2 * LABEL_CLEARANCE),
  );
  const spacing = {
    'elk.layered.spacing.nodeNodeBetweenLayers': down ? '56' : String(betweenLayers),
    'elk.spacing.nodeNode': down ? '48' : '36',
  };
  // skill+ stages: each a compound node holding its nodes, laid out with the rest in one pass.
  const groups = (graph.groups ?? []).filter((group) => shown.some((node) => node.group === group.id));
  const groupIds = new Set(groups.map((group) => group.id));
  const top: ElkNode[] = [
    ...groups.map((group) => {
      const heading = groupHeading(group);
      return {
        id: groupId(group.id),
        layoutOptions: {
          'elk.padding': `[top=${heading.height},left=14,bottom=14,right=14]`,
          // Wide enough for its title and goal.
          'elk.nodeSize.constraints': 'MINIMUM_SIZE',
          'elk.nodeSize.minimum': `(${heading.width}, 0)`,
          ...spacing,
        },
        children: children.filter((_, index) => shown[index].group === group.id),
      };
    }),
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
      // Room between layers for the edge labels, which are placed after layout (labels given to ELK become dummy nodes
      // and made a 300-step layout take half a minute). Top-down, the labels sit beside vertical segments: layers need
      // less room between them, and siblings more.
      ...spacing,
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      // Cheaper crossing minimisation: the greedy switch pass alone cost most of a large layout.
      'elk.layered.thoroughness': '1',
      'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
      'elk.layered.layering.strategy': 'LONGEST_PATH',
      // Large graphs skip crossing minimisation: list order already keeps a procedure readable, and it is the costliest
      // phase. Not with clusters: without it ELK's hierarchical layout of a 300-node flow ran for minutes instead of
      // seconds.
      'elk.layered.crossingMinimization.strategy':
        shown.length > LARGE_GRAPH && groups.length === 0 ? 'NONE' : 'LAYER_SWEEP',
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
  const laidNodes = (result.children ?? []).flatMap((child) =>
    child.id.startsWith(GROUP_PREFIX) ? (child.children ?? []) : [child],
  );
  const placedGroups: PlacedGroup[] = (result.children ?? [])
    .filter((child) => child.id.startsWith(GROUP_PREFIX))
    .map((child) => ({
      group: groups.find((group) => groupId(group.id) === child.id)!,
      x: child.x ?? 0,
      y: child.y ?? 0,
      width: child.width ?? 0,
      height: child.height ?? 0,
    }));
  const placedNodes: PlacedNode[] = laidNodes.map((child) => {
    const node = byId.get(child.id)!;
    const ports = (child.ports ?? []).map((port) => {
      const [, direction, name] = port.id.split('\u241f') as [string, 'input' | 'output', string];
      const source = (direction === 'input' ? node.inputs : node.outputs).find((item) => item.name === name)!;
      return {
        id: port.id,
        name,
        direction,
        x: (port.x ?? 0) + PORT_SIZE / 2,
        y: (port.y ?? 0) + PORT_SIZE / 2,
        port: source,
      };
    });
    return { node, x: child.x ?? 0, y: child.y ?? 0, width: child.width ?? 0, height: child.height ?? 0, ports };
  });
  const bounds = { width: result.width ?? 0, height: result.height ?? 0 };
  const boxes = new Map(placedNodes.map((placed) => [placed.node.id, placed]));
  const laidRoutes = (result.edges ?? []).map((laid, index) => {
    const source = boxes.get(kept[index].from);
    const target = boxes.get(kept[index].to);
    // An edge back against the direction (a cycle, a loop's return) loops beside its two nodes.
    const back =
      source && target && source !== target && goesBack(source, target, down)
        ? backEdgeRoute(
            source,
            target,
            placedNodes.filter((placed) => placed !== source && placed !== target),
            bounds,
            down,
          )
        : undefined;
    return (
      back ??
      (laid.sections ?? []).flatMap((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint])
    );
  });
  const routes = spreadSharedEnds(
    laidRoutes,
    kept.map((edge) => boxes.get(edge.to)),
  );
  // A graph of ordinary size gets each label where it is clear of nodes and other labels. A large one's go on the
  // longest segment of their route, unchecked (checking every place against every node and label grows with the
  // product of the two); top-down, where labels across parallel vertical edges would collide, its data edges are named
  // by the port rows at both ends, and their labels are on hover only.
  const texts = kept.map((edge) =>
    shown.length > LARGE_GRAPH && down && edge.kind === 'data' ? undefined : shortEdgeLabel(edge),
  );
  const labels =
    shown.length > LARGE_GRAPH
      ? texts.map((text, index) => (text ? labelOnLongestSegment(text, routes[index]) : undefined))
      : placeLabels(
          texts.map((text, index) =>
            text ? { text, width: textWidth(text) + 8, height: LABEL_HEIGHT, points: routes[index] } : undefined,
          ),
          placedNodes,
        );
  // Labels placed beside the outermost lines widen the drawing (Fit and export take it whole).
  const extent = {
    width: Math.max(bounds.width, ...labels.map((label) => (label ? label.x + label.width + 4 : 0))),
    height: Math.max(bounds.height, ...labels.map((label) => (label ? label.y + label.height + 4 : 0))),
  };
  const placedEdges: PlacedEdge[] = (result.edges ?? []).map((laid, index) => {
    const full = edgeLabel(kept[index]);
    const label = labels[index];
    const text = label ? texts[index] : undefined;
    return {
      id: laid.id,
      edge: kept[index],
      points: routes[index],
      ...(label && text ? { label: { ...label, text } } : {}),
      ...(full !== undefined && text !== full ? { title: full } : {}),
    };
  });
  return {
    nodes: placedNodes,
    edges: placedEdges,
    groups: placedGroups,
    width: extent.width,
    height: extent.height,
    direction,
    signature: signatureOf(graph, direction),
  };
}

/** Reuses the previous positions when only labels, types or problems changed, so nothing jumps while typing. */
export function carryOver(previous: Layout, next: GraphJson): Layout {
  const nodes = new Map(next.nodes.map((node) => [node.id, node]));
  const key = (edge: GraphJson['edges'][number]) => `${edge.from}>${edge.to}:${edge.kind}:${edge.label ?? ''}`;
  const edges = new Map<string, GraphJson['edges']>();
  for (const edge of next.edges) edges.set(key(edge), [...(edges.get(key(edge)) ?? []), edge]);
  return {
    ...previous,
    nodes: previous.nodes.map((placed) => {
      const node = nodes.get(placed.node.id)!;
      return {
        ...placed,
        node,
        ports: placed.ports.map((port) => ({
          ...port,
          port:
            (port.direction === 'input' ? node.inputs : node.outputs).find((item) => item.name === port.name) ??
            port.port,
        })),
      };
    }),
    edges: previous.edges.map((placed) => ({ ...placed, edge: edges.get(key(placed.edge))?.shift() ?? placed.edge })),
  };
}
