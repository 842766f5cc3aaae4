import { closestName } from '../checks/nameDistance';
import { isProfileId, PROFILE_IDS, type ProfileId } from '../checks/profiles';
import { isRuleCode, RULES, type RuleCode } from '../checks/rules';
import {
  AIP_VERSIONS,
  COMPILE_TARGETS,
  compileTargetNamed,
  type AipVersion,
  type CompileTarget,
} from '../compile/compiled';

export const CHECK_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export const GRAPH_FORMATS = ['json', 'mermaid', 'dot'] as const;
export const CONTEXT_FORMATS = ['text', 'json'] as const;
export const LIBRARY_FORMATS = ['text', 'json', 'cypher', 'graphml', 'csv'] as const;
export const QUERY_FORMATS = ['text', 'json'] as const;

export type CheckFormat = (typeof CHECK_FORMATS)[number];
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export type Command =
  | {
      command: 'check';
      paths: string[];
      format: CheckFormat;
      profile?: ProfileId;
      strict?: boolean;
      catalog: string[];
      maxWarnings?: number;
      jobs?: number;
      baseline?: string;
      updateBaseline?: boolean;
      /** `--only security`: report the security rules alone. */
      only?: 'security';
      /** `--shard K/N`: check the K-th of N slices of the skills found. */
      shard?: { index: number; count: number };
    }
  | {
      command: 'fix';
      paths: string[];
      unsafe: boolean;
      dryRun: boolean;
      codes: RuleCode[];
      profile?: ProfileId;
      strict?: boolean;
      catalog: string[];
    }
  | { command: 'init'; dir: string; force: boolean }
  | {
      command: 'library';
      paths: string[];
      format: (typeof LIBRARY_FORMATS)[number];
      profile?: ProfileId;
      /** Where `--format csv` writes its files. */
      out?: string;
      force: boolean;
      /** `--user-folders`: the clients' user-level skill folders join the library. */
      userFolders: boolean;
    }
  | {
      command: 'query';
      name?: string;
      paths: string[];
      format: (typeof QUERY_FORMATS)[number];
      userFolders: boolean;
    }
  | { command: 'merge-reports'; files: string[]; format: CheckFormat; maxWarnings?: number }
  | { command: 'graph'; path: string; format: GraphFormat; profile?: ProfileId; catalog: string[] }
  | {
      command: 'context';
      path: string;
      at: string;
      state?: string;
      event?: string;
      round?: number;
      tool?: string;
      format: (typeof CONTEXT_FORMATS)[number];
    }
  | {
      command: 'compile';
      path: string;
      to: CompileTarget;
      out?: string;
      force: boolean;
      aipVersion?: AipVersion;
      profile?: ProfileId;
      catalog: string[];
    }
  | { command: 'help' }
  | { command: 'version' };

export class UsageError extends Error {}

export const USAGE = `Usage:
  skillgraph check [paths...] [--format text|json|sarif|github] [--profile NAME] [--strict] [--catalog DIR]...
                   [--max-warnings N] [--jobs N] [--baseline FILE] [--update-baseline] [--only security]
                   [--shard K/N]
  skillgraph merge-reports REPORT.json... [--format text|json|sarif|github] [--max-warnings N]
  skillgraph fix [paths...] [--unsafe] [--dry-run] [--code CODE]... [--profile NAME] [--strict] [--catalog DIR]...
  skillgraph init [dir] [--force]
  skillgraph library [paths...] [--format text|json|cypher|graphml] [--profile NAME] [--user-folders]
  skillgraph library [paths...] --format csv --out DIR [--force] [--user-folders]
  skillgraph query [NAME [paths...]] [--format text|json] [--user-folders]
  skillgraph graph <skill-dir|SKILL.md> [--format json|mermaid|dot] [--profile NAME] [--catalog DIR]...
  skillgraph context <skill+ dir|SKILL.md> --at NODE [--state FILE.json] [--event EVENT] [--round N] [--tool NAME]
                     [--format text|json]
  skillgraph compile <skill-dir|SKILL.md> --to ${COMPILE_TARGETS.join('|')}
                     [--out DIR] [--force] [--aip-version ${AIP_VERSIONS.join('|')}] [--profile NAME] [--catalog DIR]...
  skillgraph --help | --version

check   finds every SKILL.md under the paths (default: .) and reports problems, with the settings of the
        .skillgraph.yaml nearest each skill (flags win over it).
        Exit status: 0 clean, 1 errors (or more warnings than --max-warnings), 2 usage or I/O failure.
        --strict        the reference validator's verdict: what it rejects is an error.
        --jobs N        checks on N threads (default: one per core, up to 4, for 2,000 skills or more).
        --baseline FILE reports only findings not in FILE (default: the configuration's \`baseline\`).
        --update-baseline  writes every finding of the checked skills into the baseline and exits 0.
        --only security  reports the security rules alone (hidden text, hostile instructions, risky commands,
                        secrets, broad grants): an audit of skills from elsewhere; nothing in them is run.
        --shard K/N     checks the K-th of N equal slices of the skills found, in the order found: a CI matrix
                        of N runners, each with --format json, covers them once; merge-reports joins the reports.
merge-reports joins the JSON reports of check --shard 1/N … N/N into the report one run would have written, in any
        format; the exit status is check's. Every shard must be there, once.
fix     applies the fixes the editor offers as quick fixes: safe ones (quoting a value YAML misreads, a path's
        case or slashes, line endings, a list in brackets) unless --unsafe (a suggested name, a stub script, …).
        Each skill is checked again after its fixes; a fix that would add an error is left out.
        Files are written all or nothing. --dry-run prints the changes as a unified diff and writes nothing.
        --code CODE fixes findings of that code only (repeatable).
        Exit status: 0 nothing left with errors (with --dry-run: nothing to change), 1 errors remain (with
        --dry-run: there are changes), 2 usage or I/O failure.
init    writes a commented .skillgraph.yaml into dir (default: .) for the skills under it, its profile
        inferred from where they live; never over an existing configuration unless --force.
library reads the skills under the paths (default: .) as one library: which skills invoke or link to which,
        names that collide (and which one a client loads), descriptions too alike to tell apart, mentions of a
        skill a letter off an existing one, rings of skills invoking each other, and the skill list's size
        against what a client lists (Codex: the skills in .agents/skills, or written for it: --profile codex
        or a configured profile). --format json writes the library graph (skills, their steps, scripts by
        content, the edges between them) and its findings; cypher writes statements that load it into Neo4j
        (cypher-shell < library.cypher), as many times as it is run; graphml writes it for graph editors;
        csv writes a file per node label and relationship type into --out DIR for neo4j-admin database import
        (never over an existing file unless --force), and prints the import command. --user-folders adds
        the clients' user-level skill folders that exist (~/.claude/skills, ~/.agents/skills): which of two
        same-named skills a client loads depends on them.
        Exit status: 0 (findings are warnings), 2 usage or I/O failure.
query   answers a governance question over the library under the paths (default: .): without NAME, lists
        the questions and their Cypher (the same answer a graph database loaded with the export gives).
        Exit status: 0 no rows, 1 rows (something to look at), 2 usage or I/O failure.
graph   prints one skill's graph: steps, typed ports, control and data edges.
context prints what a skill+ runtime puts in front of the model at one node for one State
        (the defaults of state.py, overridden by --state): brief, map, tips, rules, with sizes.
compile turns one skill into another form: ir (its graph as JSON, any format), aip (a prose skill as an
        AIP 0.5a1 package, --aip-version 0.3 for the older format; an AIP 0.3 skill migrated to 0.5), agent-skill (a structured skill as a
        plain Agent Skill), metaskill / metaskill-sop (a MetaSkill's other form: composition.steps, or
        meta_sop prose), mermaid, dot. The former names plain, meta and meta_sop are still accepted.
        A one-file result goes to stdout without --out;
        --out DIR writes the package into DIR (the skill is named after DIR), never over an existing file
        unless --force, and all or nothing. The result is checked first: with errors nothing is written.
        Exit status: 0 written, 1 the result (or the skill) has errors, 2 usage or I/O failure.
--catalog DIR   a folder of skill folders MetaSkills may compose, besides the skills next to
        each MetaSkill (repeatable).
Profiles: ${PROFILE_IDS.join(', ')} (default: the configuration's, else the client whose skills folder holds
        the skill, else agentskills).`;

const COMMANDS = ['check', 'fix', 'init', 'library', 'query', 'merge-reports', 'graph', 'context', 'compile'] as const;

/** Rule codes, comma-separated or one; a code no rule has is a usage error that names the nearest one. */
function ruleCodes(text: string): RuleCode[] {
  return text
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '')
    .map((code) => {
      if (isRuleCode(code)) return code;
      const suggestion = closestName(code, Object.keys(RULES));
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
  let maxWarnings: number | undefined;
  let jobs: number | undefined;
  let to: string | undefined;
  let out: string | undefined;
  let force = false;
  let aipVersion: AipVersion | undefined;
  let baseline: string | undefined;
  let updateBaseline = false;
  let only: 'security' | undefined;
  let shard: { index: number; count: number } | undefined;
  let userFolders = false;
  let unsafe = false;
  let dryRun = false;
  const codes: RuleCode[] = [];
  const catalog: string[] = [];
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
    else if (flag === '--baseline' && command === 'check') baseline = value();
    else if (flag === '--update-baseline' && command === 'check') updateBaseline = true;
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
    else if (flag === '--max-warnings' && (command === 'check' || command === 'merge-reports')) {
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
      aipVersion = oneOf(value(), AIP_VERSIONS, '--aip-version');
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
    else if (flag.startsWith('-') && flag !== '-') throw new UsageError(`unknown option ${flag}`);
    else positional.push(arg);
  }
  if (command === 'check') {
    if (shard && updateBaseline)
      throw new UsageError('--update-baseline writes the findings of every skill: run it without --shard');
    return {
      command,
      paths: positional.length > 0 ? positional : ['.'],
      format: oneOf(format ?? 'text', CHECK_FORMATS, '--format'),
      ...(profile ? { profile } : {}),
      ...(strict ? { strict } : {}),
      catalog,
      ...(maxWarnings !== undefined ? { maxWarnings } : {}),
      ...(jobs !== undefined ? { jobs } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
      ...(updateBaseline ? { updateBaseline } : {}),
      ...(only ? { only } : {}),
      ...(shard ? { shard } : {}),
    };
  }
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
    if (to === undefined) throw new UsageError(`compile needs --to ${COMPILE_TARGETS.join('|')}`);
    return {
      command,
      path: positional[0],
      to: compileTargetNamed(to) ?? oneOf(to, COMPILE_TARGETS, '--to'),
      ...(out !== undefined ? { out } : {}),
      force,
      ...(aipVersion ? { aipVersion } : {}),
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
