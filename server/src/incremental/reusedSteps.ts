import type { Node } from 'yaml';
import { movablePartsIn, moveParts, type MovableParts } from '../model/spansIn';
import type { GraphEdge, GraphNode, Port } from '../model/skillModel';
import { nodeStart, startPlace, type ChunkPlace } from '../parse/yaml/nodeRange';
import type { PathMention } from '../parse/markdown/pathMentions';
import type { YamlSyntax } from '../parse/yaml/yamlSyntax';

/** A step as one loader built it from one YAML node. */
export interface ReusedStep {
  node: GraphNode;
  /** What else of the step its graph checks read, as its reader said (see `stepKey`). */
  readKey: string;
  /** `stepKey`'s answer, once asked. */
  key?: string;
  /** What moves when the step moves. */
  parts: MovableParts;
  /**
   * The paths its text mentions, found when first asked; their spans are added to `parts`, so they move with the
   * step's.
   */
  mentions?: PathMention[];
  /**
   * The paths mentioned between the step before and this one, found again when a step beside them changed; their spans
   * are the last in `parts`, followed by the span of the text they were found in (their `context`), when there are any.
   */
  between?: PathMention[];
}

/** What `ReusedSteps.part` kept of a YAML node: what a reader made of it, and where the node then started. */
interface Reused {
  reader: string;
  index: number;
  named: boolean;
  start: number;
  value: unknown;
  parts: MovableParts;
  /** Where the node starts in its chunk (see `step`), once asked. */
  at?: { place: ChunkPlace; offset: number };
}

/** Moves what is kept to where its node now starts. */
function moveTo(reused: Reused, start: number): void {
  if (start !== reused.start) moveParts(reused.parts, start - reused.start);
  reused.start = start;
}

/**
 * The steps of a skill's model kept between analyses of successive
 * versions of its text, so an edit inside one step costs about the same
 * however many steps there are.
 *
 * A step is kept with the YAML node it was read from: the chunk cache hands
 * back the same node while the step's text is unchanged, so the step is
 * reused, its spans moved if text above it grew or shrank. Like the chunk
 * cache's nodes, a reused step is moved in place, not copied: findings, data
 * edges and external inputs hold the same span and port objects, so they
 * move with it at no cost. A model is therefore current only until the next
 * analysis with the same state.
 *
 * This analysis's steps are listed in the order the loader asked for them
 * (`entryAt`), and compared with the last analysis's (`changedSteps`): the
 * lists kept per step and the reused graph checks make again only what the
 * changed steps hold.
 */
export class ReusedSteps {
  private order: ReusedStep[] = [];
  /** The last analysis's `order`, to tell which steps an edit changed. */
  private lastOrder: ReusedStep[] = [];
  /** The YAML node each step of `order` was read from, and what is kept of it, by index. */
  private sources: { node: Node; reused: Reused }[] = [];
  private lastSources: { node: Node; reused: Reused }[] = [];
  /** What readers made of YAML nodes, for as long as a node lives (the chunk cache keeps unchanged ones). */
  private readonly reusedOf = new WeakMap<object, Reused>();
  /** The edges made for a step, and what else they read (`edgesOf`), for as long as the step is kept. */
  private readonly edgesReused = new WeakMap<GraphNode, { after: string | undefined; edges: GraphEdge[] }>();
  private analyses = 0;

  /** Counts analyses: what is kept per step is spliced only into the analysis right after the one that made it. */
  get analysis(): number {
    return this.analyses;
  }

  /** How many steps this analysis has asked for so far. */
  get count(): number {
    return this.order.length;
  }

  /** Starts the next analysis of the skill. */
  nextAnalysis(): void {
    this.analyses++;
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
  changedSteps(): number[] | undefined {
    const { order, lastOrder } = this;
    if (order.length !== lastOrder.length) return undefined;
    const changed: number[] = [];
    for (let index = 0; index < order.length; index++) if (order[index] !== lastOrder[index]) changed.push(index);
    return changed;
  }

  /** The entry of `nodes[index]`, if this analysis built or kept it. */
  entryAt(nodes: readonly GraphNode[], index: number): ReusedStep | undefined {
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
    if (last?.node === source && last.reused.reader === loader && last.reused.at) {
      // The same node at the same index as last time: kept without reading the node, whose chunk's place (just moved by
      // the chunk cache) gives its start. At 1,000 steps, reading every step's node cost more than moving the steps
      // below an edit.
      const { reused } = last;
      moveTo(reused, yaml.base + reused.at!.place.offset + reused.at!.offset);
      this.sources.push(last);
      this.order.push(reused.value as ReusedStep);
      return (reused.value as ReusedStep).node;
    }
    const entry = this.part(source, loader, index, yaml.base + nodeStart(source)!, () => {
      const built = read(yaml, source, index);
      const reused: ReusedStep = { node: built.node, readKey: built.key ?? '', parts: movablePartsIn(built.node) };
      return { value: reused, named: built.node.id !== `steps[${index}]`, parts: reused.parts };
    });
    const reused = this.reusedOf.get(source)!;
    reused.at ??= startPlace(source);
    this.sources.push({ node: source, reused });
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
    const reused = this.reusedOf.get(source);
    if (reused && reused.reader === reader && (reused.named || reused.index === index)) {
      moveTo(reused, start);
      reused.index = index;
      return reused.value as T;
    }
    const built = build();
    this.reusedOf.set(source, { reader, index, named: built.named, start, value: built.value, parts: built.parts });
    return built.value;
  }

  /**
   * The edges `build` makes for `node`, the same objects as last time while
   * the node is kept and `after` (what else they read: the name of the step
   * before it) is the same: an edit then allocates no edge per step, and the
   * graph checks compare last time's edges by identity.
   */
  edgesOf(node: GraphNode, after: string | undefined, build: () => GraphEdge[]): GraphEdge[] {
    const reused = this.edgesReused.get(node);
    if (reused && reused.after === after) return reused.edges;
    const edges = build();
    this.edgesReused.set(node, { after, edges });
    return edges;
  }
}

/**
 * What of a reused step its graph checks read, made when first asked: only an analysis after the one that built it, of
 * the same file, compares it (`ReusedGraphChecks`); a diff of two folders never does.
 */
export function stepKey(entry: ReusedStep): string {
  return (entry.key ??= graphKey(entry.node) + entry.readKey);
}

/** Everything of a step the format-neutral graph checks read: names, kinds, ports, references. Not spans, not prose. */
export function graphKey(node: GraphNode): string {
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
