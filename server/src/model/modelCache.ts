import type { Diagnostic } from '../checks/diagnostic';
import { firstNotBefore } from '../parse/bisect';
import type { Span } from '../parse/lineIndex';
import { nodeStart, startPlace, type ChunkPlace } from '../parse/nodeRange';
import type { YamlSyntax } from '../parse/yamlSyntax';
import type { TextLike } from '../parse/textLike';
import type { Node } from 'yaml';
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
  /**
   * The paths its text mentions, found when first asked; their spans are added to `parts`, so they move with the
   * step's.
   */
  mentions?: PathMention[];
  /**
   * The paths mentioned between the step before and this one, found again when a step beside them changed; their spans
   * are the last in `parts`.
   */
  between?: PathMention[];
}

/**
 * Where `ModelCache.part` keeps what a reader made of a YAML node: on the node, as long as the chunk cache keeps it
 * (the node's chunk place lives there too).
 */
const KEPT = Symbol('kept part');
interface Kept {
  reader: string;
  index: number;
  named: boolean;
  start: number;
  value: unknown;
  parts: MovableParts;
  /** Where the node starts in its chunk (see `step`), once asked. */
  at?: { place: ChunkPlace; offset: number };
}
type Source = { [KEPT]?: Kept };

/** Moves what is kept to where its node now starts. */
function moveTo(kept: Kept, start: number): void {
  if (start !== kept.start) moveParts(kept.parts, start - kept.start);
  kept.start = start;
}

/** Where `ModelCache.edgesOf` keeps a node's edges: on the node, which a kept step keeps. */
const EDGES = Symbol('kept edges');
type WithEdges = { [EDGES]?: { after: string | undefined; edges: GraphEdge[] } };

/** `listOf(step)` for every step, one after another, and where each step's part ends. */
export function concatParts<T>(count: number, listOf: (step: number) => readonly T[]): { items: T[]; ends: number[] } {
  const items: T[] = [];
  const ends = new Array<number>(count);
  for (let step = 0; step < count; step++) {
    for (const item of listOf(step)) items.push(item);
    ends[step] = items.length;
  }
  return { items, ends };
}

/**
 * A list made of one part per step (see `ModelCache.perStep`): its items, where each step's part ends, what else it was
 * made from.
 */
interface StepLists<T = unknown> {
  analysis: number;
  key: readonly unknown[];
  items: T[];
  ends: number[];
}

/** What the checks over the whole graph found, and the data edges and external inputs they resolved. */
export interface GraphChecks {
  diagnostics: Diagnostic[];
  edges: GraphEdge[];
  externalInputs: Port[];
}

const SLASH = 0x2f;

/**
 * The paths mentioned from `start` to `end` of `text`: the text between steps is mostly a line break and a `- `, and a
 * path needs a `/`.
 */
function mentionsBetween(text: TextLike, start: number, end: number): PathMention[] {
  let slash = start;
  while (slash < end && text.charCodeAt(slash) !== SLASH) slash++;
  return slash < end ? findPathMentions(text, [{ start, end }]) : [];
}

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
 * The lists every step adds to (control edges, script and link findings,
 * declared paths, the findings about paths the text mentions) are kept one
 * part per step: an edit makes again only the parts of the steps it
 * changed, so it does not walk every step's part (`perStep`).
 *
 * Like the chunk cache's YAML nodes, a kept step is moved in place, not
 * copied: findings, data edges and external inputs hold the same span and
 * port objects, so they move with it at no cost, and an edit does not
 * allocate a copy of every step below it. An analysis is therefore current
 * only until the next analysis of the same skill, which is how the server
 * uses them (each request reads the latest one, synchronously).
 */
export class ModelCache {
  /**
   * This analysis's steps in the order the loader asked for them: the graph checks and mentions find a node's entry by
   * its index, not by a lookup.
   */
  private order: KeptStep[] = [];
  /** The last analysis's `order`, to tell which steps an edit changed. */
  private lastOrder: KeptStep[] = [];
  /** The YAML node each step of `order` was read from, and what is kept on it, by index. */
  private sources: { node: Node; kept: Kept }[] = [];
  private lastSources: { node: Node; kept: Kept }[] = [];
  /** Counts analyses: a list kept per step is spliced only into the analysis right after the one that made it. */
  private analysis = 0;
  private lastGraph?: {
    analysis: number;
    file: string;
    keys: string[];
    nodes: GraphNode[];
    edges: readonly GraphEdge[];
    checks: GraphChecks;
    placed?: PlacedChecks;
  };
  private readonly lists = new Map<string, StepLists>();
  private readonly sets = new Map<string, Set<unknown>>();

  /** Starts the next analysis of the skill. */
  nextAnalysis(): void {
    this.analysis++;
    this.lastOrder = this.order;
    this.order = [];
    this.lastSources = this.sources;
    this.sources = [];
  }

  /**
   * The indices at which this analysis's steps are not the last analysis's
   * (built again, or kept from another index), in order; undefined when the
   * two differ in length (a step added or removed: nothing lines up).
   * Pointer comparisons over two arrays, so it costs little per step.
   */
  private changedSteps(): number[] | undefined {
    const { order, lastOrder } = this;
    if (order.length !== lastOrder.length) return undefined;
    const changed: number[] = [];
    for (let index = 0; index < order.length; index++) if (order[index] !== lastOrder[index]) changed.push(index);
    return changed;
  }

  /**
   * The lists `listOf(step)` for every step, one after another: a list
   * (edges, findings, paths) each step adds its part to, which depends only
   * on that step, on `key` (compared item by item), and with
   * `readsPrevious` on the step before it too. While the steps line up with
   * the last analysis's and the key is the same, only the parts of the steps
   * that changed (and of the steps after those, with `readsPrevious`) are
   * made again; the others are last time's, the same objects, which moved
   * with their steps. So an edit in one step does not walk every step's
   * part. `same`: every part made again holds last time's items (the same
   * objects, or equal strings), so the whole list does. The list is
   * read-only: it may be last time's.
   */
  perStep<T>(
    name: string,
    count: number,
    key: readonly unknown[],
    readsPrevious: boolean,
    listOf: (step: number) => readonly T[],
  ): { items: readonly T[]; same: boolean } {
    const last = this.lists.get(name) as StepLists<T> | undefined;
    const lined =
      last &&
      last.analysis === this.analysis - 1 &&
      last.ends.length === count &&
      this.order.length === count &&
      sameList(last.key, key, Object.is);
    const changed = lined ? this.changedSteps() : undefined;
    if (!last || !changed) {
      const { items, ends } = concatParts(count, listOf);
      this.lists.set(name, { analysis: this.analysis, key, items, ends });
      return { items, same: false };
    }
    const redo: number[] = [];
    for (const step of changed) {
      if (redo[redo.length - 1] !== step) redo.push(step);
      if (readsPrevious && step + 1 < count) redo.push(step + 1);
    }
    if (redo.length === 0) {
      last.analysis = this.analysis;
      return { items: last.items, same: true };
    }
    const startOf = (step: number) => (step === 0 ? 0 : last.ends[step - 1]);
    const parts = redo.map((step) => listOf(step));
    let same = true;
    let resized = false;
    parts.forEach((part, at) => {
      const was = startOf(redo[at]);
      if (part.length !== last.ends[redo[at]] - was) {
        resized = true;
        same = false;
      } else if (same && part.some((item, index) => item !== last.items[was + index])) same = false;
    });
    if (!resized) {
      // Typing in a step's prose: every part keeps its length, so last time's list is copied whole and the new parts
      // written over theirs.
      const items = last.items.slice();
      parts.forEach((part, at) => part.forEach((item, index) => (items[startOf(redo[at]) + index] = item)));
      this.lists.set(name, { analysis: this.analysis, key, items, ends: last.ends });
      return { items, same };
    }
    const items: T[] = [];
    const ends = new Array<number>(count);
    let next = 0;
    // Last time's parts of the steps from `next` up to `step`, as they were.
    const copyUpTo = (step: number) => {
      const from = startOf(next);
      const shift = items.length - from;
      for (let index = from; index < startOf(step); index++) items.push(last.items[index]);
      for (let kept = next; kept < step; kept++) ends[kept] = last.ends[kept] + shift;
    };
    redo.forEach((step, at) => {
      copyUpTo(step);
      for (const item of parts[at]) items.push(item);
      ends[step] = items.length;
      next = step + 1;
    });
    copyUpTo(count);
    this.lists.set(name, { analysis: this.analysis, key, items, ends });
    return { items, same };
  }

  /** The entry of `nodes[index]`, if this analysis built or kept it. */
  private entryAt(nodes: GraphNode[], index: number): KeptStep | undefined {
    const entry = this.order[index];
    return entry?.node === nodes[index] ? entry : undefined;
  }

  /**
   * The node `loader` reads from the YAML node `source` of `yaml` at list
   * position `index`. `read` may add to the key what else of the step its
   * graph checks read.
   */
  step(
    source: Node,
    loader: string,
    index: number,
    yaml: YamlSyntax,
    read: (yaml: YamlSyntax, item: Node, index: number) => { node: GraphNode; key?: string },
  ): GraphNode {
    const last = this.lastSources[index];
    if (last?.node === source && last.kept.reader === loader && last.kept.at) {
      // The same node at the same index as last time: kept without reading the node, whose chunk's place (just moved by
      // the chunk cache) gives its start. At 1,000 steps, reading every step's node cost more than moving the steps
      // below an edit.
      const { kept } = last;
      moveTo(kept, yaml.base + kept.at!.place.offset + kept.at!.offset);
      this.sources.push(last);
      this.order.push(kept.value as KeptStep);
      return (kept.value as KeptStep).node;
    }
    const entry = this.part(source, loader, index, yaml.base + nodeStart(source)!, () => {
      const built = read(yaml, source, index);
      const kept: KeptStep = {
        node: built.node,
        key: graphKey(built.node) + (built.key ?? ''),
        parts: movablePartsIn(built.node),
      };
      return { value: kept, named: built.node.id !== `steps[${index}]`, parts: kept.parts };
    });
    const kept = (source as Source)[KEPT]!;
    kept.at ??= startPlace(source);
    this.sources.push({ node: source, kept });
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
  part<T>(
    source: object,
    reader: string,
    index: number,
    start: number,
    build: () => { value: T; named: boolean; parts: MovableParts },
  ): T {
    const kept = (source as Source)[KEPT];
    if (kept && kept.reader === reader && (kept.named || kept.index === index)) {
      moveTo(kept, start);
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
    Object.defineProperty(node, EDGES, {
      value: { after, edges },
      configurable: true,
      writable: true,
      enumerable: false,
    });
    return edges;
  }

  /** The set of a `perStep` list's items: last time's set while the list is the same, so it can stand in a key. */
  setOf<T>(name: string, list: { items: readonly T[]; same: boolean }): ReadonlySet<T> {
    const last = this.sets.get(name) as Set<T> | undefined;
    if (last && list.same) return last;
    const set = new Set(list.items);
    this.sets.set(name, set);
    return set;
  }

  /**
   * `check` of the paths mentioned in `region` of `text` (the block holding
   * the steps), as `findPathMentions` finds them, in text order. Each step
   * owns the mentions in its text and in the text between it and the step
   * before: a kept step's are not searched for again (they move with it),
   * and while `key` (what `check` reads besides the mentions) is the same,
   * neither are its findings looked at (see `perStep`). The text before the
   * first step and after the last is searched every time.
   */
  mentionFindings(
    text: TextLike,
    region: Span,
    nodes: GraphNode[],
    key: readonly unknown[],
    check: (mentions: PathMention[]) => Diagnostic[],
  ): Diagnostic[] {
    // Steps not read through this cache: search the block whole.
    if (nodes.length === 0 || this.order.length !== nodes.length) return check(findPathMentions(text, [region]));
    let disordered = false;
    const part = (step: number): Diagnostic[] => {
      const node = nodes[step];
      const from = step === 0 ? node.span.start : nodes[step - 1].span.end;
      const entry = this.entryAt(nodes, step);
      // Steps out of text order, or not read through this cache: the block is searched whole below.
      if (!entry || node.span.start < from || node.span.end > region.end) {
        disordered = true;
        return [];
      }
      if (!entry.mentions) {
        entry.mentions = findPathMentions(text, [node.span]);
        for (const mention of entry.mentions) entry.parts.spans.push(mention.span);
      }
      // The text between steps is searched again only when a step beside it changed; its mentions' spans are the last
      // ones in `parts`, so they move with the step and are replaced here.
      if (entry.between) entry.parts.spans.length -= entry.between.length;
      entry.between = mentionsBetween(text, from, node.span.start);
      for (const mention of entry.between) entry.parts.spans.push(mention.span);
      return check(entry.between.length === 0 ? entry.mentions : [...entry.between, ...entry.mentions]);
    };
    const steps = this.perStep('mention findings', nodes.length, key, true, part);
    if (disordered) {
      this.lists.delete('mention findings');
      return check(findPathMentions(text, [region]));
    }
    return [
      ...check(mentionsBetween(text, region.start, nodes[0].span.start)),
      ...steps.items,
      ...check(mentionsBetween(text, nodes[nodes.length - 1].span.end, region.end)),
    ];
  }

  /**
   * `run()`'s checks of the graph of `nodes` and `edges` (the control
   * edges), or the last run's findings moved onto these nodes when the graph
   * is the same. Runs them whenever a finding cannot be placed on a step.
   */
  graphChecks(file: string, nodes: GraphNode[], edges: readonly GraphEdge[], run: () => GraphChecks): GraphChecks {
    const last = this.lastGraph;
    const keyAt = (index: number) => this.entryAt(nodes, index)?.key ?? graphKey(nodes[index]);
    // The keys of steps that did not change are last time's: only the changed ones are looked up.
    const changed =
      last &&
      last.analysis === this.analysis - 1 &&
      last.keys.length === nodes.length &&
      this.order.length === nodes.length
        ? this.changedSteps()
        : undefined;
    let keys: string[];
    if (last && changed) {
      keys = last.keys.slice();
      for (const index of changed) keys[index] = keyAt(index);
    } else {
      keys = nodes.map((_, index) => keyAt(index));
    }
    if (
      last?.placed &&
      last.file === file &&
      sameList(last.keys, keys, (a, b) => a === b) &&
      sameList(last.edges, edges, sameEdge)
    ) {
      const checks = movedChecks(last.placed, last.checks, last.nodes, nodes);
      this.lastGraph = { ...last, analysis: this.analysis, nodes, edges, checks };
      return checks;
    }
    const checks = run();
    this.lastGraph = { analysis: this.analysis, file, keys, nodes, edges, checks, placed: placeChecks(checks, nodes) };
    return checks;
  }
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (a: T, b: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (!same(a[index], b[index])) return false;
  return true;
}

function sameEdge(a: GraphEdge, b: GraphEdge): boolean {
  return (
    a === b || (a.from === b.from && a.to === b.to && a.kind === b.kind && a.label === b.label && !a.span === !b.span)
  );
}

/** Everything of a step the format-neutral graph checks read: names, kinds, ports, references. Not spans, not prose. */
function graphKey(node: GraphNode): string {
  const ports = (list: Port[]) =>
    list
      .map(
        (port) =>
          `${port.name}\u0002${port.type ?? ''}\u0002${port.nullable}\u0002${port.typeSpan ? 1 : 0}\u0002${port.feeds ?? ''}`,
      )
      .join('\u0003');
  const refs = node.controlRefs.map((ref) => `${ref.via}\u0002${ref.target}\u0002${ref.label ?? ''}`).join('\u0003');
  return `${node.id}\u0001${node.kind}\u0001${node.label}\u0001${ports(node.inputs)}\u0001${ports(node.outputs)}\u0001${refs}`;
}

/** The spans of a step the graph checks can point at, in a fixed order, so one step's can be matched with another's. */
function spansOf(node: GraphNode): Span[] {
  const spans = [node.span, node.nameSpan];
  for (const port of [...node.inputs, ...node.outputs])
    spans.push(port.span, port.nameSpan, ...(port.typeSpan ? [port.typeSpan] : []));
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

/**
 * The places of everything in `checks`, or undefined when something is not a step's own span or port (then the checks
 * run every time).
 */
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
    const place = {
      ...(edge.span ? { span: spanPlace(edge.span) } : {}),
      ...(edge.consumer ? { consumer: portPlace(edge.consumer) } : {}),
      ...(edge.producer ? { producer: portPlace(edge.producer) } : {}),
    };
    if ((edge.span && !place.span) || (edge.consumer && !place.consumer) || (edge.producer && !place.producer))
      return undefined;
    edges.push(place);
    for (const step of new Set([place.span?.[0], place.consumer?.[0], place.producer?.[0]]))
      if (step !== undefined) holding(step).edges.push(index);
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
  for (let step = 0; step < after.length; step++)
    if (before[step] !== after[step] && placed.byStep.has(step)) rebuilt.push(step);
  if (rebuilt.length === 0) return checks;
  const span = ([step, at]: SpanPlace): Span => spansOf(after[step])[at];
  const port = ([step, list, at]: PortPlace): Port => after[step][list][at];
  const moved: GraphChecks = {
    diagnostics: [...checks.diagnostics],
    edges: [...checks.edges],
    externalInputs: [...checks.externalInputs],
  };
  for (const step of rebuilt) {
    const held = placed.byStep.get(step)!;
    for (const index of held.diagnostics)
      moved.diagnostics[index] = { ...checks.diagnostics[index], span: span(placed.diagnostics[index]) };
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
