import type { Diagnostic } from '../checks/diagnostic';
import { firstNotBefore } from '../parse/bisect';
import type { Span } from '../parse/lineIndex';
import { findPathMentions, type PathMention } from '../parse/pathMentions';
import { movablePartsIn, moveParts, type MovableParts } from './spansIn';
import type { GraphEdge, GraphNode, Port } from './skillModel';

/** A step as one loader built it from one YAML node. */
interface KeptStep {
  node: GraphNode;
  /** What of the step the graph checks read (see `graphKey`). */
  key: string;
  /** What moves when the step moves. */
  parts: MovableParts;
  /** The paths its text mentions, found when first asked; their spans are added to `parts`, so they move with the step's. */
  mentions?: PathMention[];
}

/** Where `ModelCache.part` keeps what a reader made of a YAML node: on the node, as long as the chunk cache keeps it (the node's chunk place lives there too). */
const KEPT = Symbol('kept part');
type Source = { [KEPT]?: { reader: string; index: number; named: boolean; start: number; value: unknown; parts: MovableParts } };

/** Where `ModelCache.edgesOf` keeps a node's edges: on the node, which a kept step keeps. */
const EDGES = Symbol('kept edges');
type WithEdges = { [EDGES]?: { after: string | undefined; edges: GraphEdge[] } };

/** What the checks over the whole graph found, and the data edges and external inputs they resolved. */
export interface GraphChecks {
  diagnostics: Diagnostic[];
  edges: GraphEdge[];
  externalInputs: Port[];
}

const SLASH = 0x2f;

/**
 * Parts of a skill's model kept between analyses of successive versions of
 * its text, so an edit inside one step costs about the same however many
 * steps there are. The language server keeps one per skill, beside its
 * YAML chunk cache; the CLI analyses each skill once and uses none.
 *
 * Steps are kept on the YAML node they were read from: the chunk cache
 * hands back the same node while the step's text is unchanged, so a kept
 * step is reused, its spans moved if text above it grew or shrank. The
 * checks over the whole graph are kept with the graph they ran on: when an
 * edit leaves every name, type, reference and edge as it was (typing in a
 * description), their findings are the same, only moved with the steps.
 *
 * Like the chunk cache's YAML nodes, a kept step is moved in place, not
 * copied: findings, data edges and external inputs hold the same span and
 * port objects, so they move with it at no cost, and an edit does not
 * allocate a copy of every step below it. An analysis is therefore current
 * only until the next analysis of the same skill, which is how the server
 * uses them (each request reads the latest one, synchronously).
 */
export class ModelCache {
  /** This analysis's steps in the order the loader asked for them: the graph checks and mentions find a node's entry by its index, not by a lookup. */
  private order: KeptStep[] = [];
  private lastGraph?: { file: string; keys: string[]; nodes: GraphNode[]; edges: GraphEdge[]; checks: GraphChecks; placed?: PlacedChecks };

  /** Starts the next analysis of the skill. */
  nextAnalysis(): void {
    this.order = [];
  }

  /** The entry of `nodes[index]`, if this analysis built or kept it. */
  private entryAt(nodes: GraphNode[], index: number): KeptStep | undefined {
    const entry = this.order[index];
    return entry?.node === nodes[index] ? entry : undefined;
  }

  /**
   * The node `loader` builds from the YAML node `source` at list position
   * `index`, whose span now starts at `start`. `build` may add to the key
   * what else of the step its graph checks read.
   */
  step(source: object, loader: string, index: number, start: number, build: () => { node: GraphNode; key?: string }): GraphNode {
    const entry = this.part(source, loader, index, start, () => {
      const built = build();
      const kept: KeptStep = { node: built.node, key: graphKey(built.node) + (built.key ?? ''), parts: movablePartsIn(built.node) };
      return { value: kept, named: built.node.id !== `steps[${index}]`, parts: kept.parts };
    });
    this.order.push(entry);
    return entry.node;
  }

  /**
   * What `reader` reads from the YAML node `source` at list position `index`
   * (a graph step through `step`, a MetaSkill step): the same object while
   * the chunk cache hands back the same node, its `parts` moved to the
   * node's new `start`. A part without a name (`named` false) is kept only
   * at the same position; the caller updates what holds the position.
   */
  part<T>(source: object, reader: string, index: number, start: number, build: () => { value: T; named: boolean; parts: MovableParts }): T {
    const kept = (source as Source)[KEPT];
    if (kept && kept.reader === reader && (kept.named || kept.index === index)) {
      if (start !== kept.start) moveParts(kept.parts, start - kept.start);
      kept.start = start;
      kept.index = index;
      return kept.value as T;
    }
    const built = build();
    (source as Source)[KEPT] = { reader, index, named: built.named, start, value: built.value, parts: built.parts };
    return built.value;
  }

  /**
   * The edges `build` makes for `node`, the same objects as last time while
   * the node is kept and `after` (what else they read: the name of the step
   * before it) is the same: an edit then allocates no edge per step, and the
   * graph checks compare last time's edges by identity.
   */
  edgesOf(node: GraphNode, after: string | undefined, build: () => GraphEdge[]): GraphEdge[] {
    const kept = (node as WithEdges)[EDGES];
    if (kept && kept.after === after) return kept.edges;
    const edges = build();
    // Not enumerable: models compared or serialised do not show it.
    Object.defineProperty(node, EDGES, { value: { after, edges }, configurable: true, writable: true, enumerable: false });
    return edges;
  }

  /**
   * The paths mentioned in `region` of `text` (the block holding the
   * steps), as `findPathMentions` finds them: a kept step's are not
   * searched for again (they move with it); only new steps and the text
   * between steps are searched.
   */
  mentions(text: string, region: Span, nodes: GraphNode[]): PathMention[] {
    const found: PathMention[] = [];
    let from = region.start;
    const between = (end: number) => {
      // Most of the text between steps is a line break and a `- `: a path needs a `/`.
      // Looked for in the gap alone: a search from `from` on would run into the next steps' text each time.
      let slash = from;
      while (slash < end && text.charCodeAt(slash) !== SLASH) slash++;
      if (slash < end) found.push(...findPathMentions(text, [{ start: from, end }]));
    };
    for (const [index, node] of nodes.entries()) {
      const entry = this.entryAt(nodes, index);
      // Steps out of text order, or not read through this cache: search the block whole.
      if (!entry || node.span.start < from || node.span.end > region.end) return findPathMentions(text, [region]);
      between(node.span.start);
      if (!entry.mentions) {
        entry.mentions = findPathMentions(text, [node.span]);
        for (const mention of entry.mentions) entry.parts.spans.push(mention.span);
      }
      found.push(...entry.mentions);
      from = node.span.end;
    }
    between(region.end);
    return found;
  }

  /**
   * `run()`'s checks of the graph of `nodes` and `edges` (the control
   * edges), or the last run's findings moved onto these nodes when the graph
   * is the same. Runs them whenever a finding cannot be placed on a step.
   */
  graphChecks(file: string, nodes: GraphNode[], edges: GraphEdge[], run: () => GraphChecks): GraphChecks {
    const keys = nodes.map((node, index) => this.entryAt(nodes, index)?.key ?? graphKey(node));
    const last = this.lastGraph;
    if (last?.placed && last.file === file && sameList(last.keys, keys, (a, b) => a === b) && sameList(last.edges, edges, sameEdge)) {
      const checks = movedChecks(last.placed, last.checks, last.nodes, nodes);
      this.lastGraph = { ...last, nodes, edges, checks };
      return checks;
    }
    const checks = run();
    this.lastGraph = { file, keys, nodes, edges, checks, placed: placeChecks(checks, nodes) };
    return checks;
  }
}

function sameList<T>(a: T[], b: T[], same: (a: T, b: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (!same(a[index], b[index])) return false;
  return true;
}

function sameEdge(a: GraphEdge, b: GraphEdge): boolean {
  return a === b || (a.from === b.from && a.to === b.to && a.kind === b.kind && a.label === b.label && !a.span === !b.span);
}

/** Everything of a step the format-neutral graph checks read: names, kinds, ports, references. Not spans, not prose. */
function graphKey(node: GraphNode): string {
  const ports = (list: Port[]) => list.map((port) => `${port.name}\u0002${port.type ?? ''}\u0002${port.nullable}\u0002${port.typeSpan ? 1 : 0}\u0002${port.feeds ?? ''}`).join('\u0003');
  const refs = node.controlRefs.map((ref) => `${ref.via}\u0002${ref.target}\u0002${ref.label ?? ''}`).join('\u0003');
  return `${node.id}\u0001${node.kind}\u0001${node.label}\u0001${ports(node.inputs)}\u0001${ports(node.outputs)}\u0001${refs}`;
}

/** The spans of a step the graph checks can point at, in a fixed order, so one step's can be matched with another's. */
function spansOf(node: GraphNode): Span[] {
  const spans = [node.span, node.nameSpan];
  for (const port of [...node.inputs, ...node.outputs]) spans.push(port.span, port.nameSpan, ...(port.typeSpan ? [port.typeSpan] : []));
  for (const ref of node.controlRefs) spans.push(ref.span);
  return spans;
}

/** The index of the step whose span holds `span` (steps are in text order), or -1. */
function stepHolding(nodes: GraphNode[], span: Span): number {
  const high = firstNotBefore(nodes.length, (index) => nodes[index].span.start <= span.start) - 1;
  return high >= 0 && span.end <= nodes[high].span.end ? high : -1;
}

/** Where a span of the graph checks is: which step, which of its spans (`spansOf`). */
type SpanPlace = [step: number, at: number];
/** Where a port is: which step, which list, which item. */
type PortPlace = [step: number, list: 'inputs' | 'outputs', at: number];

/**
 * Where every span and port the checks returned sits among the steps, found
 * once per run and valid while the graph stays the same; and, per step,
 * which findings, edges and external inputs hold something of it.
 */
interface PlacedChecks {
  diagnostics: SpanPlace[];
  edges: { span?: SpanPlace; consumer?: PortPlace; producer?: PortPlace }[];
  externalInputs: PortPlace[];
  byStep: Map<number, { diagnostics: number[]; edges: number[]; externalInputs: number[] }>;
}

/** The places of everything in `checks`, or undefined when something is not a step's own span or port (then the checks run every time). */
function placeChecks(checks: GraphChecks, nodes: GraphNode[]): PlacedChecks | undefined {
  const byStep: PlacedChecks['byStep'] = new Map();
  const holding = (step: number) => {
    let held = byStep.get(step);
    if (!held) byStep.set(step, (held = { diagnostics: [], edges: [], externalInputs: [] }));
    return held;
  };
  const spanPlace = (span: Span): SpanPlace | undefined => {
    const step = stepHolding(nodes, span);
    const at = step === -1 ? -1 : spansOf(nodes[step]).indexOf(span);
    return at === -1 ? undefined : [step, at];
  };
  const portPlace = (port: Port): PortPlace | undefined => {
    const step = stepHolding(nodes, port.span);
    const list = port.direction === 'input' ? 'inputs' : 'outputs';
    const at = step === -1 ? -1 : nodes[step][list].indexOf(port);
    return at === -1 ? undefined : [step, list, at];
  };
  const diagnostics: SpanPlace[] = [];
  for (const [index, item] of checks.diagnostics.entries()) {
    const place = spanPlace(item.span);
    if (!place) return undefined;
    diagnostics.push(place);
    holding(place[0]).diagnostics.push(index);
  }
  const edges: PlacedChecks['edges'] = [];
  for (const [index, edge] of checks.edges.entries()) {
    const place = { ...(edge.span ? { span: spanPlace(edge.span) } : {}), ...(edge.consumer ? { consumer: portPlace(edge.consumer) } : {}), ...(edge.producer ? { producer: portPlace(edge.producer) } : {}) };
    if ((edge.span && !place.span) || (edge.consumer && !place.consumer) || (edge.producer && !place.producer)) return undefined;
    edges.push(place);
    for (const step of new Set([place.span?.[0], place.consumer?.[0], place.producer?.[0]])) if (step !== undefined) holding(step).edges.push(index);
  }
  const externalInputs: PortPlace[] = [];
  for (const [index, input] of checks.externalInputs.entries()) {
    const place = portPlace(input);
    if (!place) return undefined;
    externalInputs.push(place);
    holding(place[0]).externalInputs.push(index);
  }
  return { diagnostics, edges, externalInputs, byStep };
}

/**
 * The last checks on the same graph's new nodes. Kept steps were moved in
 * place, so what they hold is already right; only what a rebuilt step (the
 * one edited) holds is pointed at its new spans and ports.
 */
function movedChecks(placed: PlacedChecks, checks: GraphChecks, before: GraphNode[], after: GraphNode[]): GraphChecks {
  const rebuilt: number[] = [];
  for (let step = 0; step < after.length; step++) if (before[step] !== after[step] && placed.byStep.has(step)) rebuilt.push(step);
  if (rebuilt.length === 0) return checks;
  const span = ([step, at]: SpanPlace): Span => spansOf(after[step])[at];
  const port = ([step, list, at]: PortPlace): Port => after[step][list][at];
  const moved: GraphChecks = { diagnostics: [...checks.diagnostics], edges: [...checks.edges], externalInputs: [...checks.externalInputs] };
  for (const step of rebuilt) {
    const held = placed.byStep.get(step)!;
    for (const index of held.diagnostics) moved.diagnostics[index] = { ...checks.diagnostics[index], span: span(placed.diagnostics[index]) };
    for (const index of held.edges) {
      const place = placed.edges[index];
      const copy: GraphEdge = { ...checks.edges[index] };
      if (place.span) copy.span = span(place.span);
      if (place.consumer) copy.consumer = port(place.consumer);
      if (place.producer) copy.producer = port(place.producer);
      moved.edges[index] = copy;
    }
    for (const index of held.externalInputs) moved.externalInputs[index] = port(placed.externalInputs[index]);
  }
  return moved;
}
