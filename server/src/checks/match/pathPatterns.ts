import * as path from 'node:path';
import type { FileSystem } from '../../workspace/fileSystem';

/** How many alternatives one mention may expand to before it is taken as prose, not a set of paths. */
const MAX_ALTERNATIVES = 32;

/**
 * A brace group without a comma: not alternatives (the shell leaves `{a}` as it is) but a placeholder, a part of the
 * name the author leaves to the reader (`{baseDir}`, `x-{platform}.md`).
 */
const PLACEHOLDER_GROUP = /\{[^{},/]*\}/g;

/**
 * Whether a path names several files: brace alternatives (`a.{sh,ps1}`), wildcards (`*.md`, `step_?.py`) or
 * placeholders in a name (`x-{platform}.md`, one file per platform).
 */
export function isPathPattern(target: string): boolean {
  return /[{}*?]/.test(target);
}

/**
 * The paths a pattern stands for, braces with a comma expanded (`convert.{sh,ps1}` → `convert.sh`, `convert.ps1`;
 * nested and several braces too), wildcards and placeholders (`{name}`, no comma) kept. Undefined when the braces do
 * not pair up or expand to too many.
 */
export function expandBraces(target: string): string[] | undefined {
  const open = target.indexOf('{');
  if (open === -1) return target.includes('}') ? undefined : [target];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let at = open; at < target.length && close === -1; at++) {
    if (target[at] === '{') depth++;
    else if (target[at] === '}' && --depth === 0) close = at;
    else if (target[at] === ',' && depth === 1) commas.push(at);
  }
  if (close === -1) return undefined;
  if (commas.length === 0) return placeholderKept(target, open, close);
  const bounds = [open, ...commas, close];
  const expanded: string[] = [];
  for (let index = 0; index + 1 < bounds.length; index++) {
    const rest = expandBraces(
      target.slice(0, open) + target.slice(bounds[index] + 1, bounds[index + 1]) + target.slice(close + 1),
    );
    if (!rest) return undefined;
    expanded.push(...rest);
    if (expanded.length > MAX_ALTERNATIVES) return undefined;
  }
  return expanded;
}

/** A group without a comma kept as written, what is inside it and after it expanded. */
function placeholderKept(target: string, open: number, close: number): string[] | undefined {
  const inside = expandBraces(target.slice(open + 1, close));
  const after = expandBraces(target.slice(close + 1));
  if (!inside || !after || inside.length * after.length > MAX_ALTERNATIVES) return undefined;
  const head = target.slice(0, open);
  return inside.flatMap((middle) => after.map((tail) => `${head}{${middle}}${tail}`));
}

/** A pattern with each placeholder (`{platform}`) read as a wildcard: the files it stands for. */
function placeholdersAsWildcards(pattern: string): string {
  return pattern.replace(PLACEHOLDER_GROUP, '*');
}

/** A wildcard segment as a regular expression: `*` any characters but `/`, `?` one. */
function segmentPattern(segment: string): RegExp {
  const escaped = segment
    .replace(/[.+^$()|[\]\\{}]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}$`);
}

/**
 * Whether a path (`/`-separated, from the skill folder) is one a pattern stands for: one of its brace alternatives,
 * with wildcards and placeholders (`references/{topic}.md`) matching any name.
 */
export function matchesPattern(pattern: string, relative: string): boolean {
  const segments = relative.split('/');
  return (expandBraces(pattern) ?? []).some((alternative) => {
    const wanted = placeholdersAsWildcards(alternative).split('/');
    return (
      wanted.length === segments.length &&
      wanted.every((segment, index) => segmentPattern(segment).test(segments[index]))
    );
  });
}

/**
 * Whether some file of the skill folder matches a path with wildcards or placeholders, relative to `dir` (`**`
 * stands for any folders). Only the folders of the skill are listed; links are not followed.
 */
export function matchesSomeFile(fs: FileSystem, dir: string, pattern: string): boolean {
  const segments = placeholdersAsWildcards(pattern)
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  const walk = (folder: string, at: number): boolean => {
    if (at === segments.length) return true;
    const segment = segments[at];
    const entries = fs.readDirectory(folder);
    if (segment === '**') {
      if (walk(folder, at + 1)) return true;
      return entries.some((entry) => entry.kind === 'directory' && walk(path.join(folder, entry.name), at));
    }
    const last = at === segments.length - 1;
    const match = segmentPattern(segment);
    return entries.some(
      (entry) =>
        match.test(entry.name) &&
        (last ? entry.kind === 'file' : entry.kind === 'directory') &&
        walk(path.join(folder, entry.name), at + 1),
    );
  };
  return !segments.includes('..') && walk(dir, 0);
}

/**
 * A path after a placeholder root as the skill would hold it: `{baseDir}/references/a.md` → `references/a.md`. The
 * root is the reader's to put in, the skill's folder or another; the rest is the skill's when the skill holds it.
 */
export function withoutPlaceholderRoot(target: string): string {
  return target.replace(/^\{[^{},/]*\}\//, '');
}
