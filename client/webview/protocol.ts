// The messages between the extension (host) and the graph preview (webview).
// Both sides import these types, so a change to one side fails the build of the other.
import type { GraphChanges, GraphJson, LibraryViewJson, LspRange, ModelContext } from '../../server/src/protocol';

export type Direction = 'RIGHT' | 'DOWN';
/** The user's choice of direction: `auto` follows the panel's shape (top-down when narrow, left-to-right when wide). */
export type DirectionChoice = Direction | 'auto';

export type HostMessage =
  /**
   * A new graph to show (after the file changed). With `changes`, the preview shows the changes since a revision: the
   * graph is then the one the change view gives (what the change removed put back), or the plain graph with the
   * reason the changes could not be shown.
   */
  | {
      type: 'graph';
      graph: GraphJson;
      /** The skill's runtime shows the model a context at each node (skill+): the preview offers to show it. */
      context: boolean;
      direction: DirectionChoice;
      changes?: { revision: string; answer: GraphChanges | { error: string } };
    }
  /** The node under the editor's cursor, or null. */
  | { type: 'highlight'; nodeId: string | null };

export type WebviewMessage =
  | { type: 'ready' }
  /**
   * Reveal and select this range (a clicked node, edge or stage), in `file` when it is not the skill file (a skill+
   * flow file).
   */
  | { type: 'reveal'; range: LspRange; file?: string }
  | { type: 'direction'; direction: DirectionChoice }
  /** Show the changes since the last revision asked for (HEAD at first), or stop showing them. */
  | { type: 'changes'; on: boolean }
  /** Show where a step the change removed was: the file's diff against the revision. */
  | { type: 'showRemoved'; nodeId: string }
  /** Open a skill the graph names (a MetaSkill's composed skill), by its SKILL.md path as the graph gives it. */
  | { type: 'openSkill'; file: string }
  /** Show what the model sees at this node (skill+). */
  | { type: 'context'; nodeId: string | null }
  /** Save an export: SVG text, or a PNG as a base64 data URL. */
  | { type: 'export'; format: 'svg' | 'png'; data: string };

/** The node list of the context page's position picker. */
export interface ContextNode {
  id: string;
  kind: string;
  stage?: string;
}

export type ContextHostMessage =
  | { type: 'context'; context: ModelContext; nodes: ContextNode[] }
  | { type: 'error'; message: string; nodes: ContextNode[]; node: string };

export type ContextPageMessage =
  | { type: 'ready' }
  /** Build the context for this position and State. */
  | { type: 'compute'; node: string; state: Record<string, unknown>; event?: string; round?: number }
  /** Open a file a part comes from (relative to the skill folder). */
  | { type: 'open'; file: string };

/** The library view: the library as the server last gave it. */
export type LibraryHostMessage = { type: 'library'; library: LibraryViewJson };

export type LibraryPageMessage =
  | { type: 'ready' }
  /** Open a skill of the library (its SKILL.md), selecting `range` in it. */
  | { type: 'open'; file: string; range: LspRange };
