import { userSkillFolderPaths } from '../platforms/clients';
import type { FileSystem } from './fileSystem';

/**
 * The clients' user-level skill folders that exist: Claude Code's personal skills and the user's `.agents/skills`
 * (Codex), the folders the library's scopes know. A linked folder (dotfiles) counts: its target is what the client
 * reads.
 */
export function userSkillFolders(fs: FileSystem, home: string): string[] {
  return userSkillFolderPaths(home).filter((folder) => fs.stat(fs.realpath(folder) ?? folder)?.kind === 'directory');
}
