import * as path from 'node:path';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { FILE_START_RANGE, LineIndex, type Span } from '../parse/text/lineIndex';
import type { TextLike } from '../parse/text/textLike';
import { listedSize, listedSkills, SKILL_LIST_BUDGETS, type LibraryCheckOptions } from './skillListBudget';
import { qualifiedName, type Library, type LibrarySkill, type SkillScope } from './libraryModel';
import { CLAUDE_LISTING_LIMIT } from '../platforms/clients';
import type {
  LibraryViewEdge,
  LibraryViewJson,
  LibraryViewProblem,
  LspRange,
  SkillList,
  SkillListEntry,
} from '../protocol';

// The library as the editor's library view draws it: the skills and the edges between them, each skill's library
// findings where they are, and the list each client puts in front of the agent at start, entry by entry.

/** The folders Claude Code reads skills from, besides those written for it (the plugins' are its own too). */
const CLAUDE_READS: SkillScope['kind'][] = ['claude-personal', 'claude-project', 'plugin'];

export interface LibraryViewInput {
  library: Library;
  /** The library's findings, with each skill's severities (a rule turned off is left out). */
  findings: Diagnostic[];
  /** The workspace folders: a skill's folder is shown relative to the one holding it. */
  roots: string[];
  /** The user's home: a folder of it outside the roots (a client's user-level folder) is shown from `~`. */
  home: string;
  /**
   * A skill file's text, to place its findings (undefined when it cannot be read). Only a skill with findings is read:
   * names and mentions were placed when the library read them.
   */
  textOf: (file: string) => TextLike | undefined;
  options?: LibraryCheckOptions;
}

export function libraryView({
  library,
  findings,
  roots,
  home,
  textOf,
  options = {},
}: LibraryViewInput): LibraryViewJson {
  const indexes = new Map<string, LineIndex | undefined>();
  const rangeIn = (file: string, span: Span): LspRange => {
    if (!indexes.has(file)) {
      const text = textOf(file);
      indexes.set(file, text === undefined ? undefined : new LineIndex(text));
    }
    return indexes.get(file)?.rangeOf(span) ?? FILE_START_RANGE;
  };
  const problems = new Map<string, LibraryViewProblem[]>();
  for (const item of findings) {
    const list = problems.get(item.file) ?? [];
    list.push({
      code: item.code,
      severity: item.severity,
      message: item.message,
      range: rangeIn(item.file, item.span),
    });
    problems.set(item.file, list);
  }
  const skills = [...library.skills]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((skill) => ({
      file: skill.file,
      name: qualifiedName(skill),
      description: skill.description,
      folder: folderOf(skill, roots, home),
      scope: skill.scope.kind,
      range: skill.nameRange ?? FILE_START_RANGE,
      problems: problems.get(skill.file) ?? [],
    }));
  const edges = new Map<string, LibraryViewEdge>();
  for (const edge of library.edges) {
    const key = `${edge.from}\0${edge.to}\0${edge.kind}`;
    const known = edges.get(key);
    if (known) known.count++;
    else edges.set(key, { from: edge.from, to: edge.to, kind: edge.kind, count: 1, range: edge.range });
  }
  return { version: 1, skills, edges: [...edges.values()], lists: skillLists(library, options) };
}

/** What Codex and Claude Code list: the skills they read here, and every other skill as it would be once installed. */
function skillLists(library: Library, options: LibraryCheckOptions): SkillList[] {
  const oneOfEach = [...library.byName.values()].map((skills) => skills[0]);
  const byName = (a: SkillListEntry, b: SkillListEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const codex = SKILL_LIST_BUDGETS.map((budget) => {
    const listed = new Set(listedSkills(library, budget, options));
    return {
      client: budget.client,
      profile: budget.profile,
      budget: budget.characters,
      why: budget.why,
      // A plugin's skills are listed in the plugin's own list.
      entries: oneOfEach
        .filter((skill) => skill.scope.kind !== 'plugin')
        .map((skill) => entry(skill, listed.has(skill), Infinity))
        .sort(byName),
    };
  });
  const claudeListed = (skill: LibrarySkill) =>
    CLAUDE_READS.includes(skill.scope.kind) || options.profileOf?.(skill) === 'claude-code';
  const claude: SkillList = {
    client: 'Claude Code',
    profile: 'claude-code',
    entries: oneOfEach.map((skill) => entry(skill, claudeListed(skill), CLAUDE_LISTING_LIMIT)).sort(byName),
  };
  return [...codex, claude];
}

function entry(skill: LibrarySkill, installed: boolean, limit: number): SkillListEntry {
  const cut = skill.description.length > limit;
  const description = cut ? skill.description.slice(0, limit) : skill.description;
  const size = cut ? listedSize(skill) - skill.description.length + limit : listedSize(skill);
  return { file: skill.file, name: qualifiedName(skill), description, size, cut, installed };
}

/**
 * The folder a skill's folder is in, relative to the workspace folder holding it, else from `~` when it is the user's,
 * else its whole path.
 */
function folderOf(skill: LibrarySkill, roots: string[], home: string): string {
  const parent = path.dirname(skill.dir);
  const inside = (root: string) => {
    const relative = path.relative(root, parent);
    return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative.split(path.sep).join('/');
  };
  for (const root of roots) {
    const relative = inside(root);
    // A skill folder at the top of a workspace folder is shown in that folder, by its name.
    if (relative !== undefined) return relative || path.basename(root);
  }
  const fromHome = inside(home);
  return fromHome !== undefined ? `~/${fromHome}` : parent.split(path.sep).join('/');
}
