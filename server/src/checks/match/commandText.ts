// What a block of shell commands leaves to whoever runs it: placeholders to fill, variables nothing sets, and
// commands that change the world outside the machine (deploy, publish, push, install globally, delete). Read only,
// never run; the compiler uses it to decide what a step must ask for, and the checks to report scripts that would run
// with holes in them.

/** A hole in a command: a `<placeholder>`, a `[placeholder]` argument, or a `$VARIABLE` nothing sets. */
export interface CommandHole {
  /** As written: `<team-slug>`, `[path]`, `$APP`. */
  text: string;
  /** The value's name: `team-slug`, `path`, `APP`. */
  name: string;
  kind: 'placeholder' | 'variable';
  /** Offsets in the code. */
  start: number;
  end: number;
}

/** Variables a shell or its environment always has, and the ones CI systems set. */
const KNOWN_VARIABLES = new Set([
  'HOME',
  'PATH',
  'PWD',
  'OLDPWD',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'TERM',
  'HOSTNAME',
  'UID',
  'EUID',
  'PPID',
  'RANDOM',
  'SECONDS',
  'LINENO',
  'IFS',
  'OSTYPE',
  'BASH',
  'BASH_SOURCE',
  'BASH_VERSION',
  'FUNCNAME',
  'PIPESTATUS',
  'REPLY',
  'OPTARG',
  'OPTIND',
  'EDITOR',
  'CI',
]);
const KNOWN_PREFIXES = /^(GITHUB_|RUNNER_|XDG_|BASH_)/;

/** `NAME=value`, also after `export`, `local`, `readonly` or `declare`. */
const ASSIGNMENT = /(?:^|[\s;&|(`])(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?([A-Za-z_][A-Za-z0-9_]*)\+?=/gm;
/** `read [-r] NAME…`, `for NAME in`, `select NAME in`: the names they set. */
const READ_INTO =
  /(?:^|[\s;&|(])(?:read|for|select)\s+(?:-\w+\s+)*([A-Za-z_][A-Za-z0-9_]*(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*)*)/gm;

/**
 * The code with what the shell never expands blanked out (same length, so offsets hold): comments, single-quoted
 * strings, and the arguments of `echo`/`printf` lines (usage messages write `<path>` for the reader, not the shell).
 */
function expandedText(code: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return code
    .replace(/(^|\s)#[^\n]*/g, (match, lead: string) => lead + blank(match.slice(lead.length)))
    .replace(/'[^'\n]*'/g, blank)
    .replace(/(^|[;&|]\s*)(?:echo|printf)\b[^\n]*/gm, (match, lead: string) => lead + blank(match.slice(lead.length)));
}

function holeAt(match: RegExpMatchArray, name: string, kind: CommandHole['kind']): CommandHole {
  return { text: match[0], name, kind, start: match.index!, end: match.index! + match[0].length };
}

/** The placeholders and unset variables of a shell block, in order. */
export function commandHoles(code: string): CommandHole[] {
  const text = expandedText(code);
  const holes: CommandHole[] = [];
  for (const match of text.matchAll(/<([A-Za-z][A-Za-z0-9_-]*(?:[ .][A-Za-z0-9_-]+)*)>/g)) {
    // `<<EOF` and `<(cmd)` are the shell's own; a placeholder has a name between the brackets.
    if (text[match.index - 1] !== '<') holes.push(holeAt(match, match[1], 'placeholder'));
  }
  // `[path]` as a whole argument: the shell's tests are `[ … ]` with spaces, arrays index inside `${…}`.
  for (const match of text.matchAll(/(?<=\s)\[([a-z][a-z0-9_-]*)\](?=\s|$)/gm))
    holes.push(holeAt(match, match[1], 'placeholder'));
  const assigned = new Set<string>();
  for (const match of text.matchAll(ASSIGNMENT)) assigned.add(match[1]);
  for (const match of text.matchAll(READ_INTO))
    for (const name of match[1].split(/\s+/)) if (name !== 'in' && name !== 'do') assigned.add(name);
  for (const match of text.matchAll(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    const name = match[1] ?? match[3];
    const operator = match[2] ?? '';
    // `${NAME:-default}` and its kin say what happens when it is unset; `${#NAME}` and `${!NAME}` are not reads of it.
    if (/^:?[-=?+]/.test(operator) || KNOWN_VARIABLES.has(name) || KNOWN_PREFIXES.test(name) || assigned.has(name))
      continue;
    holes.push(holeAt(match, name, 'variable'));
  }
  return holes.sort((a, b) => a.start - b.start);
}

/** Commands whose effects leave the machine or cannot be undone. */
const RISKY = [
  /\bgit\s+push\b/,
  /\bgit\s+reset\s+--hard\b/,
  /\bgit\s+clean\s+-\w*f/,
  /\b(?:npm|pnpm|yarn|cargo|gem|twine|poetry)\s+(?:publish|upload|push)\b/,
  /\b(?:npm|pnpm|yarn)\s+(?:i|install|add)\b[^\n]*\s(?:-g|--global)\b/,
  /\bdocker\s+push\b/,
  /\b(?:vercel|netlify|fly|flyctl|firebase|heroku|wrangler|railway|amplify)\b[^\n]*\b(?:deploy|publish|release)\b/,
  /\bvercel(?:\s+--prod\b|\s*$)/m,
  /\b(?:kubectl)\s+(?:apply|delete|rollout|scale)\b/,
  /\bhelm\s+(?:install|upgrade|uninstall|delete)\b/,
  /\bterraform\s+(?:apply|destroy)\b/,
  /\bgh\s+(?:release\s+create|pr\s+merge|repo\s+delete)\b/,
  /\brm\s+-\w*r\w*f|\brm\s+-\w*f\w*r/,
  /\b(?:DROP\s+(?:TABLE|DATABASE)|TRUNCATE\s+TABLE|DELETE\s+FROM)\b/i,
  /\baws\s+s3\s+(?:rm|sync)\b/,
];

/** The lines of a block that run a risky command, trimmed. */
export function riskyCommands(code: string): string[] {
  const text = expandedText(code);
  const lines = code.split('\n');
  return text
    .split('\n')
    .flatMap((line, index) => (RISKY.some((pattern) => pattern.test(line)) ? [lines[index].trim()] : []));
}
