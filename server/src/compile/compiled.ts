import * as path from 'node:path';
import type { Diagnostic, Severity } from '../checks/diagnostic';
import type { LspRange } from '../parse/lineIndex';
import type { FormatId } from '../model/skillModel';
import { SkillLines } from '../parse/skillLines';

/** What `skillgraph compile --to` can make: the graph IR, a form of a skill (by its format's id), a diagram. */
export const COMPILE_TARGETS = ['ir', 'aip', 'agent-skill', 'metaskill', 'metaskill-sop', 'mermaid', 'dot'] as const;
export type CompileTarget = (typeof COMPILE_TARGETS)[number];

/** The names earlier versions gave targets, still accepted: scripts written for them keep working. */
const FORMER_NAMES: Record<string, CompileTarget> = {
  plain: 'agent-skill',
  meta: 'metaskill',
  meta_sop: 'metaskill-sop',
};

/** The target a name given by a user stands for (its own name, or a former one), if any. */
export function compileTargetNamed(name: string): CompileTarget | undefined {
  return (COMPILE_TARGETS as readonly string[]).includes(name) ? (name as CompileTarget) : FORMER_NAMES[name];
}

/** The AIP versions `--to aip` writes: the current format (the default), and 0.3 for runtimes that still read it. */
export const AIP_VERSIONS = ['0.5', '0.3'] as const;
export type AipVersion = (typeof AIP_VERSIONS)[number];

export const TARGET_TITLES: Record<CompileTarget, string> = {
  ir: 'Graph IR (JSON)',
  aip: 'AIP 0.5 package',
  'agent-skill': 'Plain Agent Skill',
  metaskill: 'MetaSkill with composition.steps',
  'metaskill-sop': 'MetaSkill as meta_sop prose',
  mermaid: 'Mermaid diagram',
  dot: 'Graphviz DOT diagram',
};

/** The targets that fit a skill of each format (a skill is never compiled to its own form; AIP 0.3 migrates to 0.5). */
const FITTING: Record<FormatId, CompileTarget[]> = {
  'agent-skill': ['ir', 'aip', 'mermaid', 'dot'],
  'aip-0.3': ['ir', 'aip', 'agent-skill', 'mermaid', 'dot'],
  'aip-0.5': ['ir', 'agent-skill', 'mermaid', 'dot'],
  metaskill: ['ir', 'agent-skill', 'metaskill-sop', 'mermaid', 'dot'],
  'metaskill-sop': ['ir', 'agent-skill', 'metaskill', 'mermaid', 'dot'],
  skillplus: ['ir', 'agent-skill', 'mermaid', 'dot'],
};

export function targetsFor(format: FormatId): CompileTarget[] {
  return FITTING[format];
}

/** Targets whose result is one file, printed when no output folder is given. */
export const SINGLE_FILE: Record<CompileTarget, string | undefined> = {
  ir: 'skill.ir.json',
  mermaid: 'graph.mmd',
  dot: 'graph.dot',
  metaskill: 'SKILL.md',
  'metaskill-sop': 'SKILL.md',
  aip: undefined,
  'agent-skill': undefined,
};

/** Whether a result's file path stays inside its package: relative, `/`-separated, without `.`, `..` or empty parts. */
export function isPackagePath(relative: string): boolean {
  const parts = relative.split('/');
  return (
    relative !== '' &&
    !path.isAbsolute(relative) &&
    !relative.includes('\\') &&
    !relative.includes('\0') &&
    !parts.some((part) => part === '' || part === '.' || part === '..')
  );
}

/** One file of a result, by its path inside the output folder (`/`-separated). */
export interface CompiledFile {
  path: string;
  content: string | Uint8Array;
}

/**
 * What a compile produced: the files to write (nothing is written here),
 * and its findings — about the result (checked as the skill it claims to
 * be, located in the result's files under `outDir`), and about the source
 * (what the target cannot express, located in the source's files).
 * `texts` holds every text a finding points into, for its line and column.
 */
export interface CompileResult {
  target: CompileTarget;
  outDir: string;
  files: CompiledFile[];
  diagnostics: Diagnostic[];
  texts: Map<string, string>;
}

/** A compiled file as it travels to an editor: text as text, anything else as base64. */
export type WireFile = { path: string; text: string } | { path: string; base64: string };

/**
 * A result as the language server sends it (`skillgraph/compile`, `skillgraph/checkCompiled`): its files, and its
 * findings with their file's URI and range.
 */
export interface CompileAnswer {
  outDir: string;
  files: WireFile[];
  diagnostics: { uri: string; range: LspRange; severity: Severity; code: string; message: string }[];
}

/** Line indexes for the texts a result's findings point into, each made once however many findings it has. */
export function resultLines(result: CompileResult): SkillLines {
  const file = path.join(result.outDir, 'SKILL.md');
  return new SkillLines({ file, source: result.texts.get(file) ?? '', sources: result.texts });
}

export function hasErrors(result: Pick<CompileResult, 'diagnostics'>): boolean {
  return result.diagnostics.some((item) => item.severity === 'error');
}

/**
 * A name an Agent Skill may have (lowercase words joined by single hyphens, at most 64 characters), made from any skill
 * name.
 */
export function agentSkillName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, 64).replace(/-+$/, '') || 'skill';
}

/**
 * Where a compiled skill goes unless the user says otherwise: beside the
 * skill's folder, in `compiled-<target>/<name>/`. Packages that must be
 * Agent Skills (aip, agent-skill) get a name valid there; a MetaSkill keeps its own.
 */
export function defaultOutDir(skillDir: string, name: string | undefined, target: CompileTarget): string {
  const own = name && /^[\w.-]+$/.test(name) && name !== '.' && name !== '..' ? name : path.basename(skillDir);
  return path.join(
    path.dirname(skillDir),
    `compiled-${target}`,
    target === 'aip' || target === 'agent-skill' ? agentSkillName(own) : own,
  );
}
