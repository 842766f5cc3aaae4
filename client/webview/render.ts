import { cycleEdges, onCycle, worstSeverity, type GraphJson, type GraphProblem } from '../../server/src/protocol';
import type { Direction } from './protocol';
import { brokenInputs, type Layout, type PlacedEdge, type PlacedGroup, type PlacedNode } from './layout';
import {
  badges,
  groupHeading,
  headerHeight,
  lineChars,
  NAME_LINE,
  nameLines,
  portChars,
  portRow,
  portRows,
  portText,
  ROW,
  shorten,
  subtitleOf,
} from './nodeMetrics';
import { element, fitted, hoverGroup, text } from './svg';

/** Problems indexed by what they are about. */
export interface ProblemIndex {
  nodes: Map<string, GraphProblem[]>;
  ports: Map<string, GraphProblem[]>;
  edges: Map<string, GraphProblem[]>;
  skill: GraphProblem[];
}

export function indexProblems(graph: GraphJson): ProblemIndex {
  const index: ProblemIndex = { nodes: new Map(), ports: new Map(), edges: new Map(), skill: [] };
  const add = (map: Map<string, GraphProblem[]>, key: string, problem: GraphProblem) =>
    map.set(key, [...(map.get(key) ?? []), problem]);
  for (const problem of graph.problems) {
    if (problem.severity === 'information' || problem.severity === 'hint') continue;
    if (problem.targets.length === 0) index.skill.push(problem);
    for (const target of problem.targets) {
      if (target.kind === 'node') add(index.nodes, target.id, problem);
      if (target.kind === 'port')
        add(index.ports, `${target.node}\u241f${target.direction}\u241f${target.name}`, problem);
      if (target.kind === 'edge') add(index.edges, `${target.from}>${target.to}`, problem);
    }
  }
  return index;
}

function worst(problems: GraphProblem[] | undefined): string {
  const severity = worstSeverity(problems);
  return severity ? `has-${severity}` : '';
}

/** The messages a mark shows on hover, one per line. */
function describe(problems: GraphProblem[]): string {
  return problems.map((problem) => `${problem.message} [${problem.code}]`).join('\n');
}

const KIND_TITLES: Record<string, string> = {
  step: 'step',
  decision: 'decision',
  execution: 'execution',
  client_task: 'client task',
  router: 'router',
  end: 'end',
  'external-input': 'external input',
  missing: 'missing step',
  agent: 'agent step',
  llm_chat: 'model call',
  llm_classify: 'classifier',
  tool_call: 'tool call',
  skill_exec: 'skill script',
  user_input: 'question to the user',
  ask: 'question to the user',
  confirm: 'yes/no confirmation',
  branch: 'branch',
  loop: 'loop',
  fanout: 'fan-out',
};

function nodeShape(placed: PlacedNode, group: SVGGElement): void {
  const { width, height } = placed;
  const kind = placed.node.kind;
  const h = headerHeight(placed.node);
  if (kind === 'router' || kind === 'llm_classify') {
    element(
      'polygon',
      { class: 'shape', points: `0,${h / 2} 14,0 ${width - 14},0 ${width},${h / 2} ${width - 14},${h} 14,${h}` },
      group,
    );
    if (height > h) element('rect', { class: 'shape body', x: 0, y: h, width, height: height - h, rx: 3 }, group);
  } else if (kind === 'decision') {
    const c = 10;
    element(
      'polygon',
      {
        class: 'shape',
        points: `${c},0 ${width - c},0 ${width},${c} ${width},${height - c} ${width - c},${height} ${c},${height} 0,${height - c} 0,${c}`,
      },
      group,
    );
  } else if (kind === 'end') {
    element('rect', { class: 'shape', x: 0, y: 0, width, height, rx: 16 }, group);
    element('rect', { class: 'shape inner', x: 3, y: 3, width: width - 6, height: height - 6, rx: 13 }, group);
  } else if (kind === 'external-input' || kind === 'missing') {
    element('rect', { class: 'shape', x: 0, y: 0, width, height, rx: height / 2 }, group);
  } else if (kind === 'confirm' || kind === 'branch') {
    element(
      'polygon',
      { class: 'shape', points: `0,${h / 2} 14,0 ${width - 14},0 ${width},${h / 2} ${width - 14},${h} 14,${h}` },
      group,
    );
    if (height > h) element('rect', { class: 'shape body', x: 0, y: h, width, height: height - h, rx: 3 }, group);
  } else if (kind === 'fanout') {
    // A stack: one card per element of the list it runs over.
    element('rect', { class: 'shape stacked', x: 6, y: -6, width, height, rx: 4 }, group);
    element('rect', { class: 'shape', x: 0, y: 0, width, height, rx: 4 }, group);
  } else if (kind === 'loop') {
    element('rect', { class: 'shape', x: 0, y: 0, width, height, rx: 14 }, group);
    element('text', { class: 'loop-mark', x: width - 18, y: 18 }, group).textContent = '↻';
  } else if (kind === 'user_input' || kind === 'ask') {
    const slant = 10;
    element(
      'polygon',
      { class: 'shape', points: `${slant},0 ${width},0 ${width - slant},${height} 0,${height}` },
      group,
    );
  } else {
    element(
      'rect',
      { class: 'shape', x: 0, y: 0, width, height, rx: kind === 'client_task' || kind === 'llm_chat' ? 12 : 4 },
      group,
    );
    if (kind === 'execution' || kind === 'skill_exec' || kind === 'tool_call' || placed.node.script)
      element('rect', { class: 'script-bar', x: 0, y: 0, width: 5, height, rx: 2 }, group);
  }
}

function renderNode(
  placed: PlacedNode,
  direction: Direction,
  problems: ProblemIndex,
  broken: Set<string>,
  parent: SVGGElement,
): void {
  const node = placed.node;
  const scripted = node.script !== undefined;
  const classes = [
    'node',
    `kind-${node.kind}`,
    scripted ? 'scripted' : 'judgment',
    node.risks?.length ? 'risky' : '',
    worst(problems.nodes.get(node.id)),
  ].filter(Boolean);
  const group = element(
    'g',
    {
      class: classes.join(' '),
      transform: `translate(${placed.x},${placed.y})`,
      'data-id': node.id,
      tabindex: 0,
      role: 'button',
    },
    parent,
  );
  group.setAttribute(
    'aria-label',
    `${KIND_TITLES[node.kind] ?? node.kind} ${node.label}${node.script ? `, runs ${node.script}` : node.skill ? `, runs ${node.skill}` : ''}`,
  );
  nodeShape(placed, group);
  const header = headerHeight(node);
  if (node.kind === 'external-input' || node.kind === 'missing') {
    const name = node.kind === 'missing' ? `? ${node.label}` : node.label;
    const shown = shorten(name, lineChars(placed.width));
    const label = text(
      '',
      { class: 'label', 'text-anchor': 'middle' },
      shown === name ? group : hoverGroup(name, group),
    );
    element('tspan', { x: placed.width / 2, y: placed.height / 2 + 4 }, label).textContent = shown;
  } else {
    // One tspan per line of the name, so each line's on-screen height can be measured.
    const lines = nameLines(node.label);
    const label = text('', { class: 'label' }, lines.length > 1 ? hoverGroup(node.label, group) : group);
    lines.forEach((line, index) => (element('tspan', { x: 12, y: 17 + index * NAME_LINE }, label).textContent = line));
    const subtitleText = subtitleOf(node);
    const subtitle = fitted(
      subtitleText,
      shorten(subtitleText, lineChars(placed.width)),
      {
        class: ['subtitle', scripted ? 'script-name' : '', node.skillFile ? 'open-skill' : '']
          .filter(Boolean)
          .join(' '),
        x: 12,
        y: header - 8,
      },
      group,
    );
    // A composed skill opens from its node.
    if (node.skillFile) {
      subtitle.setAttribute('data-file', node.skillFile);
      subtitle.setAttribute('role', 'link');
    }
  }
  const rows = portRows(node, direction);
  badges(node).forEach((badge, index) =>
    fitted(
      badge,
      shorten(badge, lineChars(placed.width)),
      { class: 'badge', x: 12, y: header + (rows + index) * ROW + 13 },
      group,
    ),
  );
  const count = problems.nodes.get(node.id)?.length ?? 0;
  if (count > 0) {
    const mark = element('g', { class: 'problem-mark', transform: `translate(${placed.width - 10},-6)` }, group);
    element('circle', { r: 8 }, mark);
    text(String(count), { x: 0, y: 4, 'text-anchor': 'middle' }, mark);
  }
  for (const port of placed.ports) {
    if (node.kind === 'external-input') continue;
    const portProblems = problems.ports.get(port.id);
    const localX = port.x - placed.x;
    const localY = port.y - placed.y;
    const portGroup = element(
      'g',
      { class: ['port', port.direction, worst(portProblems)].filter(Boolean).join(' '), 'data-port': port.name },
      group,
    );
    element('circle', { cx: localX, cy: localY, r: 3 }, portGroup);
    // The row: beside the port left-to-right; top-down the port is on the top or bottom edge and the row keeps its
    // place inside.
    const rowY = header + portRow(node, port, direction) * ROW + ROW / 2 + 4;
    const at: Record<string, string | number> =
      port.direction === 'input' ? { x: 8, y: rowY } : { x: placed.width - 8, y: rowY, 'text-anchor': 'end' };
    fitted(portText(port.port), portText(port.port, portChars(node, port, placed.width, direction)), at, portGroup);
    if (broken.has(port.id)) {
      // A dangling input: a stub that leads nowhere, ending in a break mark.
      const stub = element('g', { class: 'broken-stub' }, portGroup);
      if (localY <= 0) {
        // Top-down, inputs are on the top edge: the stub comes from above.
        element('line', { x1: localX, y1: localY - 30, x2: localX, y2: localY - 4 }, stub);
        text('✕', { x: localX, y: localY - 34, 'text-anchor': 'middle' }, stub);
      } else {
        element('line', { x1: localX - 30, y1: localY, x2: localX - 4, y2: localY }, stub);
        text('✕', { x: localX - 38, y: localY + 4, 'text-anchor': 'middle' }, stub);
      }
    }
    if (portProblems) portGroup.setAttribute('data-problems', describe(portProblems));
  }
  const nodeProblems = problems.nodes.get(node.id);
  if (nodeProblems) group.setAttribute('data-problems', describe(nodeProblems));
}

function pathOf(edge: PlacedEdge): string {
  return edge.points.map((point, i) => `${i === 0 ? 'M' : 'L'}${point.x},${point.y}`).join(' ');
}

function renderEdge(placed: PlacedEdge, problems: ProblemIndex, cycles: Set<string>, parent: SVGGElement): void {
  const edge = placed.edge;
  // Edge problems (cycles, unknown steps) are about ordering; a data edge between the same steps is not part of them.
  const edgeProblems = edge.kind === 'data' ? undefined : problems.edges.get(`${edge.from}>${edge.to}`);
  const cycle = onCycle(edge, cycles);
  const classes = [
    'edge',
    edge.kind,
    edge.dangling ? 'dangling' : '',
    cycle ? 'cycle' : '',
    worst(edgeProblems),
  ].filter(Boolean);
  const group = element(
    'g',
    {
      class: classes.join(' '),
      'data-from': edge.from,
      'data-to': edge.to,
      ...(edge.label !== undefined ? { 'data-label': edge.label } : {}),
    },
    parent,
  );
  if (placed.title) element('title', {}, group).textContent = placed.title;
  element('path', { class: 'hit', d: pathOf(placed) }, group);
  // A cycle's and a dangling edge's heads are their own (red; hollow for the edge from nothing), not their kind's grey.
  const head = cycle ? 'cycle' : edge.dangling ? 'dangling' : edge.kind;
  element('path', { class: 'line', d: pathOf(placed), 'marker-end': `url(#arrow-${head})` }, group);
  if (placed.label) {
    element(
      'rect',
      {
        class: 'edge-label-bg',
        x: placed.label.x,
        y: placed.label.y,
        width: placed.label.width,
        height: placed.label.height,
        rx: 3,
      },
      group,
    );
    text(placed.label.text, { class: 'edge-label', x: placed.label.x + 4, y: placed.label.y + 11 }, group);
  }
  if (edgeProblems) group.setAttribute('data-problems', describe(edgeProblems));
}

/**
 * Narrows each edge label's background to its text as drawn (the layout reserved room by an estimate of the text's
 * width, which a proportional font mostly needs less of). All lengths are read before any is written: one layout.
 */
function fitLabelBackgrounds(edges: SVGGElement): void {
  const labels = [...edges.querySelectorAll<SVGTextElement>('.edge-label')].map((label) => ({
    background: label.previousElementSibling as SVGRectElement,
    length: label.getComputedTextLength(),
  }));
  for (const { background, length } of labels)
    if (length > 0 && length + 8 < Number(background.getAttribute('width')))
      background.setAttribute('width', String(length + 8));
}

/** A stage: a frame behind its nodes and edges. */
function renderGroupBox(placed: PlacedGroup, parent: SVGGElement): void {
  element(
    'rect',
    {
      class: 'cluster-box',
      x: placed.x,
      y: placed.y,
      width: placed.width,
      height: placed.height,
      rx: 8,
      'data-group': placed.group.id,
    },
    parent,
  );
}

/** A stage's title and goal, above the edges so a click on it opens the stage in the flow file. */
function renderGroupTitle(placed: PlacedGroup, parent: SVGGElement): void {
  const group = element(
    'g',
    { class: 'cluster', transform: `translate(${placed.x},${placed.y})`, 'data-group': placed.group.id },
    parent,
  );
  const heading = groupHeading(placed.group);
  const title = text(placed.group.label, { class: 'cluster-title', x: 12, y: 20 }, group);
  title.setAttribute('role', 'link');
  if (placed.group.description) {
    // The goal in the room the title leaves, wrapped to the frame's width; the full text is one hover away.
    const goal = text('', { class: 'cluster-goal' }, group);
    heading.goalLines.forEach(
      (line, index) => (element('tspan', { x: heading.goalX, y: 20 + index * NAME_LINE }, goal).textContent = line),
    );
    element('title', {}, group).textContent = placed.group.description;
  }
}

/** Draws a laid-out graph into `svg`, inside a `viewport` group the caller pans and zooms. */
export function renderGraph(svg: SVGSVGElement, graph: GraphJson, layout: Layout, problems: ProblemIndex): SVGGElement {
  svg.replaceChildren();
  const defs = element('defs', {}, svg);
  for (const kind of ['data', 'control', 'branch', 'fallback', 'cycle', 'dangling']) {
    const marker = element(
      'marker',
      {
        id: `arrow-${kind}`,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        // In the drawing's units, not the line's width: a cycle's thicker line keeps an arrowhead of the usual size.
        markerUnits: 'userSpaceOnUse',
        markerWidth: 10,
        markerHeight: 10,
        orient: 'auto-start-reverse',
      },
      defs,
    );
    element('path', { class: `arrow arrow-${kind}`, d: 'M0,0 L10,5 L0,10 z' }, marker);
  }
  // The laid-out size: what Fit frames and an export draws, everything inside it.
  const viewport = element('g', { class: 'viewport', 'data-width': layout.width, 'data-height': layout.height }, svg);
  const clusters = element('g', { class: 'clusters' }, viewport);
  for (const group of layout.groups) renderGroupBox(group, clusters);
  const edges = element('g', { class: 'edges' }, viewport);
  const titles = element('g', { class: 'cluster-titles' }, viewport);
  const nodes = element('g', { class: 'nodes' }, viewport);
  const cycles = cycleEdges(graph);
  for (const edge of layout.edges) renderEdge(edge, problems, cycles, edges);
  fitLabelBackgrounds(edges);
  for (const group of layout.groups) renderGroupTitle(group, titles);
  const broken = brokenInputs(graph);
  for (const node of layout.nodes) renderNode(node, layout.direction, problems, broken, nodes);
  return viewport;
}
