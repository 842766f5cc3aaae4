import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../checks/engine/diagnostic';
import { stronglyConnected, walkCycle } from '../checks/graph/cycles';
import { closestName } from '../checks/match/nameDistance';
import type { Span } from '../parse/text/lineIndex';
import { descriptionPlace, namePlace, qualifiedName, type Library, type LibrarySkill } from './libraryModel';
import { overBudget, type LibraryCheckOptions } from './skillListBudget';
import type { LspRange } from '../protocol';
import { descriptionOverlaps, descriptionTerms } from './similarDescriptions';
import { appendTo } from '../listMap';
import { defineRule } from '../checks/engine/rule';
import { CLAUDE_PRECEDENCE, CLIENT_FOLDERS } from '../platforms/clients';
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

export const skillCallCycle = defineRule({
  code: 'skill_call_cycle',
  category: 'library',
  severity: 'warning',
  summary: 'Skills invoke each other in a ring.',
  stability: 'stable',
  formats: 'all',
});

export function checkLibrary(library: Library, options: LibraryCheckOptions = {}): Diagnostic[] {
  return [
    ...unknownMentions(library),
    ...collisions(library),
    ...alikeDescriptions(library),
    ...overBudget(library, options),
    ...callCycles(library),
  ];
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

/**
 * Two copies of one skill: the same name and description (or one drifted from the other by a word or a clause), as a
 * repository keeps one in each client's folder (`.claude/skills`, `.agents/skills`, `.github/skills`). An agent is
 * shown the same entry either way: not a collision.
 */
function mirrors(a: LibrarySkill, b: LibrarySkill): boolean {
  return a.name === b.name && (a.description === b.description || sameWords(a.description, b.description));
}

/** Copies that drifted apart by a word or a clause: most of either description's words are the other's. */
function sameWords(a: string, b: string): boolean {
  const [wordsA, wordsB] = [descriptionTerms(a), descriptionTerms(b)];
  const shared = [...wordsA].filter((word) => wordsB.has(word)).length;
  return shared >= COPY_SHARE * Math.max(wordsA.size, wordsB.size);
}
const COPY_SHARE = 0.8;

/**
 * The folder a skill is installed from: the nearest `skills` folder above it (a client's `.agents/skills`, a pack's
 * `skills`, a plugin's), or none (a collection's categories).
 */
function installRoot(skill: LibrarySkill): string {
  for (let dir = path.dirname(skill.dir); dir !== path.dirname(dir); dir = path.dirname(dir))
    if (path.basename(dir) === 'skills') return dir;
  return '';
}

/**
 * Two skills of one name collide where one client would read both: under one `skills` folder, or one in a project's
 * client folder (`.claude/skills`) and the other in the `skills` folder the same project publishes, which installs
 * beside it. A repository that keeps a pack in `skills-pack/skills`, its own copies in `.agents/skills` and old ones
 * under `specs/archive/…/skills` has no client that reads two of them.
 */
function readTogether(a: LibrarySkill, b: LibrarySkill): boolean {
  const [rootA, rootB] = [installRoot(a), installRoot(b)];
  if (rootA === rootB) return true;
  const clientFolder = (root: string) =>
    CLIENT_FOLDERS.some(({ folder }) => path.basename(path.dirname(root)) === folder);
  const project = (root: string) => path.dirname(clientFolder(root) ? path.dirname(root) : root);
  return (
    rootA !== '' && rootB !== '' && clientFolder(rootA) !== clientFolder(rootB) && project(rootA) === project(rootB)
  );
}

/** One of two skills is a personal Claude Code skill and the other a project's, which it hides. */
function personalOver(a: LibrarySkill, b: LibrarySkill): boolean {
  const orders = [claudeOrder(a), claudeOrder(b)].sort();
  return orders[0] === 0 && orders[1] === 1;
}

/**
 * Skills of one name: one a client never loads, or two it lists alike. Reported in each of them, pointing at the
 * others: whichever the author renames, the finding is where they are. Copies of one skill are not told of each other.
 */
function collisions(library: Library): Diagnostic[] {
  const findings: Diagnostic[] = [];
  for (const [name, skills] of library.byName) {
    if (skills.length < 2) continue;
    const all = [...skills].sort((a, b) => claudeOrder(a) - claudeOrder(b) || (a.file < b.file ? -1 : 1));
    for (const skill of all) {
      // A personal copy of a project skill still hides it: the project's edits never reach this user.
      const ranked = all.filter(
        (item) => item === skill || (!mirrors(item, skill) && readTogether(item, skill)) || personalOver(item, skill),
      );
      if (ranked.length < 2) continue;
      const [first, second] = ranked;
      const other = skill === first ? second : first;
      // A personal skill shadows a project's: the project's is never listed.
      const shadow = claudeOrder(first) === 0 && claudeOrder(other === first ? skill : other) === 1;
      const message =
        shadow && skill !== first
          ? `Claude Code loads the personal skill \`${name}\` (${first.file}) instead of this one: this skill is never listed, and edits to it change nothing. Rename it.`
          : shadow
            ? `Claude Code loads this personal skill instead of the project's skill \`${name}\` (${other.file}), which is then never listed. Rename one of them if both are meant to be used.`
            : `Another skill of the library is named \`${name}\` (${relativeTo(skill, other)}): clients that read both folders list two skills of one name (Codex) or load one of them, so neither the agent nor a \`/${name}\` can tell them apart. Rename one.`;
      findings.push({
        ...diagnostic(shadowedSkill, skill.file, namePlace(skill).span, message),
        related: ranked
          .filter((item) => item !== skill)
          .map((item) => ({
            file: item.file,
            range: namePlace(item).range,
            message: `The other skill named \`${name}\``,
          })),
      });
    }
  }
  return findings;
}

/**
 * Whether `of` has a copy (see mirrors) in the folder `skill` is in: a pair of `skill` and `of` is then that pair
 * again, reported with the copy beside it.
 */
function copiedBeside(library: Library, skill: LibrarySkill, of: LibrarySkill): boolean {
  const folder = path.dirname(skill.dir);
  return (library.byName.get(qualifiedName(of)) ?? []).some(
    (copy) => copy !== of && mirrors(copy, of) && path.dirname(copy.dir) === folder,
  );
}

/**
 * Descriptions an agent cannot tell apart: reported once at each, with the closest (its words and share in the
 * message) and every other alike one as related places. Copies of one skill are not alike, and where a repository
 * copies its skills into each client's folder, each folder's skills are told of the ones beside them.
 */
function alikeDescriptions(library: Library): Diagnostic[] {
  const linked = new Set(library.edges.map((edge) => `${edge.from}\0${edge.to}`));
  const alike = new Map<LibrarySkill, { other: LibrarySkill; shared: string[]; weight: number }[]>();
  for (const { a, b, shared, weight } of descriptionOverlaps(library.skills)) {
    if (linked.has(`${a.file}\0${b.file}`) || linked.has(`${b.file}\0${a.file}`)) continue;
    if (mirrors(a, b) || copiedBeside(library, a, b) || copiedBeside(library, b, a)) continue;
    appendTo(alike, a, { other: b, shared, weight });
    appendTo(alike, b, { other: a, shared, weight });
  }
  return library.skills.flatMap((skill) => {
    const pairs = alike.get(skill);
    if (!pairs) return [];
    pairs.sort((x, y) => y.weight - x.weight || (x.other.file < y.other.file ? -1 : 1));
    const [{ other, shared, weight }, ...more] = pairs;
    const words = `${shared
      .slice(0, 6)
      .map((term) => `"${term}"`)
      .join(', ')}${shared.length > 6 ? ', …' : ''}: ${Math.round(weight * 100)}% by weight`;
    const others =
      more.length === 0
        ? ''
        : `; so do those of ${more.length <= 3 ? '' : `${more.length} others, among them `}${more
            .slice(0, 3)
            .map((pair) => `\`${pair.other.name}\``)
            .join(', ')}`;
    return [
      {
        ...diagnostic(
          similarDescriptions,
          skill.file,
          descriptionPlace(skill).span,
          `This description and that of \`${other.name}\` (${relativeTo(skill, other)}) share most of their distinctive words (${words})${others}: an agent choosing a skill by its description cannot tell them apart. Say in each what it is for that ${more.length === 0 ? 'the other is' : 'the others are'} not, or have one name the other.`,
        ),
        related: pairs.map((pair) => ({
          file: pair.other.file,
          range: descriptionPlace(pair.other).range,
          message: `The description of \`${pair.other.name}\``,
        })),
      },
    ];
  });
}

/**
 * Skills that invoke each other in a ring: an agent following them may never finish. Links are not invocations.
 * Reported in each skill of the ring at its call of the next, pointing at the others' calls.
 */
function callCycles(library: Library): Diagnostic[] {
  const calls = new Map<string, { to: string; span: Span; range: LspRange }[]>();
  for (const edge of library.edges) {
    if (edge.kind === 'link') continue;
    appendTo(calls, edge.from, { to: edge.to, span: edge.span, range: edge.range });
  }
  const next = new Map([...calls].map(([from, list]) => [from, list.map((call) => call.to)]));
  const groups = stronglyConnected([...next.keys()].sort(), next).filter((group) => group.length > 1);
  if (groups.length === 0) return [];
  const names = new Map(library.skills.map((skill) => [skill.file, skill.name]));
  return groups.flatMap((group) => {
    // The ring walked from its first skill by path, so every run finds the same one.
    const ring = walkCycle([...group].sort()[0], new Set(group), next);
    const callOf = (at: number) => calls.get(ring[at])!.find((item) => item.to === ring[(at + 1) % ring.length])!;
    return ring.map((file, at) => {
      const from = [...ring.slice(at), ...ring.slice(0, at)];
      return {
        ...diagnostic(
          skillCallCycle,
          file,
          callOf(at).span,
          `These skills invoke each other in a ring: ${[...from, file].map((item) => `\`${names.get(item)}\``).join(' → ')}. An agent that follows each one's instruction to use the next may never finish; let one of them end without calling back.`,
        ),
        related: ring.flatMap((other, index) =>
          other === file
            ? []
            : [
                {
                  file: other,
                  range: callOf(index).range,
                  message: `\`${names.get(other)}\` invokes \`${names.get(ring[(index + 1) % ring.length])}\``,
                },
              ],
        ),
      };
    });
  });
}

function relativeTo(from: LibrarySkill, to: LibrarySkill): string {
  return path.relative(from.dir, to.file).split(path.sep).join('/');
}
