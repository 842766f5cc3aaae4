import * as path from 'node:path';

import { analyzeSkill } from '../analyze';
import type { CompiledFile, CompileTarget } from '../analysis/format';
import type { AnalysisBase } from '../analysis/skillAnalysis';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { analysedSkillHash } from '../workspace/skillHash';
import { formatOf } from '../formats';
import type { CompileResult } from '../forms/compiled';
import { toGraphJson } from '../forms/graphJson';
import { toDot, toMermaid } from '../forms/graphText';
import { sourceTexts } from '../forms/resultPackage';
import { toGraphIr } from '../forms/skillIr';
import type { FileSystem } from '../workspace/fileSystem';
import { MemoryFileSystem } from '../workspace/memoryFileSystem';
import { SkillCatalog } from '../workspace/skillCatalog';
import { compileTargetNamed, GRAPH_TARGETS, targetsFor, versionsFor } from './targets';

export class CompileRefused extends Error {}

/** A result is checked against the skills its source composes from: those beside the source, and the catalog roots. */
function resultCatalog(fs: FileSystem, analysis: AnalysisBase, catalogRoots: string[]): SkillCatalog {
  return new SkillCatalog(fs, [...catalogRoots, path.dirname(analysis.dir)]);
}

/** A result that is not a package (IR, a drawing): nothing to check. */
function singleFileResult(target: CompileTarget, outDir: string, content: string): CompileResult {
  return {
    target: target.id,
    outDir,
    files: [{ path: target.singleFile!, content }],
    diagnostics: [],
    texts: new Map(),
  };
}

/**
 * Checks a result as the skill it claims to be, where it would be written
 * (`outDir`), before anything is written; a MetaSkill composes from
 * `catalog`. Its findings join those the compile made (`findings`, located
 * in the result or in the source).
 */
function checkedResult(
  target: string,
  outDir: string,
  files: CompiledFile[],
  findings: Diagnostic[],
  texts: Map<string, string>,
  catalog: SkillCatalog,
): CompileResult {
  const memory = new MemoryFileSystem(
    Object.fromEntries(files.map((file) => [path.join(outDir, ...file.path.split('/')), file.content])),
  );
  const analysis = analyzeSkill(memory, path.join(outDir, 'SKILL.md'), { catalog });
  const all = new Map(texts);
  all.set(analysis.file, analysis.text);
  for (const [file, text] of analysis.sources) all.set(file, text);
  return { target, outDir, files, diagnostics: [...findings, ...analysis.diagnostics], texts: all };
}

/**
 * Compiles an analysed skill to one target, into a result to be written
 * at `outDir` (whose folder name becomes the compiled skill's name);
 * `catalogRoots` are the catalog folders the source was checked with;
 * `version` is the version of the target to write (its first unless asked).
 * Writes nothing. Throws CompileRefused when the target does not fit the
 * skill's format. A source with errors compiles only to `ir` (which
 * carries them) and the drawings; other targets return the source's
 * errors and no files (but those of the rules the compile overlooks: a
 * migration from AIP 0.3 leaves the 0.3 packaging behind).
 */
export function compileSkill(
  fs: FileSystem,
  analysis: AnalysisBase,
  targetName: string,
  outDir: string,
  catalogRoots: string[] = [],
  version?: string,
): CompileResult {
  const fitting = targetsFor(analysis);
  const target = compileTargetNamed(targetName);
  if (!target || !fitting.includes(target)) {
    throw new CompileRefused(
      `this skill reads as ${analysis.format}, which compiles to ${fitting.map((item) => item.id).join(', ')}; not to ${targetName}`,
    );
  }
  const compiler = formatOf(analysis).compile?.find((candidate) => candidate.to === target.id);
  const request = { fs, outDir, version: version ?? versionsFor(analysis, target)[0]?.version };
  const refusal = compiler?.refuses?.(request);
  if (refusal) throw new CompileRefused(refusal);
  if (target === GRAPH_TARGETS.ir) {
    // The revision compiled, pinned: the analysed text (an editor's unsaved text included) over the folder's files.
    const texts = new Map([[analysis.file, analysis.text], ...analysis.sources]);
    const ir = {
      ...(formatOf(analysis).ir?.(analysis) ?? toGraphIr(analysis)),
      hash: analysedSkillHash(fs, analysis.dir, texts),
    };
    return singleFileResult(target, outDir, `${JSON.stringify(ir, null, 2)}\n`);
  }
  if (target === GRAPH_TARGETS.mermaid) return singleFileResult(target, outDir, toMermaid(toGraphJson(analysis)));
  if (target === GRAPH_TARGETS.dot) return singleFileResult(target, outDir, toDot(toGraphJson(analysis)));
  const overlooked = new Set(compiler!.overlooks?.map((rule) => rule.code));
  const blocking = analysis.diagnostics.filter((item) => item.severity === 'error' && !overlooked.has(item.code));
  const sources = sourceTexts(analysis);
  if (blocking.length > 0) return { target: target.id, outDir, files: [], diagnostics: blocking, texts: sources };
  const { files, findings } = compiler!.compile(analysis, request);
  // Nothing compiled: the findings say why (what the target cannot express).
  if (files.length === 0) return { target: target.id, outDir, files, diagnostics: findings, texts: sources };
  return checkedResult(target.id, outDir, files, findings, sources, resultCatalog(fs, analysis, catalogRoots));
}

/**
 * Checks a revision of a compile's result (a language model's refinement
 * of an `aip` scaffold) exactly as compileSkill checks its own result: as
 * the skill it claims to be, where it would be written. Writes nothing.
 */
export function checkRevision(
  fs: FileSystem,
  analysis: AnalysisBase,
  target: string,
  outDir: string,
  files: CompiledFile[],
  catalogRoots: string[] = [],
): CompileResult {
  return checkedResult(target, outDir, files, [], sourceTexts(analysis), resultCatalog(fs, analysis, catalogRoots));
}
