import type { LspRange } from './common';
import type { GraphEdgeKind, GraphJson } from './graph';

// A change drawn on the graph (`skillgraph/graphChanges`, the preview's "changes since a revision").

/** How a change touched a node. */
export type NodeChangeKind = 'added' | 'removed' | 'renamed' | 'changed';

/** How a change touched an edge. */
export type EdgeChangeKind = 'added' | 'removed' | 'retyped';

/** An edge the change touched, named as the drawing names it (its ends after the change). */
export interface EdgeMark {
  change: EdgeChangeKind;
  from: string;
  to: string;
  kind: GraphEdgeKind;
  label?: string;
  text: string;
}

/**
 * A line of the change list: what changed, and the node it is about, or for a finding introduced where it is now (a
 * click there shows it; a fixed finding's place is in the old text, so it has none).
 */
export interface ChangeLine {
  mark: NodeChangeKind | EdgeChangeKind | 'orphaned' | 'introduced' | 'fixed';
  text: string;
  node?: string;
  at?: { file: string; range: LspRange };
}

export interface GraphChanges {
  /**
   * The revision compared with, as asked (`HEAD`), and the commit it named then (git's empty tree when `HEAD` has no
   * commit yet: everything is added).
   */
  revision: string;
  commit: string;
  /** Whether the skill existed at that revision (when not, everything is added). */
  existed: boolean;
  /** What to draw: the graph as it is now, with the nodes and edges the change removed put back. */
  graph: GraphJson;
  /** Each node the change touched, by its id in `graph`: how, and what, in words. */
  nodes: Record<string, { change: NodeChangeKind; text: string }>;
  edges: EdgeMark[];
  /** Every change in words, nodes first, then edges, inputs left without a producer, findings. */
  lines: ChangeLine[];
  introducesErrors: boolean;
}
