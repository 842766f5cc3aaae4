import { diagnostic, type Diagnostic } from '../checks/engine/diagnostic';
import { defineRule } from '../checks/engine/rule';
import type { ProfileId } from '../platforms/profiles';
import { descriptionPlace, qualifiedName, type Library, type LibrarySkill } from './libraryModel';

// What a client lists of the library at start: its skills' names and descriptions, up to a size.

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

export const skillListOverBudget = defineRule({
  code: 'skill_list_over_budget',
  category: 'library',
  severity: 'warning',
  summary: "The library's names and descriptions are longer than a client lists at start.",
  stability: 'stable',
  formats: 'all',
});

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

/** The skill list a client gives the agent, past what it lists: reported at the largest entry's description. */
export function overBudget(library: Library, options: LibraryCheckOptions): Diagnostic[] {
  return SKILL_LIST_BUDGETS.flatMap((budget) => {
    const listed = listedSkills(library, budget, options);
    const total = listed.reduce((sum, skill) => sum + listedSize(skill), 0);
    if (total <= budget.characters) return [];
    const largest = [...listed].sort((a, b) => listedSize(b) - listedSize(a)).slice(0, 3);
    return [
      diagnostic(
        skillListOverBudget,
        largest[0].file,
        descriptionPlace(largest[0]).span,
        `The names and descriptions of the ${listed.length} skills ${budget.client} lists take ${total.toLocaleString('en')} characters; ${budget.client} lists skills up to ${budget.characters.toLocaleString('en')} (${budget.why}) and leaves the rest out. The largest: ${largest.map((skill) => `\`${skill.name}\` (${listedSize(skill).toLocaleString('en')})`).join(', ')}. Shorten the longest descriptions, or split the library.`,
        { total, budget: budget.characters },
      ),
    ];
  });
}
