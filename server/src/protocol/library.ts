import type { LspRange, Severity } from './common';

// The workspace's skills as one library (`skillgraph/library`, the library view): the skills, the edges between them
// (how one names another), each skill's library findings, and the list each client puts in front of the agent.

export interface LibraryViewProblem {
  code: string;
  severity: Severity;
  message: string;
  range: LspRange;
}

export interface LibraryViewSkill {
  /** Its SKILL.md (the node's id). */
  file: string;
  /** The name a mention resolves by (`plugin:name` for a plugin's). */
  name: string;
  description: string;
  /**
   * The folder its folder is in, relative to the workspace folder holding it (`.claude/skills`, `skills`), or that
   * workspace folder's name when it is at its top.
   */
  folder: string;
  /** Where it is installed: a client's personal or project folder, a shared `.agents` folder, a plugin, elsewhere. */
  scope: 'claude-personal' | 'claude-project' | 'agents-user' | 'agents-repo' | 'plugin' | 'other';
  /** Its `name`'s value, where a click opens it. */
  range: LspRange;
  problems: LibraryViewProblem[];
}

export interface LibraryViewEdge {
  from: string;
  to: string;
  /** How `from` names `to`: a Skill tool call, a slash or `$` command, a plugin's name, a link, a composed step. */
  kind: 'tool' | 'slash' | 'dollar' | 'plugin' | 'link' | 'compose';
  /** How many mentions of `to` in `from` of this kind; `range` is the first, in `from`. */
  count: number;
  range: LspRange;
}

export interface SkillListEntry {
  file: string;
  name: string;
  /** The description as the client shows it (cut where it cuts). */
  description: string;
  /** Characters of name and description the entry adds to the list, as listed. */
  size: number;
  /** The client cuts the description. */
  cut: boolean;
  /** The client reads the skill's folder, or the skill is written for it; otherwise listed only once installed. */
  installed: boolean;
}

export interface SkillList {
  client: string;
  /** The profile of the client (`claude-code`, `codex`…). */
  profile: string;
  /** The characters the client lists before it leaves skills out, when it has such a budget, and why. */
  budget?: number;
  why?: string;
  /** One per name a client can tell apart, in name order. */
  entries: SkillListEntry[];
}

/** `skillgraph/library`: what the library view shows. */
export interface LibraryViewJson {
  version: 1;
  skills: LibraryViewSkill[];
  edges: LibraryViewEdge[];
  lists: SkillList[];
}
