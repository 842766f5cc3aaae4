import { expandBraces } from '../checks/match/pathPatterns';

// The globs of a configuration file, relative to its folder, as `.gitignore` reads them: `**` any folders, `*` and
// `?` within a name, `{a,b}` either; a glob without a `/` matches a name at any depth.

/** A glob as a regular expression over `/`-separated paths relative to the configuration's folder. */
function globToRegExp(glob: string): RegExp {
  let pattern = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!pattern.includes('/')) pattern = `**/${pattern}`;
  let source = '';
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === '*' && pattern[at + 1] === '*') {
      // `**/` any folders (none included), a trailing `**` anything below.
      const slash = pattern[at + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      at += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Globs, braces expanded, ready to match paths relative to their folder. */
export class Globs {
  private readonly patterns: RegExp[];

  constructor(globs: readonly string[]) {
    this.patterns = globs.flatMap((glob) => (expandBraces(glob) ?? [glob]).map(globToRegExp));
  }

  /** Whether `relative` (a `/`-separated path) or a folder it is in matches one of the globs. */
  matches(relative: string): boolean {
    const parts = relative.split('/');
    for (let length = parts.length; length > 0; length--) {
      const prefix = parts.slice(0, length).join('/');
      if (this.patterns.some((pattern) => pattern.test(prefix))) return true;
    }
    return false;
  }
}
