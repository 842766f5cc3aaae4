import * as path from 'node:path';
import { FILE_START_RANGE, LineIndex, type Span } from '../parse/text/lineIndex';
import { fenceLanguage, parseSkillFile, type SkillFileSyntax } from '../parse/markdown/skillFile';
import type { TextLike } from '../parse/text/textLike';
import { ListingCache } from '../workspace/diskSnapshot';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { readCatalogSkill } from '../workspace/skillCatalog';
import { commandsAbove } from './commandFiles';
import { skillMentions, type MentionKind, type SkillMention } from './skillMentions';
import { appendTo } from '../listMap';
import { CLIENT_FOLDERS, PLUGIN_MANIFEST } from '../platforms/clients';
import type { LspRange } from '../protocol';

// The library: every skill found under the roots a team keeps skills in, with the names clients know them by, where
// each lives (which decides which of two same-named skills a client loads), and the edges between them (one skill
// invoking, linking or composing another).

/** Where a skill lives, as the clients that read that folder tell skills apart. */
export type SkillScope =
  | { kind: 'claude-personal' }
  | { kind: 'claude-project' }
  | { kind: 'agents-user' }
  | { kind: 'agents-repo' }
  | { kind: 'plugin'; plugin: string }
  | { kind: 'other' };

export interface LibrarySkill {
  file: string;
  dir: string;
  /** Its `name`, or its folder's name when it has none (as Claude Code names it). */
  name: string;
  /** Where `name`'s value is written, when it is on a line of its own. */
  nameSpan?: Span;
  /** The same as the editor counts lines and characters. */
  nameRange?: LspRange;
  description: string;
  descriptionSpan?: Span;
  descriptionRange?: LspRange;
  scope: SkillScope;
  mentions: PlacedMention[];
  /** The command files its `/name` may run besides skills (commandFiles.ts). */
  commands: ReadonlySet<string>;
  /** Its SKILL.md has suppression comments: the library's findings in it are read against them. */
  hasSuppressions: boolean;
  /** Its head or body marks a procedure (AIP, MetaSkill, skill+): the skill is worth analysing for the graph. */
  structured: boolean;
}

/**
 * A mention with its place as the editor counts lines and characters, worked out while the text is read: the library
 * view and the features across skills place mentions and names without reading each SKILL.md again.
 */
export interface PlacedMention extends SkillMention {
  range: LspRange;
}

export interface LibraryEdge {
  /** SKILL.md of the skill that names the other, and of the one named. */
  from: string;
  to: string;
  kind: MentionKind;
  span: Span;
  range: LspRange;
}

export interface Library {
  skills: LibrarySkill[];
  /** The skills of each name (more than one: a collision). */
  byName: Map<string, LibrarySkill[]>;
  edges: LibraryEdge[];
  /** Mentions of a name no skill of the library has, with the skill they are in. */
  unresolved: { skill: LibrarySkill; mention: SkillMention }[];
}

/** A key: value line of the frontmatter, its value plain or simply quoted. */
const LINE_VALUE = (key: string) => new RegExp(`^${key}[ \\t]*:[ \\t]*(["']?)(.*?)\\1[ \\t]*$`, 'm');

/** The frontmatter keys that mark a structured format (`formats/detect.ts` decides which, on the parsed values). */
const STRUCTURED_HEAD = /^[ \t]*(?:aip|aip-version|skillplus-version)[ \t]*:|^kind[ \t]*:[ \t]*["']?meta/m;

/** One skill of the library, read from its SKILL.md; undefined when it cannot be read as text. */
export function readLibrarySkill(fs: FileSystem, file: string, home: string): LibrarySkill | undefined {
  const read = readText(fs, file);
  return read.kind === 'text' ? librarySkillOf(fs, file, read.text, parseSkillFile(read.text), home) : undefined;
}

/**
 * One skill of the library from its SKILL.md as read (the editor's text and its analysis's syntax, while it is open):
 * only the frontmatter and the prose are sliced from it.
 */
export function librarySkillOf(
  fs: FileSystem,
  file: string,
  source: TextLike,
  syntax: SkillFileSyntax,
  home: string,
): LibrarySkill {
  const dir = path.dirname(file);
  const frontmatter = syntax.frontmatter;
  // The values as a client reads them (a block scalar, quotes); their places when each is on a line of its own.
  const head = frontmatter ? source.slice(0, (frontmatter.close ?? frontmatter.content).end) : '';
  const catalog = frontmatter ? readCatalogSkill(file, `${head}\n`) : undefined;
  const place = (key: string): Span | undefined => {
    if (!frontmatter) return undefined;
    const match = LINE_VALUE(key).exec(head.slice(frontmatter.content.start, frontmatter.content.end));
    if (!match || match[2] === '') return undefined;
    const start = frontmatter.content.start + match.index + match[0].indexOf(match[2], match[0].indexOf(':') + 1);
    return { start, end: start + match[2].length };
  };
  const nameSpan = place('name');
  const descriptionSpan = place('description');
  const mentions = skillMentions(source, syntax);
  // Lines are counted up to the last place asked for, not through the whole text.
  const lines = new LineIndex(
    source.slice(
      0,
      Math.max(nameSpan?.end ?? 0, descriptionSpan?.end ?? 0, ...mentions.map((found) => found.span.end)),
    ),
  );
  return {
    file,
    dir,
    name: catalog?.name ?? path.basename(dir),
    ...(nameSpan ? { nameSpan, nameRange: lines.rangeOf(nameSpan) } : {}),
    description: catalog?.description ?? '',
    ...(descriptionSpan ? { descriptionSpan, descriptionRange: lines.rangeOf(descriptionSpan) } : {}),
    scope: scopeOf(fs, dir, home),
    mentions: mentions.map((found) => ({ ...found, range: lines.rangeOf(found.span) })),
    commands: commandsAbove(fs, dir, home),
    hasSuppressions: source.includes('skillgraph-'),
    // A lone YAML block in the body is an AIP procedure without its metadata.
    structured: STRUCTURED_HEAD.test(head) || syntax.fences.some((fence) => /^ya?ml$/i.test(fenceLanguage(fence))),
  };
}

/** Where a finding about a skill as a whole goes when its line is not known: the start of its file. */
const FILE_START = { span: { start: 0, end: 0 }, range: FILE_START_RANGE };

/** Where a finding about a skill's name is placed: its value, else the start of its file. */
export function namePlace(skill: LibrarySkill): { span: Span; range: LspRange } {
  return skill.nameSpan && skill.nameRange ? { span: skill.nameSpan, range: skill.nameRange } : FILE_START;
}

/** Where a finding about a skill's description is placed: its value, else its name. */
export function descriptionPlace(skill: LibrarySkill): { span: Span; range: LspRange } {
  return skill.descriptionSpan && skill.descriptionRange
    ? { span: skill.descriptionSpan, range: skill.descriptionRange }
    : namePlace(skill);
}

/** Where a skill folder lives: a client's folder (personal or the project's), a plugin, or elsewhere. */
export function scopeOf(fs: FileSystem, dir: string, home: string): SkillScope {
  const parts = dir.split(path.sep);
  const under = (folder: string) => {
    const at = parts.lastIndexOf(folder);
    return at >= 0 && parts[at + 1] === 'skills' ? parts.slice(0, at).join(path.sep) || path.sep : undefined;
  };
  // A plugin's skills are named in its namespace (`plugin:name`): the nearest folder above with a plugin manifest.
  const plugin = pluginAbove(fs, dir, home);
  if (plugin !== undefined) return { kind: 'plugin', plugin };
  for (const client of CLIENT_FOLDERS) {
    const above = client.scopes && under(client.folder);
    if (above !== undefined)
      return { kind: above === home ? client.scopes!.user : client.scopes!.project } as SkillScope;
  }
  return { kind: 'other' };
}

/**
 * Which folder above each folder is a plugin's, remembered for a disk whose listings are a snapshot (the CLI's):
 * the skills of a library share their ancestors, and each would stat the same manifests again.
 */
const pluginsAbove = new WeakMap<FileSystem, Map<string, string | undefined>>();

/** The plugin whose folder holds `dir` (searched up to `home`), by its folder's name. */
function pluginAbove(fs: FileSystem, dir: string, home: string): string | undefined {
  let remembered: Map<string, string | undefined> | undefined;
  if (fs instanceof ListingCache) {
    remembered = pluginsAbove.get(fs);
    if (!remembered) pluginsAbove.set(fs, (remembered = new Map()));
  }
  const lookUp = (up: string): string | undefined => {
    if (up === path.dirname(up)) return undefined;
    if (remembered?.has(up)) return remembered.get(up);
    const found =
      fs.stat(path.join(up, PLUGIN_MANIFEST))?.kind === 'file'
        ? path.basename(up)
        : up === home
          ? undefined
          : lookUp(path.dirname(up));
    remembered?.set(up, found);
    return found;
  };
  return lookUp(path.dirname(dir));
}

/** The name a mention resolves by: a plugin's skill as `plugin:name`, any other by its name. */
export function qualifiedName(skill: LibrarySkill): string {
  return skill.scope.kind === 'plugin' ? `${skill.scope.plugin}:${skill.name}` : skill.name;
}

/** The library of `files` (SKILL.md paths), its names resolved and its edges drawn. */
export function buildLibrary(fs: FileSystem, files: string[], home: string): Library {
  return linkLibrary(files.flatMap((file) => readLibrarySkill(fs, file, home) ?? []));
}

/** The library of skills already read: each mention resolved to the skills it names, or left unresolved. */
export function linkLibrary(skills: LibrarySkill[]): Library {
  const byName = new Map<string, LibrarySkill[]>();
  for (const skill of skills) appendTo(byName, qualifiedName(skill), skill);
  const byFile = new Map(skills.map((skill) => [skill.file, skill]));
  const edges: LibraryEdge[] = [];
  const unresolved: Library['unresolved'] = [];
  for (const skill of skills)
    for (const mention of skill.mentions) {
      if (mention.kind === 'link') {
        const linked = byFile.get(linkTarget(skill, mention));
        if (linked && linked !== skill)
          edges.push({ from: skill.file, to: linked.file, kind: 'link', span: mention.span, range: mention.range });
        continue;
      }
      const named = resolveMention(byName, mention, skill);
      // A composition naming no skill is the MetaSkill checks' to report, with its catalog (`unknown_skill`); a note
      // naming nothing ("see also /x") tells the agent to do nothing.
      if (!named) {
        if (mention.kind !== 'compose' && mention.invokes) unresolved.push({ skill, mention });
      }
      // A name two skills share resolves to each: which one a client loads is the collision's finding. A note that a
      // skill exists is a link to it, however it is written.
      else
        for (const target of named)
          if (target !== skill)
            edges.push({
              from: skill.file,
              to: target.file,
              kind: mention.invokes ? mention.kind : 'link',
              span: mention.span,
              range: mention.range,
            });
    }
  return { skills, byName, edges, unresolved };
}

/** The SKILL.md a link mention points at (it may be no skill of the library). */
export function linkTarget(skill: LibrarySkill, mention: SkillMention): string {
  const target = path.resolve(skill.dir, mention.path!);
  return target.endsWith('SKILL.md') ? target : path.join(target, 'SKILL.md');
}

/**
 * The skills a mention by name names: a plugin's by its qualified name, or, in a checkout without the plugin's
 * manifest, by its own; from a skill of a plugin (`from`), that plugin's skill of the name.
 */
export function resolveMention(
  byName: ReadonlyMap<string, LibrarySkill[]>,
  mention: SkillMention,
  from?: LibrarySkill,
): LibrarySkill[] | undefined {
  return (
    (mention.plugin && byName.get(`${mention.plugin}:${mention.name}`)) ||
    (mention.plugin && mention.kind !== 'plugin' ? undefined : byName.get(mention.name)) ||
    // Inside a plugin, its own skills answer to their bare names (`/name` where no other skill has it).
    (!mention.plugin && from?.scope.kind === 'plugin' ? byName.get(`${from.scope.plugin}:${mention.name}`) : undefined)
  );
}
