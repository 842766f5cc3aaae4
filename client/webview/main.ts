import type { ChangeLine, GraphChanges, GraphJson } from '../../server/src/protocol';
import { changeSummary, markChanges, renderChangeList } from './changes';
import { exportPng, exportSvg } from './exportImage';
import { vsCodeHost } from './host';
import { carryOver, layoutGraph, signatureOf, type Layout } from './layout';
import { inputPerStage } from './inputPerStage';
import { ARROWS, nearestInDirection } from './keyboard';
import { Overview } from './overview';
import type { Direction, DirectionChoice, HostMessage, WebviewMessage } from './protocol';
import { indexProblems, renderGraph } from './render';
import { Viewport, type Transform } from './viewport';

const host = vsCodeHost<WebviewMessage, { transform?: Transform }>();
const svg = document.getElementById('graph') as unknown as SVGSVGElement;
const tooltip = document.getElementById('tooltip')!;
const status = document.getElementById('status')!;
const search = document.getElementById('search') as HTMLInputElement;
const skillProblems = document.getElementById('skill-problems')!;
const contextButton = document.getElementById('context') as HTMLButtonElement;
const directionButton = document.getElementById('direction') as HTMLButtonElement;
const focusButton = document.getElementById('focus') as HTMLButtonElement;
const changesButton = document.getElementById('changes') as HTMLButtonElement;
const changesList = document.getElementById('changes-list')!;
const viewport = new Viewport(svg);
const overview = new Overview(document.getElementById('overview') as unknown as SVGSVGElement, svg, viewport);

/** A step name's line is at least this high on screen after a fit (11 px asked, with a margin for rounding). */
const READABLE_PX = 12;
/**
 * Panel shapes (width ÷ height) past which the automatic direction turns left-to-right, or back top-down; in between it
 * stays.
 */
const WIDE = 1.25;
const NARROW = 0.95;

/** The whole graph of the skill (in focus mode only part of it is drawn). */
let graph: GraphJson | undefined;
/** The layout of what is drawn. */
let layout: Layout | undefined;
let choice: DirectionChoice = 'auto';
let direction: Direction = shapeDirection();
/** Focus mode: only the cursor's step and the steps one edge away are drawn. */
let focusMode = false;
let highlighted: string | null = null;
/** The node last clicked or focused: the context button shows what the model sees there. */
let selected: string | null = null;
let generation = 0;
let fitted = false;
/** The changes since a revision, while the preview shows them. */
let changes: GraphChanges | undefined;
/** The skill's runtime shows the model a context at each node (skill+): the context button is offered. */
let hasContext = false;
/** Changes just turned on: the next drawing scrolls to the nodes they touch. */
let frameChanges = false;

const saved = host.getState()?.transform;
if (saved) {
  viewport.transform = saved;
  fitted = true;
}
viewport.onChange(() => host.setState({ transform: viewport.transform }));

/**
 * The direction that suits the panel: top-down when tall or narrow, left-to-right when wide; near square, the current
 * one stays.
 */
function shapeDirection(current?: Direction): Direction {
  const { width, height } = svg.getBoundingClientRect();
  const ratio = width / Math.max(height, 1);
  if (ratio >= WIDE) return 'RIGHT';
  if (ratio <= NARROW) return 'DOWN';
  return current ?? 'DOWN';
}

/** The zoom at which a line of a step name is READABLE_PX high on screen, measured on the drawn text. */
function readableScale(): number {
  const line = svg.querySelector<SVGTSpanElement>('.node .label tspan');
  const height = line?.getBBox().height ?? 0;
  return height > 0 ? READABLE_PX / height : 0;
}

/** Fits the drawing at a readable zoom, then scrolls its first step, and the cursor's, into view. */
function fitView(): void {
  if (!layout) return;
  const along = layout.direction === 'DOWN' ? 'vertical' : 'horizontal';
  viewport.fit(layout.width, layout.height, readableScale(), along);
  // A drawing wider than the view starts at its left edge, which may hold no node at all: a long procedure's layers
  // can run diagonally from the top right (a 40-step one opened on an empty canvas). Its first node comes into view.
  const first = layout.nodes.reduce<(typeof layout.nodes)[number] | undefined>(
    (best, placed) => (!best || (along === 'vertical' ? placed.y < best.y : placed.x < best.x) ? placed : best),
    undefined,
  );
  if (first) viewport.revealAcross(first.x, first.y, first.width, first.height, along);
  follow();
}

/** Keeps the cursor's step in view by scrolling, never zooming. */
function follow(): void {
  const placed = highlighted ? layout?.nodes.find((node) => node.node.id === highlighted) : undefined;
  if (placed) viewport.reveal(placed.x, placed.y, placed.width, placed.height);
}

function showDirection(): void {
  const arrow = direction === 'RIGHT' ? '↔' : '↕';
  directionButton.textContent = choice === 'auto' ? `Auto ${arrow}` : arrow;
  directionButton.title = `Layout: ${choice === 'auto' ? "automatic, from the panel's shape" : direction === 'RIGHT' ? 'left to right' : 'top down'} (click: ${choice === 'auto' ? 'left to right' : choice === 'RIGHT' ? 'top down' : 'automatic'})`;
}

// The direction follows the panel's shape unless the user chose one; until the user zooms or pans, the graph stays
// fitted.
new ResizeObserver(() => {
  const suited = shapeDirection(direction);
  if (graph && choice === 'auto' && suited !== direction) {
    direction = suited;
    fitted = false;
    void show(graph);
  } else if (layout && !viewport.moved) fitView();
}).observe(svg);

/**
 * What is drawn: the whole graph, or in focus mode the cursor's step with its producers and consumers one edge away.
 */
function drawnPart(whole: GraphJson): { part: GraphJson; anchor?: GraphJson['nodes'][number] } {
  const anchor = focusMode ? whole.nodes.find((node) => node.id === (highlighted ?? selected)) : undefined;
  if (!anchor) return { part: whole };
  const edges = whole.edges.filter((edge) => edge.from === anchor.id || edge.to === anchor.id);
  const ids = new Set([anchor.id, ...edges.flatMap((edge) => [edge.from, edge.to])]);
  return { part: { ...whole, nodes: whole.nodes.filter((node) => ids.has(node.id)), edges }, anchor };
}

async function show(next: GraphJson): Promise<void> {
  const current = ++generation;
  showDirection();
  const { part: shown, anchor } = drawnPart(next);
  const part = inputPerStage(shown);
  const reuse = layout && layout.signature === signatureOf(part, direction);
  const laidOut = reuse ? carryOver(layout!, part) : await layoutGraph(part, direction);
  if (current !== generation) return; // a newer graph arrived while this one was laid out
  graph = next;
  layout = laidOut;
  const problems = indexProblems(next);
  viewport.attach(renderGraph(svg, part, laidOut, problems));
  if (changes) markChanges(svg, changes);
  overview.show(laidOut);
  if (!fitted) {
    fitView();
    fitted = true;
  }
  if (frameChanges && changes) {
    frameChanges = false;
    // Every node the change touched, framed together when they are not all in view.
    const touched = laidOut.nodes.filter((placed) => changes!.nodes[placed.node.id]);
    if (touched.length > 0) {
      const [left, top] = [Math.min(...touched.map((n) => n.x)), Math.min(...touched.map((n) => n.y))];
      const right = Math.max(...touched.map((n) => n.x + n.width));
      const bottom = Math.max(...touched.map((n) => n.y + n.height));
      viewport.reveal(left, top, right - left, bottom - top);
    }
  }
  // Counted as the skill is now: the steps and edges a change removed are drawn, but are not in it.
  const steps = next.nodes.filter(
    (node) =>
      node.kind !== 'external-input' && node.kind !== 'missing' && changes?.nodes[node.id]?.change !== 'removed',
  ).length;
  const edgeCount = next.edges.length - (changes?.edges.filter((edge) => edge.change === 'removed').length ?? 0);
  const whole = `${steps} step${steps === 1 ? '' : 's'} · ${edgeCount} edge${edgeCount === 1 ? '' : 's'}`;
  const neighbours = part.nodes.length - 1;
  status.textContent = !focusMode
    ? changes
      ? `${whole} · ${changeSummary(changes)}`
      : whole
    : anchor
      ? `Focus: ${anchor.label}, ${neighbours} neighbour${neighbours === 1 ? '' : 's'} · ${whole}`
      : `Focus: put the cursor in a step · ${whole}`;
  contextButton.hidden = !hasContext;
  skillProblems.hidden = problems.skill.length === 0;
  skillProblems.textContent = problems.skill.map((problem) => `${problem.severity}: ${problem.message}`).join('\n');
  markHighlight();
}

function markHighlight(): void {
  for (const node of svg.querySelectorAll('.node.current')) node.classList.remove('current');
  if (highlighted) svg.querySelector(`.node[data-id="${CSS.escape(highlighted)}"]`)?.classList.add('current');
}

function nodeElement(id: string): SVGGElement | null {
  return svg.querySelector(`.node[data-id="${CSS.escape(id)}"]`);
}

function revealNode(id: string): void {
  selected = id;
  // A node as drawn: an input drawn once per stage is found by any of its copies.
  const node = layout?.nodes.find((candidate) => candidate.node.id === id)?.node;
  if (node) host.postMessage({ type: 'reveal', range: node.range, file: node.file });
}

/** A node clicked: its place in the text, or for a step the change removed, the file's diff against the revision. */
function showNode(id: string): void {
  if (changes?.nodes[id]?.change !== 'removed') revealNode(id);
  else {
    selected = id;
    host.postMessage({ type: 'showRemoved', nodeId: id });
  }
}

/** A line of the change list clicked: the finding where it is now, else the node it is about, centred and shown. */
function pickChange(line: ChangeLine): void {
  if (line.at) host.postMessage({ type: 'reveal', range: line.at.range, file: line.at.file });
  else if (line.node) {
    focusNode(line.node);
    showNode(line.node);
  }
}

svg.addEventListener('click', (event) => {
  const target = event.target as Element;
  const skillLink = target.closest('.open-skill');
  if (skillLink) {
    host.postMessage({ type: 'openSkill', file: skillLink.getAttribute('data-file')! });
    return;
  }
  const node = target.closest('.node');
  if (node) {
    showNode(node.getAttribute('data-id')!);
    return;
  }
  const cluster = target.closest('.cluster-title') && target.closest('.cluster');
  if (cluster) {
    const group = graph?.groups?.find((candidate) => candidate.id === cluster.getAttribute('data-group'));
    if (group) host.postMessage({ type: 'reveal', range: group.range, file: group.file });
    return;
  }
  const edgeElement = target.closest('.edge');
  if (!edgeElement || !graph || !layout) return;
  const placed = layout.edges.find(
    (edge) =>
      edge.edge.from === edgeElement.getAttribute('data-from') &&
      edge.edge.to === edgeElement.getAttribute('data-to') &&
      (edge.edge.label ?? null) === edgeElement.getAttribute('data-label'),
  );
  // A data edge's range is its consuming input; an implicit control edge falls back to the step it leads to.
  const destination = placed?.edge.range
    ? { range: placed.edge.range, file: placed.edge.file ?? graph.skill.file }
    : graph.nodes.find((node) => node.id === placed?.edge.to);
  if (destination) host.postMessage({ type: 'reveal', range: destination.range, file: destination.file });
});

svg.addEventListener('mouseover', (event) => {
  const marked = (event.target as Element).closest('[data-problems], [data-change]');
  if (!marked) {
    tooltip.hidden = true;
    return;
  }
  tooltip.textContent = ['data-change', 'data-problems'].flatMap((name) => marked.getAttribute(name) ?? []).join('\n');
  tooltip.hidden = false;
  tooltip.style.left = `${(event as MouseEvent).clientX + 12}px`;
  tooltip.style.top = `${(event as MouseEvent).clientY + 12}px`;
});
svg.addEventListener('mouseleave', () => (tooltip.hidden = true));

/** Arrow keys move focus to the nearest node in that direction. */
svg.addEventListener('keydown', (event) => {
  const current = (event.target as Element).closest('.node');
  if (!current || !layout) return;
  const id = current.getAttribute('data-id')!;
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    showNode(id);
    return;
  }
  const vector = ARROWS[event.key];
  if (!vector) return;
  event.preventDefault();
  const best = nearestInDirection(
    layout.nodes,
    layout.nodes.find((node) => node.node.id === id)!,
    vector,
  );
  if (best) focusNode(best.node.id);
});

function focusNode(id: string): void {
  selected = id;
  const element = nodeElement(id);
  const placed = layout?.nodes.find((node) => node.node.id === id);
  if (!element || !placed) return;
  element.focus();
  viewport.center(placed.x + placed.width / 2, placed.y + placed.height / 2);
}

let matches: string[] = [];
let matchIndex = 0;
search.addEventListener('input', () => {
  const query = search.value.trim().toLowerCase();
  for (const node of svg.querySelectorAll('.node.found')) node.classList.remove('found');
  matches =
    query === ''
      ? []
      : (layout?.nodes ?? [])
          .filter((node) => node.node.label.toLowerCase().includes(query))
          .map((node) => node.node.id);
  matchIndex = 0;
  for (const id of matches) nodeElement(id)?.classList.add('found');
  if (matches.length > 0) {
    const placed = layout!.nodes.find((node) => node.node.id === matches[0])!;
    viewport.center(placed.x + placed.width / 2, placed.y + placed.height / 2);
  }
});
search.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || matches.length === 0) return;
  matchIndex = (matchIndex + 1) % matches.length;
  focusNode(matches[matchIndex]);
});

document.addEventListener('keydown', (event) => {
  if (event.target === search) return;
  if (event.key === '+' || event.key === '=') viewport.zoom(1.2);
  if (event.key === '-') viewport.zoom(1 / 1.2);
  if (event.key === '0') fitView();
});
document.getElementById('zoom-in')!.addEventListener('click', () => viewport.zoom(1.2));
document.getElementById('zoom-out')!.addEventListener('click', () => viewport.zoom(1 / 1.2));
document.getElementById('fit')!.addEventListener('click', fitView);
// Automatic → left to right → top down → automatic; an explicit choice is remembered by the extension.
directionButton.addEventListener('click', () => {
  choice = choice === 'auto' ? 'RIGHT' : choice === 'RIGHT' ? 'DOWN' : 'auto';
  direction = choice === 'auto' ? shapeDirection() : choice;
  host.postMessage({ type: 'direction', direction: choice });
  fitted = false;
  if (graph) void show(graph);
});
focusButton.addEventListener('click', () => {
  focusMode = !focusMode;
  focusButton.setAttribute('aria-pressed', String(focusMode));
  fitted = false;
  if (graph) void show(graph);
});
changesButton.addEventListener('click', () =>
  host.postMessage({ type: 'changes', on: changesButton.getAttribute('aria-pressed') !== 'true' }),
);
contextButton.addEventListener('click', () => host.postMessage({ type: 'context', nodeId: selected ?? highlighted }));
document.getElementById('export-svg')!.addEventListener('click', () => {
  if (layout) host.postMessage({ type: 'export', format: 'svg', data: exportSvg(svg, layout) });
});
document.getElementById('export-png')!.addEventListener('click', async () => {
  if (layout)
    host.postMessage({
      type: 'export',
      format: 'png',
      data: await exportPng(exportSvg(svg, layout), layout.width, layout.height),
    });
});

/** The changes the host sent with a graph: the button's state, and the list (or why there is none). */
function showChanges(sent: Extract<HostMessage, { type: 'graph' }>['changes']): void {
  const answer = sent?.answer;
  const before = changes;
  changes = answer && 'commit' in answer ? answer : undefined;
  frameChanges ||= !before && changes !== undefined;
  changesButton.setAttribute('aria-pressed', String(sent !== undefined));
  changesButton.textContent = sent ? `Changes since ${sent.revision}` : 'Changes';
  changesList.hidden = sent === undefined;
  if (changes) renderChangeList(changesList, changes, pickChange);
  else if (answer && 'error' in answer) changesList.textContent = `No changes to show: ${answer.error}.`;
}

/** The last graph message drawn, as text: the host sends one again unchanged (on a save, a file beside it touched). */
let lastGraphMessage: string | undefined;

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message.type === 'graph') {
    // Drawn again, every node would be a new element: a click landing while it was swapped would be lost.
    const text = JSON.stringify(message);
    if (text === lastGraphMessage) return;
    lastGraphMessage = text;
    const next = message.direction === 'auto' ? shapeDirection(direction) : message.direction;
    if (next !== direction) fitted = false;
    choice = message.direction;
    direction = next;
    showChanges(message.changes);
    hasContext = message.context;
    void show(message.graph);
  } else if (message.type === 'highlight') {
    const moved = message.nodeId !== highlighted;
    highlighted = message.nodeId;
    if (!moved) return;
    if (focusMode && graph) {
      // A new centre: lay out its neighbourhood.
      fitted = false;
      void show(graph);
    } else {
      markHighlight();
      follow();
    }
  }
});

host.postMessage({ type: 'ready' });
