import { closestName } from '../checks/match/nameDistance';
import { isProfileId, PROFILE_IDS, type ProfileId } from '../platforms/profiles';
import { isRuleCode, RULE_CODES, type RuleCode } from '../rules';
import { COMPILE_TARGETS, compileTargetNamed, TARGET_VERSIONS } from '../compile/targets';
import {
  CHECK_FORMATS,
  CONTEXT_FORMATS,
  DIFF_FORMATS,
  GRAPH_FORMATS,
  LIBRARY_FORMATS,
  QUERY_FORMATS,
  type Command,
} from './commandOptions';

// The command line read into a Command (commandOptions.ts): each option taken where its command has it, each value
// checked, and what is wrong said in a UsageError.

export class UsageError extends Error {}

const COMMANDS = [
  'check',
  'fix',
  'init',
  'library',
  'query',
  'merge-reports',
  'graph',
  'diff',
  'hash',
  'context',
  'compile',
] as const;

/** Rule codes, comma-separated or one; a code no rule has is a usage error that names the nearest one. */
function ruleCodes(text: string): RuleCode[] {
  return text
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '')
    .map((code) => {
      if (isRuleCode(code)) return code;
      const suggestion = closestName(code, RULE_CODES);
      throw new UsageError(
        `--code: no rule has the code "${code}"${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
      );
    });
}

function take(argv: string[], index: number, flag: string): string {
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

/** Parses the command line; throws UsageError with a message for the user. */
export function parseArgs(argv: string[]): Command {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return { command: 'help' };
  if (argv[0] === '--version' || argv[0] === '-v') return { command: 'version' };
  const [name, ...rest] = argv;
  if (!(COMMANDS as readonly string[]).includes(name)) throw new UsageError(`unknown command "${name}"`);
  const command = name as (typeof COMMANDS)[number];
  const context: { at?: string; state?: string; event?: string; round?: number; tool?: string } = {};
  const positional: string[] = [];
  let format: string | undefined;
  let profile: ProfileId | undefined;
  let strict: boolean | undefined;
  let preview: boolean | undefined;
  let maxWarnings: number | undefined;
  let jobs: number | undefined;
  let to: string | undefined;
  let out: string | undefined;
  let force = false;
  let version: string | undefined;
  let baseline: string | undefined;
  let updateBaseline = false;
  let hash = false;
  let model = false;
  let only: 'security' | undefined;
  let shard: { index: number; count: number } | undefined;
  let userFolders = false;
  let unsafe = false;
  let dryRun = false;
  const codes: RuleCode[] = [];
  const catalog: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      i++;
      return take(rest, i - 1, flag);
    };
    if (flag === '--format' || flag === '-f') format = value();
    else if (flag === '--profile') {
      const name = value();
      if (!isProfileId(name))
        throw new UsageError(`--profile must be one of ${PROFILE_IDS.join(', ')} (got "${name}")`);
      profile = name;
    } else if (flag === '--strict' && (command === 'check' || command === 'fix')) strict = true;
    else if (flag === '--preview' && (command === 'check' || command === 'fix')) preview = true;
    else if (flag === '--baseline' && command === 'check') baseline = value();
    else if (flag === '--update-baseline' && command === 'check') updateBaseline = true;
    else if (flag === '--hash' && command === 'check') hash = true;
    else if (flag === '--model' && command === 'check') model = true;
    else if (flag === '--only' && command === 'check') only = oneOf(value(), ['security'] as const, '--only');
    else if (flag === '--user-folders' && (command === 'library' || command === 'query')) userFolders = true;
    else if (flag === '--shard' && command === 'check') {
      const text = value();
      const parts = /^([1-9]\d*)\/([1-9]\d*)$/.exec(text);
      if (!parts || Number(parts[1]) > Number(parts[2]))
        throw new UsageError(`--shard needs K/N with 1 <= K <= N, such as 2/4 (got "${text}")`);
      shard = { index: Number(parts[1]), count: Number(parts[2]) };
    } else if (flag === '--unsafe' && command === 'fix') unsafe = true;
    else if (flag === '--dry-run' && command === 'fix') dryRun = true;
    else if (flag === '--code' && command === 'fix') codes.push(...ruleCodes(value()));
    else if (
      flag === '--max-warnings' &&
      (command === 'check' || command === 'merge-reports' || command === 'library')
    ) {
      const text = value();
      if (!/^\d+$/.test(text)) throw new UsageError(`--max-warnings needs a whole number (got "${text}")`);
      maxWarnings = Number(text);
    } else if (flag === '--jobs' && command === 'check') {
      const text = value();
      if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`--jobs needs a whole number of at least 1 (got "${text}")`);
      jobs = Number(text);
    } else if (flag === '--catalog') catalog.push(value());
    else if (command === 'compile' && flag === '--to') to = value();
    else if ((command === 'compile' || command === 'library') && flag === '--out') out = value();
    else if (command === 'compile' && flag === '--aip-version')
      version = oneOf(value(), TARGET_VERSIONS, '--aip-version');
    else if ((command === 'compile' || command === 'init' || command === 'library') && flag === '--force') force = true;
    else if (
      command === 'context' &&
      (flag === '--at' || flag === '--state' || flag === '--event' || flag === '--tool')
    )
      context[flag.slice(2) as 'at' | 'state' | 'event' | 'tool'] = value();
    else if (command === 'context' && flag === '--round') {
      const text = value();
      if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`--round needs a whole number of at least 1 (got "${text}")`);
      context.round = Number(text);
    } else if (flag === '--help' || flag === '-h') return { command: 'help' };
    else if (arg === '--' && command === 'diff') {
      // What follows names paths, as after git's `--`.
      paths.push(...rest.slice(i + 1));
      break;
    } else if (flag.startsWith('-') && flag !== '-') throw new UsageError(`unknown option ${flag}`);
    else positional.push(arg);
  }
  if (command === 'check') {
    if (shard && updateBaseline)
      throw new UsageError('--update-baseline writes the findings of every skill: run it without --shard');
    const checkFormat = oneOf(format ?? 'text', CHECK_FORMATS, '--format');
    if (model && updateBaseline)
      throw new UsageError("--model's opinions vary from run to run and are never written in a baseline: drop one");
    if (hash && checkFormat !== 'json')
      throw new UsageError("--hash puts each skill's hash in the JSON report: add --format json");
    return {
      command,
      paths: positional.length > 0 ? positional : ['.'],
      format: checkFormat,
      ...(profile ? { profile } : {}),
      ...(strict ? { strict } : {}),
      ...(preview ? { preview } : {}),
      catalog,
      ...(maxWarnings !== undefined ? { maxWarnings } : {}),
      ...(jobs !== undefined ? { jobs } : {}),
      ...(hash ? { hash } : {}),
      ...(model ? { model } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
      ...(updateBaseline ? { updateBaseline } : {}),
      ...(only ? { only } : {}),
      ...(shard ? { shard } : {}),
    };
  }
  if (command === 'diff') {
    if (positional.length > 2)
      throw new UsageError('diff compares at most two revisions or folders; name paths after --');
    return {
      command,
      sides: positional,
      paths,
      format: oneOf(format ?? 'text', DIFF_FORMATS, '--format'),
      ...(profile ? { profile } : {}),
      catalog,
    };
  }
  if (command === 'hash')
    return {
      command,
      paths: positional.length > 0 ? positional : ['.'],
      format: oneOf(format ?? 'text', QUERY_FORMATS, '--format'),
    };
  if (command === 'merge-reports') {
    if (positional.length === 0) throw new UsageError('merge-reports needs the JSON reports of every shard');
    return {
      command,
      files: positional,
      format: oneOf(format ?? 'text', CHECK_FORMATS, '--format'),
      ...(maxWarnings !== undefined ? { maxWarnings } : {}),
    };
  }
  if (command === 'fix')
    return {
      command,
      paths: positional.length > 0 ? positional : ['.'],
      unsafe,
      dryRun,
      codes,
      ...(profile ? { profile } : {}),
      ...(strict ? { strict } : {}),
      ...(preview ? { preview } : {}),
      catalog,
    };
  if (command === 'library') {
    const chosen = oneOf(format ?? 'text', LIBRARY_FORMATS, '--format');
    if ((chosen === 'csv') !== (out !== undefined))
      throw new UsageError(chosen === 'csv' ? '--format csv needs --out DIR' : '--out is for --format csv');
    return {
      command,
      paths: positional.length > 0 ? positional : ['.'],
      format: chosen,
      ...(profile ? { profile } : {}),
      ...(out !== undefined ? { out } : {}),
      force,
      userFolders,
      ...(maxWarnings !== undefined ? { maxWarnings } : {}),
    };
  }
  if (command === 'query') {
    const [name, ...paths] = positional;
    return {
      command,
      ...(name !== undefined ? { name } : {}),
      paths: paths.length > 0 ? paths : ['.'],
      format: oneOf(format ?? 'text', QUERY_FORMATS, '--format'),
      userFolders,
    };
  }
  if (command === 'init') {
    if (positional.length > 1) throw new UsageError('init takes at most one folder');
    return { command, dir: positional[0] ?? '.', force };
  }
  if (positional.length !== 1) throw new UsageError(`${command} takes exactly one skill folder or SKILL.md`);
  if (command === 'compile') {
    const ids = COMPILE_TARGETS.map((target) => target.id);
    if (to === undefined) throw new UsageError(`compile needs --to ${ids.join('|')}`);
    return {
      command,
      path: positional[0],
      to: compileTargetNamed(to)?.id ?? oneOf(to, ids, '--to'),
      ...(out !== undefined ? { out } : {}),
      force,
      ...(version ? { version } : {}),
      ...(profile ? { profile } : {}),
      catalog,
    };
  }
  if (command === 'context') {
    if (!context.at) throw new UsageError('context needs --at NODE');
    const { at, ...rest } = context;
    return { command, path: positional[0], at, ...rest, format: oneOf(format ?? 'text', CONTEXT_FORMATS, '--format') };
  }
  return {
    command: 'graph',
    path: positional[0],
    format: oneOf(format ?? 'json', GRAPH_FORMATS, '--format'),
    ...(profile ? { profile } : {}),
    catalog,
  };
}
