import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../checks/engine/diagnostic';
import { stronglyConnected, walkCycle } from '../checks/graph/cycles';
import { closestName } from '../checks/match/nameDistance';
import type { Span } from '../parse/text/lineIndex';
import type { ProfileId } from '../platforms/profiles';
import { qualifiedName, type Library, type LibrarySkill } from './libraryModel';
import { descriptionOverlaps } from './similarDescriptions';
import { appendTo } from '../listMap';
import { defineRule } from '../checks/engine/rule';
import { CLAUDE_PRECEDENCE } from '../platforms/clients';
import { BUILT_IN_COMMANDS } from '../platforms/builtInCommands';

// The checks only a library can make: what one skill says of others, and what the skills are to a client together.

export const unknownSkillMention = defineRule({
  code: 'unknown_skill_mention',
  category: 'library',
  severity: 'warning',
  summary:
    'An instruction to run `Skill(x)`, `/x`, `$x` names no skill of the library, command file or built-in command.',
  stability: 'stable',
  formats: 'all',
});

export const shadowedSkill = defineRule({
  code: 'shadowed_skill',
  category: 'library',
  severity: 'warning',
  summary: 'Two skills of the library share a name: a client loads one of them, or lists both alike.',
  stability: 'stable',
  formats: 'all',
});

export const similarDescriptions = defineRule({
  code: 'similar_descriptions',
  category: 'library',
  severity: 'warning',
  summary: 'Two descriptions share most of their distinctive words: an agent cannot tell the skills apart.',
  stability: 'stable',
  formats: 'all',
});

export const skillListOverBudget = defineRule({
  code: 'skill_list_over_budget',
  category: 'library',
  severity: 'warning',
  summary: "The library's names and descriptions are longer than a client lists at start.",
  stability: 'stable',
  formats: 'all',
});

export const skillCallCycle = defineRule({
  code: 'skill_call_cycle',
  category: 'library',
  severity: 'warning',
  summary: 'Skills invoke each other in a ring.',
  stability: 'stable',
  formats: 'all',
});

/** Where a finding about a skill as a whole goes when its line is not known: the start of its file. */
const FILE_START: Span = { start: 0, end: 0 };

/**
 * The list a client gives the agent at start, past which it stops listing skills (characters of names and
 * descriptions), and the folders it reads skills from.
 */
export const SKILL_LIST_BUDGETS: {
  client: string;
  profile: ProfileId;
  characters: number;
  why: string;
  reads: LibrarySkill['scope']['kind'][];
}[] = [
  {
    client: 'Codex',
    profile: 'codex',
    characters: 8000,
    why: 'about 2% of the context window',
    reads: ['agents-repo', 'agents-user'],
  },
];

export interface LibraryCheckOptions {
  /** The client a skill is written for (its configured profile, or `--profile`), when one is set. */
  profileOf?: (skill: LibrarySkill) => ProfileId | undefined;
}

/**
 * The client each skill is written for, as the settings say (`--profile`, its configuration, its folder), each skill's
 * looked up once for as long as the options are kept.
 */
export function profilesFrom(settings: {
  forSkill(file: string): { profile?: { id: ProfileId } };
}): LibraryCheckOptions {
  const profiles = new Map<string, ProfileId | undefined>();
  return {
    profileOf: (skill) => {
      if (!profiles.has(skill.file)) profiles.set(skill.file, settings.forSkill(skill.file).profile?.id);
      return profiles.get(skill.file);
    },
  };
}

export function checkLibrary(library: Library, options: LibraryCheckOptions = {}): Diagnostic[] {
  return [
    ...unknownMentions(library),
    ...collisions(library),
    ...alikeDescriptions(library),
    ...overBudget(library, options),
    ...callCycles(library),
  ];
}

/** The skills of the library a client lists: those in the folders it reads, and those written for it. */
export function listedSkills(
  library: Library,
  budget: (typeof SKILL_LIST_BUDGETS)[number],
  options: LibraryCheckOptions = {},
): LibrarySkill[] {
  // One per name (the others are collisions), none of a plugin's (a plugin's list is its own).
  return [...library.byName.values()]
    .map((skills) => skills[0])
    .filter(
      (skill) =>
        skill.scope.kind !== 'plugin' &&
        (budget.reads.includes(skill.scope.kind) || options.profileOf?.(skill) === budget.profile),
    );
}

/** What one skill adds to a client's list: its name and its description. */
export function listedSize(skill: LibrarySkill): number {
  return qualifiedName(skill).length + skill.description.length;
}

/**
 * An instruction to run `Skill(x)`, `/x`, `$x` that names no skill of the library, no command file and no client's
 * built-in command: the agent finds nothing to run. With the skill it likely means when one is a letter or two off.
 */
function unknownMentions(library: Library): Diagnostic[] {
  const names = [...library.byName.keys()];
  const plugins = new Set(
    library.skills.flatMap((skill) => (skill.scope.kind === 'plugin' ? [skill.scope.plugin] : [])),
  );
  return library.unresolved.flatMap(({ skill, mention }) => {
    const written = mention.plugin ? `${mention.plugin}:${mention.name}` : mention.name;
    // Another plugin's skill (`superpowers:x`) is in a library not read here.
    if (mention.plugin && !plugins.has(mention.plugin)) return [];
    if (BUILT_IN_COMMANDS.has(mention.name) || skill.commands.has(written)) return [];
    const suggestion = closestName(written, names);
    // `$name` is as often a variable of the language a skill teaches (`$state`, `$casts`): only a near miss is a call.
    if (!suggestion && (!mention.instruction || mention.kind === 'dollar')) return [];
    const sign =
      mention.kind === 'tool' ? 'Skill(' : mention.kind === 'dollar' ? '$' : mention.kind === 'plugin' ? '' : '/';
    const told = `${sign}${written}${sign === 'Skill(' ? ')' : ''}`;
    return [
      diagnostic(
        unknownSkillMention,
        skill.file,
        mention.span,
        suggestion
          ? `No skill of the library is named \`${mention.name}\`: did you mean \`${suggestion}\`? An agent told to use \`${told}\` finds nothing to run.`
          : `No skill of the library, command file or client's built-in command is named \`${written}\`: an agent told to use \`${told}\` finds nothing to run. Add the skill, or name one that is there.`,
        suggestion ? { suggestion } : {},
      ),
    ];
  });
}

/** How Claude Code orders two same-named skills: the one it loads first wins (lower is first; others last). */
const claudeOrder = (skill: LibrarySkill) => {
  const at = CLAUDE_PRECEDENCE.indexOf(skill.scope.kind);
  return at === -1 ? CLAUDE_PRECEDENCE.length : at;
};

/** Skills of one name: one a client never loads, or two it lists alike. Reported on each but the one loaded. */
function collisions(library: Library): Diagnostic[] {
  const findings: Diagnostic[] = [];
  for (const [name, skills] of library.byName) {
    if (skills.length < 2) continue;
    const ranked = [...skills].sort((a, b) => claudeOrder(a) - claudeOrder(b) || (a.file < b.file ? -1 : 1));
    const [first, ...rest] = ranked;
    for (const skill of rest) {
      // A personal skill shadows a project's: the project's is never listed.
      const shadowed = claudeOrder(first) === 0 && claudeOrder(skill) === 1;
      findings.push(
        diagnostic(
          shadowedSkill,
          skill.file,
          skill.nameSpan ?? FILE_START,
          shadowed
            ? `Claude Code loads the personal skill \`${name}\` (${first.file}) instead of this one: this skill is never listed, and edits to it change nothing. Rename it.`
            : `Another skill of the library is named \`${name}\` (${relativeTo(skill, first)}): clients that read both folders list two skills of one name (Codex) or load one of them, so neither the agent nor a \`/${name}\` can tell them apart. Rename one.`,
          { other: first.file },
        ),
      );
    }
  }
  return findings;
}

function alikeDescriptions(library: Library): Diagnostic[] {
  const linked = new Set(library.edges.map((edge) => `${edge.from}\0${edge.to}`));
  return descriptionOverlaps(library.skills)
    .filter(({ a, b }) => !linked.has(`${a.file}\0${b.file}`) && !linked.has(`${b.file}\0${a.file}`))
    .map(({ a, b, shared, weight }) =>
      diagnostic(
        similarDescriptions,
        b.file,
        b.descriptionSpan ?? b.nameSpan ?? FILE_START,
        `This description and that of \`${a.name}\` (${relativeTo(b, a)}) share most of their distinctive words (${shared
          .slice(0, 6)
          .map((term) => `"${term}"`)
          .join(
            ', ',
          )}${shared.length > 6 ? ', …' : ''}: ${Math.round(weight * 100)}% by weight): an agent choosing a skill by its description cannot tell them apart. Say in each what it is for that the other is not, or have one name the other.`,
        { other: a.file },
      ),
    );
}

/** The skill list a client gives the agent, past what it lists: reported at the largest entry's description. */
function overBudget(library: Library, options: LibraryCheckOptions): Diagnostic[] {
  return SKILL_LIST_BUDGETS.flatMap((budget) => {
    const listed = listedSkills(library, budget, options);
    const total = listed.reduce((sum, skill) => sum + listedSize(skill), 0);
    if (total <= budget.characters) return [];
    const largest = [...listed].sort((a, b) => listedSize(b) - listedSize(a)).slice(0, 3);
    return [
      diagnostic(
        skillListOverBudget,
        largest[0].file,
        largest[0].descriptionSpan ?? largest[0].nameSpan ?? FILE_START,
        `The names and descriptions of the ${listed.length} skills ${budget.client} lists take ${total.toLocaleString('en')} characters; ${budget.client} lists skills up to ${budget.characters.toLocaleString('en')} (${budget.why}) and leaves the rest out. The largest: ${largest.map((skill) => `\`${skill.name}\` (${listedSize(skill).toLocaleString('en')})`).join(', ')}. Shorten the longest descriptions, or split the library.`,
        { total, budget: budget.characters },
      ),
    ];
  });
}

/** Skills that invoke each other in a ring: an agent following them may never finish. Links are not invocations. */
function callCycles(library: Library): Diagnostic[] {
  const calls = new Map<string, { to: string; span: Span }[]>();
  for (const edge of library.edges) {
    if (edge.kind === 'link') continue;
    appendTo(calls, edge.from, { to: edge.to, span: edge.span });
  }
  const next = new Map([...calls].map(([from, list]) => [from, list.map((call) => call.to)]));
  const groups = stronglyConnected([...next.keys()].sort(), next).filter((group) => group.length > 1);
  if (groups.length === 0) return [];
  const names = new Map(library.skills.map((skill) => [skill.file, skill.name]));
  return groups.map((group) => {
    // Reported once, in the ring's first skill by path, at its call of the next.
    const ring = walkCycle([...group].sort()[0], new Set(group), next);
    const call = calls.get(ring[0])!.find((item) => item.to === ring[1 % ring.length])!;
    return diagnostic(
      skillCallCycle,
      ring[0],
      call.span,
      `These skills invoke each other in a ring: ${[...ring, ring[0]].map((file) => `\`${names.get(file)}\``).join(' → ')}. An agent that follows each one's instruction to use the next may never finish; let one of them end without calling back.`,
    );
  });
}

function relativeTo(from: LibrarySkill, to: LibrarySkill): string {
  return path.relative(from.dir, to.file).split(path.sep).join('/');
}
