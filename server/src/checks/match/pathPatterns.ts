import * as path from 'node:path';
import type { FileSystem } from '../../workspace/fileSystem';

/** How many alternatives one mention may expand to before it is taken as prose, not a set of paths. */
const MAX_ALTERNATIVES = 32;

/** Whether a path names several files: brace alternatives (`a.{sh,ps1}`) or wildcards (`*.md`, `step_?.py`). */
export function isPathPattern(target: string): boolean {
  return /[{}*?]/.test(target);
}

/**
 * The paths a pattern stands for, braces expanded (`convert.{sh,ps1}` → `convert.sh`, `convert.ps1`; nested and
 * several braces too), wildcards kept. Undefined when the braces do not pair up or expand to too many.
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

/** A wildcard segment as a regular expression: `*` any characters but `/`, `?` one. */
function segmentPattern(segment: string): RegExp {
  const escaped = segment
    .replace(/[.+^$()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}$`);
}

/**
 * Whether some file of the skill folder matches a path with wildcards, relative to `dir` (`**` stands for any
 * folders). Only the folders of the skill are listed; links are not followed.
 */
export function matchesSomeFile(fs: FileSystem, dir: string, pattern: string): boolean {
  const segments = pattern.split('/').filter((segment) => segment !== '' && segment !== '.');
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
