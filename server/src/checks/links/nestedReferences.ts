import * as path from 'node:path';
import { listed } from '../engine/wording';
import { findPathMentions, type PathMention } from '../../parse/markdown/pathMentions';
import { rememberedIn } from '../../workspace/diskSnapshot';
import { readText } from '../../workspace/readText';
import { resolveSkillPath } from '../../workspace/skillPaths';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { LinkCheck } from './fileLinks';
import { defineRule } from '../engine/rule';
import { isPathPattern, matchesPattern, withoutPlaceholderRoot } from '../match/pathPatterns';

export const nestedReference = defineRule({
  code: 'nested_reference',
  category: 'paths',
  severity: 'warning',
  summary: 'A referenced file links on to further files (more than one level deep).',
  stability: 'stable',
  formats: 'all',
});

/**
 * A path named from the skill folder, `/`-separated, with `./`, `..` and a placeholder root (`{baseDir}/`) folded
 * away: comparable with others.
 */
function normal(relative: string): string {
  return path.posix.normalize(withoutPlaceholderRoot(relative).replace(/\/+$/, ''));
}

/** How many of the files a finding names it lists before counting the rest. */
const LISTED = 3;

/** `a`, `b`, `c` and 4 more; `a` and `b`; `a`. */
function listedFiles(files: string[]): string {
  const names = files.slice(0, LISTED).map((file) => `\`${file}\``);
  return listed(files.length > LISTED ? [...names, `${files.length - LISTED} more`] : names);
}

/**
 * The Markdown files SKILL.md reaches only through another one. SKILL.md
 * reaches a file directly when it names it (a link or a bare mention, in a
 * table cell or as `./references/x.md` too), names its folder
 * (`[reference/](reference/)`: the agent lists it and opens the file it
 * needs), names a pattern it matches (`references/{topic}.md`), or a step
 * declares it (`declared`); a file a directly reached Markdown file links
 * on to, and SKILL.md does not reach itself, is nested: agents follow
 * references one level deep reliably. One finding per file that leads on
 * (an index may link to dozens), at the first mention of it, naming the
 * nested files it leads to that no earlier one does.
 */
export function checkNestedReferences(
  context: LinkCheck,
  mentions: readonly PathMention[],
  declared: ReadonlySet<string>,
): Diagnostic[] {
  const direct = new Set([...declared].map(normal));
  const folders = new Set<string>();
  const patterns: string[] = [];
  const leading = new Map<string, { mention: PathMention; absolute: string }>();
  for (const mention of mentions) {
    const relative = normal(mention.path);
    direct.add(relative);
    if (isPathPattern(relative)) {
      patterns.push(relative);
      continue;
    }
    // Only a Markdown file leads on, and only a name without an extension may be a folder.
    const markdown = relative.endsWith('.md');
    if (leading.has(relative) || folders.has(relative) || (!markdown && path.posix.extname(relative) !== '')) continue;
    const resolution = resolveSkillPath(context.fs, context.dir, relative);
    if (resolution.status !== 'found') continue;
    if (resolution.kind === 'directory') folders.add(relative);
    else if (markdown && path.resolve(resolution.absolute) !== path.resolve(context.file))
      leading.set(relative, { mention, absolute: resolution.absolute });
  }
  const reachedDirectly = (file: string) =>
    direct.has(file) ||
    folders.has(path.posix.dirname(file)) ||
    patterns.some((pattern) => matchesPattern(pattern, file));
  const diagnostics: Diagnostic[] = [];
  const reported = new Set<string>();
  for (const [relative, { mention, absolute }] of leading) {
    const nested = linkedMarkdown(context, absolute).filter((file) => !reachedDirectly(file) && !reported.has(file));
    if (nested.length === 0) continue;
    for (const file of nested) reported.add(file);
    diagnostics.push(
      diagnostic(
        nestedReference,
        context.file,
        mention.span,
        `SKILL.md reaches ${listedFiles(nested)} only through \`${relative}\`; agents follow references one level deep reliably, so link ${nested.length === 1 ? 'it' : 'them'} from SKILL.md directly.`,
        { nested, through: relative },
      ),
    );
  }
  return diagnostics;
}

/**
 * The Markdown files of the skill a Markdown file links to, from the skill
 * folder; a snapshot of the disk reads each file once.
 */
function linkedMarkdown(context: LinkCheck, markdownFile: string): string[] {
  return rememberedIn(context.fs, 'linked markdown', `${context.dir}\0${context.file}`, markdownFile, () => {
    const read = readText(context.fs, markdownFile);
    if (read.kind !== 'text') return [];
    const from = path.relative(context.dir, path.dirname(markdownFile)).split(path.sep).join('/');
    const names = new Set<string>();
    for (const mention of findPathMentions(read.text, [{ start: 0, end: read.text.length }])) {
      if (!mention.link || !mention.path.endsWith('.md')) continue;
      const relative = normal(path.posix.join(from, mention.path));
      const resolution = resolveSkillPath(context.fs, context.dir, relative);
      if (resolution.status === 'found' && path.resolve(resolution.absolute) !== path.resolve(context.file))
        names.add(relative);
    }
    return [...names];
  });
}
