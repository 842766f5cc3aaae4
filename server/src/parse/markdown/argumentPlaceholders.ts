// The placeholders Claude Code replaces in a skill's body with the arguments it was invoked with (what the user typed
// after `/name`, or what the model passed): anywhere in the text, code included, before the model or a shell reads it.

/**
 * Every spelling of the skill's arguments Claude Code replaces, `$0`…`$9` too (which shell code, awk and spreadsheet
 * formulas also write): `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`. A backslash before it keeps it as written.
 */
export const ARGUMENT_PLACEHOLDER = placeholderPattern('');

/** A name `arguments:` may declare: what `$name` can spell without running into the text after it. */
const ARGUMENT_NAME = /^[A-Za-z_][\w-]*$/;

/**
 * The names the frontmatter's `arguments` declares (a YAML list, or names separated by white space), each replaced as
 * `$name` by the argument at its position (by nothing, when fewer were given).
 */
export function declaredArguments(value: unknown): string[] {
  const names = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : [];
  return names.filter((name): name is string => typeof name === 'string' && ARGUMENT_NAME.test(name));
}

/**
 * ARGUMENT_PLACEHOLDER with the declared `names` as `$name`: a name is taken whole, so `$issue` is not read in
 * `$issue_url` (how Claude Code ends a name is not documented; this reads no more than it surely replaces).
 */
export function argumentPlaceholders(names: readonly string[]): RegExp {
  if (names.length === 0) return ARGUMENT_PLACEHOLDER;
  return placeholderPattern(String.raw`|(?:${names.join('|')})(?![\w-])`);
}

function placeholderPattern(named: string): RegExp {
  return new RegExp(String.raw`(?<!\\)\$(?:ARGUMENTS\b(?:\[\d+\])?|\d+${named})`);
}
