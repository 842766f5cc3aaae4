import * as path from 'node:path';
import type { FileSystem } from '../../workspace/fileSystem';
import { decodeText } from '../../workspace/readText';

// The texts of a skill an agent or its tools may read, gathered once for the security rules: never executed, never
// followed out of the folder (links are not walked), each read bounded.

/** A part of a file's text, and where it starts in the file. */
export interface Placed {
  start: number;
  text: string;
}

/** What a file of the skill is to the security rules: Markdown an agent reads, or code something runs. */
export interface SkillText {
  file: string;
  text: string;
  kind: 'markdown' | 'code' | 'data';
}

const MARKDOWN = /\.(md|markdown|mdx|txt)$/i;
const CODE = /\.(sh|bash|zsh|fish|ps1|psm1|py|js|mjs|cjs|ts|rb|pl|php|lua|go|rs|bat|cmd|vbs|applescript)$/i;
/**
 * Files whose text is commands by their name: a build's recipes, a container's steps, a shell's or Git's startup
 * file, and what a scheduler or a service manager runs (a launch agent's arguments, a unit's `ExecStart=`, a crontab
 * line): read as commands, a line at a time, they say what they run.
 */
const COMMANDS_BY_NAME =
  /^(?:(?:GNU)?[Mm]akefile|Dockerfile|Containerfile|[Jj]ustfile|\.(?:bash_profile|bashrc|zshrc|zprofile|profile|gitconfig)|config\.fish|crontab)$|\.(?:plist|service|timer|desktop|crontab|cron)$/;
const DATA = /\.(json|ya?ml|toml|ini|cfg|conf|env|xml|csv|html?|pem|key)$/i;
/**
 * Files that hold credentials by their name alone: keys, the stores tools log in from, and a project's environment
 * files (`.env`, `.env.local`, `.env.deploy`), whose name has no extension to read.
 */
const KEY_FILE =
  /^(?:id_(?:rsa|dsa|ecdsa|ed25519)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|credentials|\.env(?:\.[\w-]+)*)$/;
/** Folders that are not the skill's own content. */
const SKIPPED = new Set(['.git', 'node_modules', '__pycache__', '.venv', 'venv']);
/** At most this many files are read, each at most this large: a folder from anywhere costs a bounded amount. */
export const MAX_FILES = 200;
export const MAX_BYTES = 512 * 1024;

/** What the bounds left unread: each file too large to read, and the first file past the count (none: all read). */
export interface Unread {
  tooLarge: { file: string; size: number }[];
  firstPastCount?: string;
}

/**
 * The text files of a skill folder but SKILL.md, by kind (a file without extension under `scripts/` is code). Folders
 * are read nearest first and each in name order, so the files a bound leaves out are the same on every disk: the
 * deepest, last in order.
 */
export function skillTexts(fs: FileSystem, dir: string): { texts: SkillText[]; unread: Unread } {
  const found: SkillText[] = [];
  const unread: Unread = { tooLarge: [] };
  const skillFile = path.join(dir, 'SKILL.md');
  // Each folder with whether it is under the skill's `scripts/`, in the order they are read.
  const pending: { folder: string; inScripts: boolean }[] = [{ folder: dir, inScripts: false }];
  for (let next = 0; next < pending.length && unread.firstPastCount === undefined; next++) {
    const { folder, inScripts: scriptsBelow } = pending[next];
    const entries = [...fs.readDirectory(folder)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      // An entry's name is one segment: joined without path.join's normalising, which shows on a large library.
      const child = folder.endsWith(path.sep) ? folder + entry.name : folder + path.sep + entry.name;
      const inScripts = scriptsBelow || (folder === dir && entry.name === 'scripts');
      if (entry.kind === 'directory' && !SKIPPED.has(entry.name)) pending.push({ folder: child, inScripts });
      if (entry.kind !== 'file' || child === skillFile) continue;
      const kind = MARKDOWN.test(entry.name)
        ? 'markdown'
        : CODE.test(entry.name) || COMMANDS_BY_NAME.test(entry.name) || (inScripts && !entry.name.includes('.'))
          ? 'code'
          : DATA.test(entry.name) || KEY_FILE.test(entry.name)
            ? 'data'
            : undefined;
      if (!kind) continue;
      // The first text file past the count is named (the audit says where it stopped), not read.
      if (found.length >= MAX_FILES) {
        unread.firstPastCount = child;
        break;
      }
      // One bounded read (no stat first): a file over the bound is left out, never read whole, and named.
      const bytes = fs.readWithin(child, MAX_BYTES);
      if (bytes.kind === 'too_large') unread.tooLarge.push({ file: child, size: bytes.size });
      const read = bytes.kind === 'bytes' ? decodeText(bytes.bytes) : undefined;
      if (read?.kind === 'text') found.push({ file: child, text: read.text, kind });
    }
  }
  return { texts: found.sort((a, b) => (a.file < b.file ? -1 : 1)), unread };
}
