import type { Severity } from './common';

// The settings the server reads from its editor.

/** The section of the editor's settings the server reads (VS Code's `skillgraph.*`). */
export const SETTINGS_SECTION = 'skillgraph';

/**
 * The settings the server reads, as an editor sends them (`workspace/configuration` for the section, or
 * `initializationOptions`). Anything else, or a value of the wrong type, is ignored.
 */
export interface ServerSettings {
  /** Which consumer the skills target. */
  profile?: string;
  /** Severity overrides by diagnostic code. */
  rules?: Record<string, Severity | 'off'>;
  /** Folders of skill folders MetaSkills may compose; relative ones start at the first workspace folder. */
  catalogRoots?: string[];
  /** The clients' user-level skill folders (`~/.claude/skills`, `~/.agents/skills`) join the workspace's library. */
  userSkillFolders?: boolean;
}

/** The keys of `ServerSettings`, each a `skillgraph.<key>` setting in the extension's manifest. */
export const SERVER_SETTING_KEYS = [
  'profile',
  'rules',
  'catalogRoots',
  'userSkillFolders',
] as const satisfies readonly (keyof ServerSettings)[];
