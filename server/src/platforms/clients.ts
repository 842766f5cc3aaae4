import * as path from 'node:path';
import type { ProfileId } from './profiles';

// The agent clients that load skills: the folders each reads skills from and which of two same-named skills it loads,
// and how much it reads. Rules, the configuration, the library and compile read these facts here, so a client's
// change is one edit. What each reads of a skill's frontmatter is its profile (profiles.ts).

/** A folder clients read skills from: `<folder>/skills/`, in a project and, for some, in the user's home. */
export interface ClientFolder {
  /** The folder's name (`.claude`): its skills are in `skills/` under it. */
  folder: string;
  /** The client that reads it, as the profile that checks its skills. */
  profile: ProfileId;
  /**
   * How the library tells apart the skills of the user's home and of a project in this folder, when the client reads
   * both (a personal skill is loaded over a project's of the same name, `precedence`).
   */
  scopes?: { user: string; project: string };
}

export const CLIENT_FOLDERS: readonly ClientFolder[] = [
  { folder: '.claude', profile: 'claude-code', scopes: { user: 'claude-personal', project: 'claude-project' } },
  { folder: '.agents', profile: 'codex', scopes: { user: 'agents-user', project: 'agents-repo' } },
  { folder: '.codex', profile: 'codex' },
  { folder: '.github', profile: 'vscode' },
  { folder: '.cursor', profile: 'cursor' },
];

/** Which of two same-named skills Claude Code loads, by their scopes: the first listed (its personal skills win). */
export const CLAUDE_PRECEDENCE: readonly string[] = ['claude-personal', 'claude-project'];

/** Where a project keeps the commands its `/name` runs besides skills (Claude Code's `.claude/commands/*.md`). */
export const PROJECT_COMMANDS = path.join('.claude', 'commands');

/** A plugin declares itself here (Claude Code's plugins): its skills are named `plugin:name`. */
export const PLUGIN_MANIFEST = path.join('.claude-plugin', 'plugin.json');

/** The profile of the client whose skills folder holds the skill, if any (the innermost such folder). */
export function profileFromLocation(skillFile: string): ProfileId | undefined {
  const folder = path.dirname(path.resolve(skillFile)).split(path.sep).join('/');
  let found: { at: number; profile: ProfileId } | undefined;
  for (const client of CLIENT_FOLDERS) {
    const at = folder.lastIndexOf(`/${client.folder}/skills/`);
    if (at !== -1 && (!found || at > found.at)) found = { at, profile: client.profile };
  }
  return found?.profile;
}

/** The skills folders a client reads, as written in prose (`.agents/skills/ or .codex/skills/`). */
export function clientSkillFolders(profile: ProfileId): string {
  return CLIENT_FOLDERS.filter((client) => client.profile === profile)
    .map((client) => `${client.folder}/skills/`)
    .join(' or ');
}

/** The user-level skills folders clients read (`~/.claude/skills`, `~/.agents/skills`). */
export function userSkillFolderPaths(home: string): string[] {
  return CLIENT_FOLDERS.filter((client) => client.scopes).map((client) => path.join(home, client.folder, 'skills'));
}

/** The Claude API's limit for one uploaded skill folder. */
export const UPLOAD_LIMIT_BYTES = 8 * 1024 * 1024;

/** OpenSquilla's loader skips SKILL.md files larger than this. */
export const OPENSQUILLA_MAX_BYTES = 256_000;

/** Claude Code cuts each skill's listing (its description and `when_to_use`) past this many characters. */
export const CLAUDE_LISTING_LIMIT = 1536;
