import * as path from 'node:path';
import type { Span } from '../../parse/text/lineIndex';
import type { TextLike } from '../../parse/text/textLike';
import { type FileSystem } from '../../workspace/fileSystem';
import { resolveSkillPath } from '../../workspace/skillPaths';
import type { PathMention } from '../../parse/markdown/pathMentions';
import { notMeantToExist } from '../match/mentionIntent';
import { expandBraces, isPathPattern, matchesSomeFile } from '../match/pathPatterns';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { LinkFindings } from './linkFindings';
import { defineRule, type Rule } from '../engine/rule';
import type { FileLink } from '../../model/skillModel';
import { suggestionFix } from '../engine/suggestionFix';
import { createStepScriptFix } from '../edits/scriptStub';
import { fixOf, textChange, type Fix } from '../engine/fix';
import { whoseMissingFile, withNearestFile, type BareMentions } from './unresolvedMentions';

export const missingFile = defineRule({
  code: 'missing_file',
  category: 'paths',
  severity: 'warning',
  summary: 'A path the skill names does not exist in the skill folder.',
  stability: 'stable',
  formats: 'all',
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const pathCaseMismatch = defineRule({
  code: 'path_case_mismatch',
  category: 'paths',
  severity: 'warning',
  summary: 'A path matches a file only when case is ignored.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: replacementFix,
});

export const pathEscapesSkill = defineRule({
  code: 'path_escapes_skill',
  category: 'paths',
  severity: 'warning',
  summary: 'A path points outside the skill folder.',
  stability: 'stable',
  formats: 'all',
});

export const backslashPath = defineRule({
  code: 'backslash_path',
  category: 'paths',
  severity: 'warning',
  summary: 'A path uses backslashes.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: replacementFix,
});

export const missingScript = defineRule({
  code: 'missing_script',
  category: 'graph',
  severity: 'warning',
  summary: 'The script a step runs does not exist.',
  stability: 'stable',
  formats: ['aip-0.3', 'skillplus'],
  fixable: 'unsafe',
  fix: createStepScriptFix,
});

export const missingResource = defineRule({
  code: 'missing_resource',
  category: 'aip-graph',
  severity: 'error',
  summary: 'A script, template, asset or reference the procedure names does not exist.',
  stability: 'stable',
  formats: ['aip-0.5'],
  fixable: 'unsafe',
  fix: createStepScriptFix,
});

/** How far past a mention a file name with spaces is looked for (cutShortBySpace). */
const MAX_NAME_REST = 255;

export interface LinkCheck {
  fs: FileSystem;
  dir: string;
  file: string;
  /** Findings kept from earlier analyses of the same skill (the language server's), per link object. */
  reused?: LinkFindings;
  /** The text mentions' spans are in (SKILL.md's): what the prose around a mention says of it. */
  text?: TextLike;
}

/**
 * Checks one path the skill names. `missingCode` says what a missing target
 * means here: a dead prose link, a step's missing script, a missing 0.5
 * resource. `label` names the target in messages ("The script
 * `scripts/a.py` of step "load""). Returns the absolute path when it exists.
 */
export function checkLink(
  context: LinkCheck,
  target: string,
  span: Span,
  missingCode: Rule,
  label: string,
  out: Diagnostic[],
): string | undefined {
  const resolution = resolveSkillPath(context.fs, context.dir, target);
  switch (resolution.status) {
    case 'found':
      return resolution.absolute;
    case 'backslash':
      out.push(
        diagnostic(
          backslashPath,
          context.file,
          span,
          `\`${target}\` uses backslashes; skills run on Linux and macOS too: write \`${target.replace(/\\/g, '/')}\`.`,
          { replacement: target.replace(/\\/g, '/') },
        ),
      );
      return undefined;
    case 'escapes':
      out.push(diagnostic(pathEscapesSkill, context.file, span, escapeMessage(context.dir, target)));
      return undefined;
    case 'case_mismatch':
      out.push(
        diagnostic(
          pathCaseMismatch,
          context.file,
          span,
          `${label} exists only as \`${resolution.actual}\`: the case differs, which works on macOS and Windows but breaks on Linux.`,
          {
            replacement: resolution.actual,
          },
        ),
      );
      return undefined;
    case 'missing':
      out.push(
        diagnostic(missingCode, context.file, span, `${label} does not exist in the skill folder.`, { path: target }),
      );
      return undefined;
  }
}

/**
 * What a path out of the skill is, and how to name it so it holds wherever the skill is installed, worked out from the
 * path alone (nothing outside the skill is read): another skill's SKILL.md, a file of a skill beside this one, or a
 * file beside the `skills/` folder that holds this skill, a plugin's root when the skill is part of a Claude Code
 * plugin.
 */
function escapeMessage(dir: string, target: string): string {
  const general = `\`${target}\` points outside the skill folder; a skill must be self-contained, and Skillgraph does not follow it.`;
  if (path.posix.isAbsolute(target) || /^[A-Za-z]:|^~/.test(target)) return general;
  const landed = path.resolve(dir, target);
  // A link inside the skill that leads out: where it leads is on the disk, not in the path.
  if (!path.relative(dir, landed).startsWith('..')) return general;
  const parent = path.dirname(dir);
  const beside = path.relative(parent, landed).split(path.sep);
  if (path.basename(landed) === 'SKILL.md') {
    const skill = path.basename(path.dirname(landed));
    return `\`${target}\` points outside the skill folder, to the skill \`${skill}\`; skills are installed one by one, so a path to another breaks: name the skill (\`${skill}\`) and let the agent load it.`;
  }
  if (beside[0] !== '..' && beside.length > 1)
    return `\`${target}\` points outside the skill folder, into \`${beside[0]}/\` beside it; skills are installed one by one, so a path into another breaks: copy the file into this skill, or name the skill that holds it.`;
  const owner = path.dirname(parent);
  const inOwner = path.relative(owner, landed).split(path.sep);
  if (path.basename(parent) === 'skills' && !['..', '', 'skills'].includes(inOwner[0])) {
    const portable = `\${CLAUDE_PLUGIN_ROOT}/${inOwner.join('/')}`;
    return `\`${target}\` points outside the skill folder, to \`${inOwner.join('/')}\` beside the \`skills/\` folder that holds this skill: in a plugin, write \`${portable}\`, which Claude Code resolves wherever the plugin is installed, or copy the file into the skill.`;
  }
  return general;
}

/**
 * `checkLink` for a path the step `stepId` declares (its script, a
 * resource). The findings are worked out once per snapshot of the disk for
 * the `link` object, which the language server keeps, moved, while the
 * step's text is unchanged; they point at its span, so they move with it.
 */
export function checkStepLink(
  context: LinkCheck,
  link: FileLink,
  missingCode: Rule,
  stepId: string,
  out: Diagnostic[],
): void {
  let found = context.reused?.of(link);
  if (!found) {
    found = [];
    checkLink(
      context,
      link.path,
      link.span,
      missingCode,
      `The ${link.role} \`${link.path}\` of step "${stepId}"`,
      found,
    );
    context.reused?.keep(link, found);
  }
  for (const diagnostic of found) out.push(diagnostic);
}

/**
 * Checks the paths mentioned in prose, except those declared elsewhere (and
 * checked there): each must exist, unless the prose makes it a placeholder,
 * an example or a file to make (`mentionIntent.ts`). `bare` says whose file
 * a bare mention nothing ties to the skill is (`unresolvedMentions.ts`).
 */
export function checkMentionedPaths(
  context: LinkCheck,
  mentions: readonly PathMention[],
  declared: ReadonlySet<string>,
  bare: BareMentions,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const mention of mentions) {
    if (declared.has(mention.path)) continue;
    // A reused step's mentions are the same objects from one analysis to the next (see checkStepLink).
    let found = context.reused?.of(mention);
    if (!found) {
      found = checkMention(context, mention, bare);
      context.reused?.keep(mention, found);
    }
    for (const diagnostic of found) diagnostics.push(diagnostic);
  }
  return diagnostics;
}

function checkMention(context: LinkCheck, mention: PathMention, bare: BareMentions): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const label = `${mention.link ? 'The link target' : 'The file'} \`${mention.path}\``;
  if (isPathPattern(mention.path)) {
    const alternatives = expandBraces(mention.path) ?? [];
    const missing = missingAlternatives(context, alternatives);
    if (missing.length > 0 && !notMeantToExist(context.text, mention)) {
      const which = missing.map((item) => `\`${item}\``).join(', ');
      const item = diagnostic(
        missingFile,
        context.file,
        mention.span,
        `${label} names files the skill folder does not hold: ${which}${isPathPattern(missing.join('')) ? ' (no file matches)' : ''}.`,
        { path: mention.path },
      );
      // A pattern some of whose files the skill holds is the skill's: the rest are missing from it.
      diagnostics.push(
        missing.length < alternatives.length ? item : whoseMissingFile(context, item, mention, mention.path, bare),
      );
    }
    return diagnostics;
  }
  // A link to another skill is an edge of the library, which reads, shows and renames it (libraryModel.ts): reported
  // here as well, one link would be two findings.
  if (mention.link && linksToAnotherSkill(mention.path)) return diagnostics;
  const found: Diagnostic[] = [];
  checkLink(context, mention.path, mention.span, missingFile, label, found);
  for (const item of found) {
    if (item.code !== missingFile.code) diagnostics.push(item);
    else if (!notMeantToExist(context.text, mention) && !cutShortBySpace(context, mention)) {
      // A code span that holds a name with spaces, all of it: the finding names that file, not its first word.
      const whole = spacedCodeName(context.text, mention);
      if (!whole) {
        diagnostics.push(ofTheSkill(context, item, mention, mention.path, bare));
        continue;
      }
      const missing: Diagnostic[] = [];
      checkLink(context, whole.path, whole.span, missingFile, `The file \`${whole.path}\``, missing);
      for (const other of missing) diagnostics.push(ofTheSkill(context, other, mention, whole.path, bare));
    }
  }
  return diagnostics;
}

/**
 * Whether a link target out of the skill names another skill, from the path alone (nothing outside the skill is read):
 * a SKILL.md, or a folder beside this skill's (`../other/`), as the library reads links (skillMentions.ts).
 */
function linksToAnotherSkill(target: string): boolean {
  const normalized = path.posix.normalize(target);
  if (!normalized.startsWith('../')) return false;
  return path.posix.basename(normalized) === 'SKILL.md' || /^\.\.\/[^/]+\/$/.test(normalized);
}

const BACKTICK = 0x60;
/** The rest of a code span's name after its first word: words, the last with an extension (`Meeting Notes.md`). */
const NAME_REST = /^(?: [^\s`-][^\s`]*)+(?=`)/;

/**
 * The whole name a code span holds when a mention is its first word and has no extension: `` `references/Meeting
 * Notes.md` `` is one file, read to its first space as `references/Meeting`. Not a command (`` `scripts/run in.txt` ``
 * names `scripts/run`, but that one is found and never asked about) nor a word with an option after it.
 */
function spacedCodeName(text: TextLike | undefined, mention: PathMention): { path: string; span: Span } | undefined {
  if (mention.link || !text || text.charCodeAt(mention.span.start - 1) !== BACKTICK) return undefined;
  if (path.posix.extname(mention.path) !== '') return undefined;
  const rest = NAME_REST.exec(text.slice(mention.span.end, mention.span.end + MAX_NAME_REST + 1));
  if (!rest || !/\.[A-Za-z0-9]{1,8}$/.test(rest[0])) return undefined;
  return { path: mention.path + rest[0], span: { start: mention.span.start, end: mention.span.end + rest[0].length } };
}

/**
 * Whether a mention in prose is the start of a file name with spaces in it, which prose reads to its first space:
 * `references/My File.md` is read as `references/My`, and the file beside it is the one the text goes on to name.
 */
function cutShortBySpace(context: LinkCheck, mention: PathMention): boolean {
  if (mention.link || !context.text) return false;
  const folder = resolveSkillPath(context.fs, context.dir, path.posix.dirname(mention.path));
  if (folder.status !== 'found' || folder.kind !== 'directory') return false;
  const start = `${path.posix.basename(mention.path)} `;
  const after = context.text.slice(mention.span.end, mention.span.end + MAX_NAME_REST);
  return context.fs
    .readDirectory(folder.absolute)
    .some((entry) => entry.name.startsWith(start) && after.startsWith(entry.name.slice(start.length - 1)));
}

/**
 * The alternatives of a pattern (`a.{sh,ps1}`, `*.md`) no file of the skill answers to. Braces that do not pair up, or
 * expand past reason, are prose, not paths: no alternatives.
 */
function missingAlternatives(context: LinkCheck, alternatives: readonly string[]): string[] {
  return alternatives.filter((alternative) =>
    isPathPattern(alternative)
      ? !matchesSomeFile(context.fs, context.dir, alternative)
      : resolveSkillPath(context.fs, context.dir, alternative).status === 'missing',
  );
}

/**
 * A missing file's finding: `missing_file` naming the file of the skill it most likely means when one is near (which
 * makes the mention the skill's), else as whose the mention is says.
 */
function ofTheSkill(
  context: LinkCheck,
  item: Diagnostic,
  mention: PathMention,
  target: string,
  bare: BareMentions,
): Diagnostic {
  return withNearestFile(context, item, target) ?? whoseMissingFile(context, item, mention, target, bare);
}

/** The same file, named as every file system finds it (its case, forward slashes): safe. */
function replacementFix(item: Diagnostic): Fix[] {
  const replacement = item.data?.replacement;
  return typeof replacement === 'string'
    ? [
        fixOf(item, `Change to "${replacement}"`, 'safe', [
          textChange(item.file, item.span.start, item.span.end, replacement),
        ]),
      ]
    : [];
}
