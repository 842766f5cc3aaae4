import type { Diagnostic } from '../checks/engine/diagnostic';
import type { GraphEdge, GraphNode, Port } from '../model/skillModel';
import { firstNotBefore } from '../parse/text/bisect';
import type { Span } from '../parse/text/lineIndex';
import { graphKey, stepKey, type ReusedSteps } from './reusedSteps';
import { sameItems } from './stepLists';

/** What the checks over the whole graph found, and the data edges and external inputs they resolved. */
export interface GraphChecks {
  diagnostics: Diagnostic[];
  edges: GraphEdge[];
  externalInputs: Port[];
}

/** The last run of the checks, and what of it the next analysis compares and moves. */
interface LastRun {
  analysis: number;
  file: string;
  nodes: GraphNode[];
  edges: readonly GraphEdge[];
  checks: GraphChecks;
  /** The steps' keys, when the run could take them from the run before's (else made by `nextAnalysis`). */
  keys?: string[];
  /** Where the findings sit among the steps (`at` undefined: not all on a step), once `nextAnalysis` placed them. */
  placed?: { at: PlacedChecks | undefined };
}

/**
 * The checks over a whole graph, kept with the graph they ran on: when an
 * edit leaves every name, type, reference and edge as it was (typing in a
 * description), their findings are the same, only moved with the steps
 * (`ReusedSteps` moves reused steps in place; a rebuilt step's findings are
 * pointed at its new spans here).
 *
 * What the comparison needs (the steps' keys, where each finding sits) is
 * worked out when the next analysis starts, before it moves a step, and
 * only when it reads the same file: a diff of two folders, whose findings
 * name another file, pays nothing for it.
 */
export class ReusedGraphChecks {
  private last?: LastRun;

  constructor(private readonly steps: ReusedSteps) {}

  /**
   * Starts an analysis of `file`: the last run's checks are dropped when it
   * was of another file, else its keys and places are worked out while its
   * steps stand where the checks found them. Called before `ReusedSteps`
   * starts the analysis, so the last analysis's steps are still listed.
   */
  nextAnalysis(file: string): void {
    const { last } = this;
    if (!last) return;
    if (last.file !== file) {
      this.last = undefined;
      return;
    }
    if (last.placed) return;
    last.keys ??= last.nodes.map((_, index) => this.keyAt(last.nodes, index));
    last.placed = { at: placeChecks(last.checks, last.nodes) };
  }

  /**
   * `run()`'s checks of the graph of `nodes` and `edges` (the control
   * edges), or the last run's findings moved onto these nodes when the graph
   * is the same. Runs them whenever a finding cannot be placed on a step.
   */
  of(file: string, nodes: GraphNode[], edges: readonly GraphEdge[], run: () => GraphChecks): GraphChecks {
    const { last, steps } = this;
    let keys: string[] | undefined;
    if (last?.keys && last.placed) {
      // The keys of steps that did not change are last time's: only the changed ones are looked up.
      const changed =
        last.analysis === steps.analysis - 1 && last.keys.length === nodes.length && steps.count === nodes.length
          ? steps.changedSteps()
          : undefined;
      if (changed) {
        keys = last.keys.slice();
        for (const index of changed) keys[index] = this.keyAt(nodes, index);
      } else {
        keys = nodes.map((_, index) => this.keyAt(nodes, index));
      }
      if (last.placed.at && sameItems(last.keys, keys, (a, b) => a === b) && sameItems(last.edges, edges, sameEdge)) {
        const checks = movedChecks(last.placed.at, last.checks, last.nodes, nodes);
        this.last = { ...last, analysis: steps.analysis, nodes, edges, checks };
        return checks;
      }
    }
    const checks = run();
    this.last = { analysis: steps.analysis, file, nodes, edges, checks, ...(keys ? { keys } : {}) };
    return checks;
  }

  /** The key of `nodes[index]`: its reused entry's, when this analysis listed it. */
  private keyAt(nodes: GraphNode[], index: number): string {
    const entry = this.steps.entryAt(nodes, index);
    return entry ? stepKey(entry) : graphKey(nodes[index]);
  }
}

function sameEdge(a: GraphEdge, b: GraphEdge): boolean {
  return (
    a === b || (a.from === b.from && a.to === b.to && a.kind === b.kind && a.label === b.label && !a.span === !b.span)
  );
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
  // A step's spans are listed once per run, not once per finding or edge that points into it.
  const spansByStep = new Map<number, Span[]>();
  const spansAt = (step: number) => {
    let spans = spansByStep.get(step);
    if (!spans) spansByStep.set(step, (spans = spansOf(nodes[step])));
    return spans;
  };
  const spanPlace = (span: Span): SpanPlace | undefined => {
    const step = stepHolding(nodes, span);
    const at = step === -1 ? -1 : spansAt(step).indexOf(span);
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
  // Every data edge is placed (thousands in a large procedure): built field by field, each step it holds once.
  const edges: PlacedChecks['edges'] = [];
  for (const [index, edge] of checks.edges.entries()) {
    const place: PlacedChecks['edges'][number] = {};
    if (edge.span && !(place.span = spanPlace(edge.span))) return undefined;
    if (edge.consumer && !(place.consumer = portPlace(edge.consumer))) return undefined;
    if (edge.producer && !(place.producer = portPlace(edge.producer))) return undefined;
    edges.push(place);
    const [span, consumer, producer] = [place.span?.[0], place.consumer?.[0], place.producer?.[0]];
    if (span !== undefined) holding(span).edges.push(index);
    if (consumer !== undefined && consumer !== span) holding(consumer).edges.push(index);
    if (producer !== undefined && producer !== span && producer !== consumer) holding(producer).edges.push(index);
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
