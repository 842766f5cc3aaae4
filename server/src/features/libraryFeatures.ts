import { pathToFileURL } from 'node:url';
import {
  CompletionItemKind,
  MarkupKind,
  type CompletionItem,
  type Hover,
  type Location,
} from 'vscode-languageserver-types';
import type { SkillMention } from '../library/skillMentions';
import { linkTarget, qualifiedName, resolveMention, type Library, type LibrarySkill } from '../library/libraryModel';
import { FILE_START_RANGE, LineIndex } from '../parse/text/lineIndex';
import type { TextLike } from '../parse/text/textLike';
import type { LspRange } from '../protocol';

// What a skill says of other skills, in the editor: from a mention (`/name`, `$name`, `Skill(name)`, `plugin:name`, a
// link to another skill) to the skill it names, what that skill is for, the names one may write, and from a skill's
// `name` to every mention of it in the library.

/** The mention of another skill at `offset` in `skill`'s SKILL.md, if any. */
function mentionAt(skill: LibrarySkill, offset: number): SkillMention | undefined {
  return skill.mentions.find((mention) => mention.span.start <= offset && offset <= mention.span.end);
}

/** The skills a mention names. */
function targetsOf(library: Library, skill: LibrarySkill, mention: SkillMention): LibrarySkill[] {
  if (mention.kind === 'link') {
    const file = linkTarget(skill, mention);
    return library.skills.filter((other) => other.file === file);
  }
  return (resolveMention(library.byName, mention, skill) ?? []).filter((other) => other !== skill);
}

/** A place in another skill's SKILL.md (placed when the library read it). */
function locationIn(file: string, range: LspRange | undefined): Location {
  return {
    uri: pathToFileURL(file).href,
    range: range ?? FILE_START_RANGE,
  };
}

/** Where the skill a mention names is: its `name`, or the start of its SKILL.md. */
export function libraryDefinition(library: Library, skill: LibrarySkill, offset: number): Location[] {
  const mention = mentionAt(skill, offset);
  if (!mention) return [];
  return targetsOf(library, skill, mention).map((target) => locationIn(target.file, target.nameRange));
}

/** What the skill a mention names is for: its name, its description, where it is. */
export function libraryHover(library: Library, skill: LibrarySkill, offset: number): Hover | null {
  const mention = mentionAt(skill, offset);
  const targets = mention ? targetsOf(library, skill, mention) : [];
  if (!mention || targets.length === 0) return null;
  return {
    contents: {
      kind: MarkupKind.Markdown,
      value: targets
        .map(
          (target) =>
            `**${qualifiedName(target)}** (skill)\n\n${target.description || '_No description._'}\n\n\`${target.file}\``,
        )
        .join('\n\n---\n\n'),
    },
  };
}

/** Where a name of a skill is being typed: after `/`, `$`, `Skill(` or `plugin:`, with the part typed so far. */
const TYPING = /(?:(?:^|[\s(`"'])[/$]|\bSkill\()([a-z0-9:-]*)$/;

/** The skills one may name where a mention is being typed at `offset` of `text`. */
export function libraryCompletion(
  library: Library,
  skill: LibrarySkill,
  source: TextLike,
  lines: LineIndex,
  offset: number,
): CompletionItem[] {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  const typed = TYPING.exec(source.slice(lineStart, offset));
  if (!typed) return [];
  const range = { start: lines.positionAt(offset - typed[1].length), end: lines.positionAt(offset) };
  return [...library.byName.entries()]
    .filter(([, skills]) => skills.some((other) => other !== skill))
    .map(([name, skills]) => ({
      label: name,
      kind: CompletionItemKind.Module,
      detail: 'skill',
      documentation: { kind: MarkupKind.Markdown, value: skills[0].description },
      textEdit: { range, newText: name },
    }));
}

/** Every mention of the skill whose `name` is at `offset`, across the library. */
export function libraryReferences(library: Library, skill: LibrarySkill, offset: number): Location[] {
  const name = skill.nameSpan;
  if (!name || offset < name.start || offset > name.end) return [];
  return library.edges.filter((edge) => edge.to === skill.file).map((edge) => locationIn(edge.from, edge.range));
}
