import type { Span } from '../parse/text/lineIndex';
import { outsideFences, type SkillFileSyntax } from '../parse/markdown/skillFile';
import type { TextLike } from '../parse/text/textLike';
import { mentionRole } from './mentionRole';

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
  /**
   * An instruction to run the skill (a `Skill(…)` call, a composed step, `/name` or `$name` where the text tells the
   * agent to run it), not a note that it exists (a link, "see also", a table of commands): see mentionRole.ts.
   */
  invokes: boolean;
  /** The command an instruction says to run, written alone: naming nothing, the agent finds nothing to run. */
  instruction?: true;
}

/** A skill name as the specification allows it: lower-case letters, digits and single hyphens. */
const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
/** Claude Code's permission syntax: `Skill(name)`, `Skill(plugin:name)`, in `allowed-tools` or prose. */
const TOOL = new RegExp(`\\bSkill\\((?:(${NAME}):)?(${NAME})(?:\\s[^)]*)?\\)`, 'g');
/**
 * `/name` (Claude Code, VS Code, Cursor) and `/plugin:name`: not part of a path, a URL or a word (`a/b`, `./x`,
 * `https://…/x`, `/x/y`, `/x.md`), a template's or markup's (`{{/each}}`, `</x>`), or a name's head (`/x:{y}`); a full
 * stop after it ends the sentence.
 */
const SLASH = new RegExp(`(?<![\\w/.:~@\\\\{}<>*-])\\/(?:(${NAME}):)?(${NAME})(?![\\w/-]|[.:][\\w{])`, 'g');
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
/** A `meta_sop` MetaSkill's frontmatter: its body's phases run skills by name. */
const META_SOP_KIND = /^kind[ \t]*:[ \t]*["']?meta_sop["']?[ \t]*(?:#.*)?$/m;
/**
 * A `meta_sop` invocation line, ``Run `name` `` or ``Invoke `name` `` (what OpenSquilla's SOP compiler reads as a step
 * running that skill; readSop.ts reads the rest of the line).
 */
const SOP_RUN = new RegExp(`^[ \\t]*(?:Run|Invoke)[ \\t]+\`(${NAME})\``, 'gm');
/** A Markdown heading: the section the mentions below it are in. */
const HEADING = /^[ \t]{0,3}#{1,6}[ \t]+(.*)$/gm;
/** A Markdown link to another skill: `](../other/SKILL.md)` or `](../other/)`. */
const LINK = /\]\(\s*<?((?:\.\.?\/)+(?:[^()\s>]*\/)?([^()\s/>]+)\/(?:SKILL\.md)?)>?(?:\s+"[^"]*")?\s*\)/g;

/**
 * The mentions of other skills in a SKILL.md, read outside its fenced blocks (a command line's `/usr` or `$path` is not
 * an invocation): `Skill(…)` in the frontmatter (`allowed-tools`) and the body; a MetaSkill's `skill:` steps in its
 * frontmatter and a `meta_sop` one's ``Run `name` `` lines in its body; `/name`, `$name`, `plugin:name` and links to
 * another skill's folder or SKILL.md in the body, each a call or a note as its sentence says (mentionRole.ts). Read
 * from slices of `source` (the editor's text is not made one string for it).
 */
export function skillMentions(source: TextLike, syntax: SkillFileSyntax): SkillMention[] {
  const mentions: SkillMention[] = [];
  const head = syntax.frontmatter ? source.slice(syntax.frontmatter.content.start, syntax.frontmatter.content.end) : '';
  const sop = META_SOP_KIND.test(head);
  const regions = [
    ...(syntax.frontmatter ? [syntax.frontmatter.content] : []),
    ...outsideFences(syntax.body, syntax.fences),
  ];
  // The headings of the body, in order: the section a mention is in is the last one before it.
  const headings: { at: number; title: string }[] = [];
  for (const region of regions.slice(syntax.frontmatter ? 1 : 0))
    for (const match of source.slice(region.start, region.end).matchAll(HEADING))
      headings.push({ at: region.start + match.index!, title: match[1] });
  const sectionAt = (offset: number) => {
    let found: string | undefined;
    for (const heading of headings) {
      if (heading.at >= offset) break;
      found = heading.title;
    }
    return found;
  };
  for (const region of regions) {
    const part = source.slice(region.start, region.end);
    for (const match of part.matchAll(TOOL)) {
      const start = region.start + match.index! + match[0].indexOf('(') + 1 + (match[1] ? match[1].length + 1 : 0);
      mentions.push({
        kind: 'tool',
        name: match[2],
        ...(match[1] ? { plugin: match[1] } : {}),
        span: { start, end: start + match[2].length },
        invokes: true,
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
          mentions.push({
            kind: 'compose',
            name: match[2],
            span: { start, end: start + match[2].length },
            invokes: true,
          });
        }
      continue;
    }
    if (sop)
      for (const match of part.matchAll(SOP_RUN)) {
        const start = region.start + match.index! + match[0].indexOf('`') + 1;
        mentions.push({
          kind: 'compose',
          name: match[1],
          span: { start, end: start + match[1].length },
          invokes: true,
        });
      }
    // A name by sign: a call, a note, or no name of a skill at all (an HTTP route).
    const named = (kind: 'slash' | 'dollar' | 'plugin', at: number, name: string, plugin?: string) => {
      const start = at + (kind === 'plugin' ? plugin!.length : plugin ? plugin.length + 1 : 0) + 1;
      const sign = kind === 'slash' ? '/' : kind === 'dollar' ? '$' : '';
      const role = mentionRole(part, sign, at, start + name.length, sectionAt(region.start + at));
      if (role === 'none') return;
      mentions.push({
        kind,
        name,
        ...(plugin ? { plugin } : {}),
        span: { start: region.start + start, end: region.start + start + name.length },
        invokes: role === 'invokes' || role === 'runs',
        ...(role === 'runs' ? { instruction: true as const } : {}),
      });
    };
    for (const match of part.matchAll(SLASH)) named('slash', match.index!, match[2], match[1]);
    for (const match of part.matchAll(DOLLAR)) named('dollar', match.index!, match[1]);
    for (const match of part.matchAll(PLUGIN)) named('plugin', match.index!, match[2], match[1]);
    for (const match of part.matchAll(LINK)) {
      const start = region.start + match.index! + match[0].indexOf(match[1]);
      mentions.push({
        kind: 'link',
        name: match[2],
        path: match[1],
        span: { start, end: start + match[1].length },
        invokes: false,
      });
    }
  }
  return mentions.sort((a, b) => a.span.start - b.span.start);
}
