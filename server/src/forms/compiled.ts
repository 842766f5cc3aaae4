import * as path from 'node:path';
import type { CompiledFile } from '../analysis/format';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { SkillLines } from '../parse/text/skillLines';

export type { CompiledFile };

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

/**
 * What a compile produced: the files to write (nothing is written here),
 * and its findings — about the result (checked as the skill it claims to
 * be, located in the result's files under `outDir`), and about the source
 * (what the target cannot express, located in the source's files).
 * `texts` holds every text a finding points into, for its line and column.
 */
export interface CompileResult {
  /** The target's id, as `compile --to` names it. */
  target: string;
  outDir: string;
  files: CompiledFile[];
  diagnostics: Diagnostic[];
  texts: Map<string, string>;
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
