import * as path from 'node:path';
import type { Span } from '../parse/lineIndex';
import type { TextLike } from '../parse/textLike';
import { rememberedIn } from '../workspace/diskSnapshot';
import { type FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { resolveSkillPath } from '../workspace/skillPaths';
import { findPathMentions, type PathMention } from '../parse/pathMentions';
import { diagnostic, type Diagnostic } from './diagnostic';
import type { LinkFindings } from './linkFindings';
import type { RuleCode } from './rules';
import type { FileLink } from '../model/skillModel';

export interface LinkCheck {
  fs: FileSystem;
  dir: string;
  file: string;
  /** Findings kept from earlier analyses of the same skill (the language server's), per link object. */
  kept?: LinkFindings;
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
  missingCode: RuleCode,
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
          'backslash_path',
          context.file,
          span,
          `\`${target}\` uses backslashes; skills run on Linux and macOS too: write \`${target.replace(/\\/g, '/')}\`.`,
          { replacement: target.replace(/\\/g, '/') },
        ),
      );
      return undefined;
    case 'escapes':
      out.push(
        diagnostic(
          'path_escapes_skill',
          context.file,
          span,
          `\`${target}\` points outside the skill folder; a skill must be self-contained, and Skillgraph does not follow it.`,
        ),
      );
      return undefined;
    case 'case_mismatch':
      out.push(
        diagnostic(
          'path_case_mismatch',
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
 * `checkLink` for a path the step `stepId` declares (its script, a
 * resource). The findings are worked out once per snapshot of the disk for
 * the `link` object, which the language server keeps, moved, while the
 * step's text is unchanged; they point at its span, so they move with it.
 */
export function checkStepLink(
  context: LinkCheck,
  link: FileLink,
  missingCode: RuleCode,
  stepId: string,
  out: Diagnostic[],
): void {
  let found = context.kept?.of(link);
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
    context.kept?.keep(link, found);
  }
  for (const diagnostic of found) out.push(diagnostic);
}

/**
 * Checks the paths mentioned in prose regions, except those declared
 * elsewhere (and checked there); for Markdown files they link
 * to, warns when those files link on to further files (agents read one level
 * of references reliably, not chains).
 */
export function checkProseLinks(
  context: LinkCheck,
  text: TextLike,
  regions: Span[],
  declaredPaths: string[],
): Diagnostic[] {
  return checkMentionedPaths(context, findPathMentions(text, regions), new Set(declaredPaths));
}

/** `checkProseLinks` over mentions already found. */
export function checkMentionedPaths(
  context: LinkCheck,
  mentions: readonly PathMention[],
  declared: ReadonlySet<string>,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const mention of mentions) {
    if (declared.has(mention.path)) continue;
    // A kept step's mentions are the same objects from one analysis to the next (see checkStepLink).
    let found = context.kept?.of(mention);
    if (!found) {
      found = checkMention(context, mention);
      context.kept?.keep(mention, found);
    }
    for (const diagnostic of found) diagnostics.push(diagnostic);
  }
  return diagnostics;
}

function checkMention(context: LinkCheck, mention: PathMention): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const absolute = checkLink(
    context,
    mention.path,
    mention.span,
    'missing_file',
    `${mention.link ? 'The link target' : 'The file'} \`${mention.path}\``,
    diagnostics,
  );
  if (absolute && mention.link && absolute.endsWith('.md') && path.resolve(absolute) !== path.resolve(context.file)) {
    const chained = linkedMarkdown(context, absolute);
    if (chained.length > 0) {
      diagnostics.push(
        diagnostic(
          'nested_reference',
          context.file,
          mention.span,
          `\`${mention.path}\` links on to ${chained.map((name) => `\`${name}\``).join(', ')}; agents follow references one level deep reliably, so link those files from SKILL.md directly.`,
        ),
      );
    }
  }
  return diagnostics;
}

/**
 * What a Markdown file links on to; a snapshot of the disk reads it once (a skill linking one guide from every
 * section).
 */
function linkedMarkdown(context: LinkCheck, markdownFile: string): string[] {
  const read = () => readLinkedMarkdown(context, markdownFile);
  return rememberedIn(context.fs, 'linked markdown', `${context.dir}\0${context.file}`, markdownFile, read);
}

function readLinkedMarkdown(context: LinkCheck, markdownFile: string): string[] {
  const read = readText(context.fs, markdownFile);
  if (read.kind !== 'text') return [];
  const names = new Set<string>();
  for (const mention of findPathMentions(read.text, [{ start: 0, end: read.text.length }])) {
    if (!mention.link || !mention.path.endsWith('.md')) continue;
    const relative = path.posix.join(
      path.relative(context.dir, path.dirname(markdownFile)).split(path.sep).join('/'),
      mention.path,
    );
    const resolution = resolveSkillPath(context.fs, context.dir, relative);
    if (resolution.status === 'found' && path.resolve(resolution.absolute) !== path.resolve(context.file))
      names.add(relative);
  }
  return [...names];
}
