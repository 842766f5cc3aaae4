import type { Span } from '../parse/text/lineIndex';
import { outsideFences, type SkillFileSyntax } from '../parse/markdown/skillFile';
import type { TextLike } from '../parse/text/textLike';

// How one skill names another: the ways clients invoke a skill by name, and links to another skill's SKILL.md. Read
// from the text only; what a name stands for is the library's to say (libraryModel.ts).

export type MentionKind = 'tool' | 'slash' | 'dollar' | 'plugin' | 'link' | 'compose';

export interface SkillMention {
  kind: MentionKind;
  /** The skill's name as written (for a link: the linked folder's name). */
  name: string;
  /** `Skill(plugin:name)`, `/plugin:name`: a plugin's skill, named in the plugin's own namespace. */
  plugin?: string;
  /** For a link: the path as written, from the mentioning skill's folder. */
  path?: string;
  /** Where the name is written (for a link, the link's target). */
  span: Span;
}

/** A skill name as the specification allows it: lower-case letters, digits and single hyphens. */
const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
/** Claude Code's permission syntax: `Skill(name)`, `Skill(plugin:name)`, in `allowed-tools` or prose. */
const TOOL = new RegExp(`\\bSkill\\((?:(${NAME}):)?(${NAME})(?:\\s[^)]*)?\\)`, 'g');
/**
 * `/name` (Claude Code, VS Code, Cursor) and `/plugin:name`: not part of a path, a URL or a word (`a/b`, `./x`,
 * `https://…/x`, `/x/y`, `/x.md`); a full stop after it ends the sentence.
 */
const SLASH = new RegExp(`(?<![\\w/.:~@\\\\-])\\/(?:(${NAME}):)?(${NAME})(?![\\w/-]|\\.\\w)`, 'g');
/** `$name` (Codex): lower-case, so not an environment variable (`$HOME`, `$ARGUMENTS`) nor a price (`$5`). */
const DOLLAR = new RegExp(`(?<![\\w$\\\\])\\$([a-z](?:[a-z0-9]*)(?:-[a-z0-9]+)*)(?![\\w-])`, 'g');
/**
 * `plugin:name` in prose, how a plugin's skills name each other (`Use superpowers:test-driven-development`): the name
 * hyphenated, so a `note:` or a `key:value` is not one.
 */
const PLUGIN = new RegExp(`(?<![\\w/:.@-])(${NAME}):([a-z0-9]+(?:-[a-z0-9]+)+)(?![\\w:/-]|\\.\\w)`, 'g');
/** A MetaSkill's frontmatter: `kind: meta`, whose `composition.steps` name the skills they run. */
const META_KIND = /^kind[ \t]*:[ \t]*["']?meta["']?[ \t]*(?:#.*)?$/m;
/**
 * A composition step's `skill: name` and a route case's `to: name` (the skill run instead when its `when` holds), the
 * value plain or quoted: as a line of its own or a list item's first key, or a route case written as a flow mapping
 * (`{when: …, to: name}`).
 */
const COMPOSE = [
  new RegExp(`^[ \\t]*(?:-[ \\t]+)?(?:skill|to)[ \\t]*:[ \\t]*(["']?)(${NAME})\\1[ \\t]*(?:#.*)?$`, 'gm'),
  new RegExp(`[{,][ \\t]*to[ \\t]*:[ \\t]*(["']?)(${NAME})\\1[ \\t]*(?=[,}])`, 'g'),
];
/** A Markdown link to another skill: `](../other/SKILL.md)` or `](../other/)`. */
const LINK = /\]\(\s*<?((?:\.\.?\/)+(?:[^()\s>]*\/)?([^()\s/>]+)\/(?:SKILL\.md)?)>?(?:\s+"[^"]*")?\s*\)/g;

/**
 * The mentions of other skills in a SKILL.md, read outside its fenced blocks (a command line's `/usr` or `$path` is not
 * an invocation): `Skill(…)` in the frontmatter (`allowed-tools`) and the body; a MetaSkill's `skill:` steps in its
 * frontmatter; `/name`, `$name`, `plugin:name` and links to another skill's folder or SKILL.md in the body. Read from
 * slices of `source` (the editor's text is not made one string for it).
 */
export function skillMentions(source: TextLike, syntax: SkillFileSyntax): SkillMention[] {
  const mentions: SkillMention[] = [];
  const regions = [
    ...(syntax.frontmatter ? [syntax.frontmatter.content] : []),
    ...outsideFences(syntax.body, syntax.fences),
  ];
  for (const region of regions) {
    const part = source.slice(region.start, region.end);
    for (const match of part.matchAll(TOOL)) {
      const start = region.start + match.index! + match[0].indexOf('(') + 1 + (match[1] ? match[1].length + 1 : 0);
      mentions.push({
        kind: 'tool',
        name: match[2],
        ...(match[1] ? { plugin: match[1] } : {}),
        span: { start, end: start + match[2].length },
      });
    }
    if (region === syntax.frontmatter?.content) {
      if (META_KIND.test(part))
        for (const match of COMPOSE.flatMap((pattern) => [...part.matchAll(pattern)])) {
          const start =
            region.start +
            match.index! +
            match[0].indexOf(match[1] + match[2], match[0].indexOf(':')) +
            match[1].length;
          mentions.push({ kind: 'compose', name: match[2], span: { start, end: start + match[2].length } });
        }
      continue;
    }
    for (const match of part.matchAll(SLASH)) {
      const start = region.start + match.index! + 1 + (match[1] ? match[1].length + 1 : 0);
      mentions.push({
        kind: 'slash',
        name: match[2],
        ...(match[1] ? { plugin: match[1] } : {}),
        span: { start, end: start + match[2].length },
      });
    }
    for (const match of part.matchAll(DOLLAR)) {
      const start = region.start + match.index! + 1;
      mentions.push({ kind: 'dollar', name: match[1], span: { start, end: start + match[1].length } });
    }
    for (const match of part.matchAll(PLUGIN)) {
      const start = region.start + match.index! + match[1].length + 1;
      mentions.push({
        kind: 'plugin',
        name: match[2],
        plugin: match[1],
        span: { start, end: start + match[2].length },
      });
    }
    for (const match of part.matchAll(LINK)) {
      const start = region.start + match.index! + match[0].indexOf(match[1]);
      mentions.push({ kind: 'link', name: match[2], path: match[1], span: { start, end: start + match[1].length } });
    }
  }
  return mentions.sort((a, b) => a.span.start - b.span.start);
}
