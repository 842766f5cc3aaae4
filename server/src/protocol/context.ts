// What a runtime puts in front of the model at one point of a skill (`skillgraph/context`, the context view).

export interface ContextPart {
  kind: 'brief' | 'map' | 'tip' | 'soft-rule' | 'hard-rule';
  title: string;
  id?: string;
  /** The file it comes from, relative to the skill folder. */
  file?: string;
  text: string;
  chars: number;
  tokens: number;
}

export interface ContextLeftOut {
  kind: 'tip' | 'soft-rule' | 'hard-rule';
  id: string;
  file: string;
  reason: string;
}

/** What the runtime puts in front of the model for one turn at one node, with sizes. */
export interface ModelContext {
  skill: string;
  /** The State the context was built for: the defaults of state.py with the given values over them. */
  state: Record<string, unknown>;
  at: { node: string; stage: string | null; event: string | null; round: number | null; tool: string | null };
  parts: ContextPart[];
  leftOut: ContextLeftOut[];
  /** Hard `.py` rules that gate tool calls here: code, never text. */
  gates: { id: string; file: string; onFail: string }[];
  tipBudget: number;
  tipChars: number;
  chars: number;
  tokens: number;
}

export interface ContextRequest {
  node: string;
  /** Values over the State's defaults (only the fields given change). */
  state?: Record<string, unknown>;
  event?: string;
  round?: number;
  tool?: string;
}
