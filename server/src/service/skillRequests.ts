import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkRevision, CompileRefused, compileSkill } from '../compile/compileSkill';
import { compileTargetNamed, defaultOutDir, targetsFor, versionsFor } from '../compile/targets';
import { isPackagePath, resultLines, type CompileResult } from '../forms/compiled';
import { toGraphJson } from '../forms/graphJson';
import { CONTEXT_FORMATS, formatOf } from '../formats';
import type { DocumentView } from '../analysis/documentView';
import type {
  CompileAnswer,
  CompileParams,
  CompileTargetInfo,
  ContextRequest,
  GraphJson,
  ModelContext,
  Refusal,
  SkillInfo,
  WireFile,
} from '../protocol';
import type { FileSystem } from '../workspace/fileSystem';
import type { RunSettings } from '../config/runSettings';
import { baselinedFindings } from './baselinedFindings';

// The answers to the `skillgraph/*` requests (protocol.ts), each from the view of the document asked about.

/** `skillgraph/graph`: the graph the preview draws. */
export function graphOf(view: DocumentView): GraphJson {
  return toGraphJson(view.analysis);
}

/** `skillgraph/context`: what the skill's runtime (skill+'s) shows the model at a node for a State. */
export function contextOf(view: DocumentView, request: ContextRequest): ModelContext | Refusal {
  const runtime = formatOf(view.analysis).context;
  if (!runtime) return { error: `Not a ${CONTEXT_FORMATS}.` };
  return runtime(view.analysis, request);
}

/** `skillgraph/compileTargets`: the targets that fit the skill, each with its title and default output folder. */
export function compileTargetsOf(view: DocumentView): { skillFile: string; targets: CompileTargetInfo[] } {
  return {
    skillFile: pathToFileURL(view.analysis.file).href,
    targets: targetsFor(view.analysis).flatMap((target) => {
      const info = {
        id: target.id,
        title: target.title,
        outDir: defaultOutDir(view.analysis.dir, view.analysis.name, target.id),
        singleFile: target.singleFile ?? null,
      };
      // A target written in several versions offers each the skill compiles to (AIP: the current one and 0.3).
      const versions = versionsFor(view.analysis, target);
      return versions.length === 0
        ? [info]
        : versions.map((item) => ({ ...info, aipVersion: item.version, title: item.title }));
    }),
  };
}

/** `skillgraph/compile`: the skill compiled into `outDir`, written by nobody (the client shows it as an edit). */
export function compileOf(
  fs: FileSystem,
  view: DocumentView,
  params: CompileParams,
  catalogRoots: string[],
): CompileAnswer | Refusal {
  const target = compileTargetNamed(params.target);
  if (!target || !path.isAbsolute(params.outDir)) return { error: 'Unknown target or output folder.' };
  try {
    return compileAnswer(compileSkill(fs, view.analysis, target.id, params.outDir, catalogRoots, params.aipVersion));
  } catch (error) {
    if (error instanceof CompileRefused) return { error: error.message };
    throw error;
  }
}

/**
 * `skillgraph/checkCompiled`: a revision of a compile's files (the client's language model refining an `aip`
 * scaffold), checked as a compile checks its own result. Paths that would leave the package are refused.
 */
export function checkCompiledOf(
  fs: FileSystem,
  view: DocumentView,
  params: CompileParams & { files: WireFile[] },
  catalogRoots: string[],
): CompileAnswer | Refusal {
  const target = compileTargetNamed(params.target);
  if (!target || !path.isAbsolute(params.outDir) || !params.files.every((f) => isPackagePath(f.path)))
    return { error: 'Unknown target, output folder or file name.' };
  const files = params.files.map((file) => ({
    path: file.path,
    content: 'text' in file ? file.text : new Uint8Array(Buffer.from(file.base64, 'base64')),
  }));
  return compileAnswer(checkRevision(fs, view.analysis, target.id, params.outDir, files, catalogRoots));
}

/** `skillgraph/skillInfo`: the skill's format, profile and counts, over all its files' findings. */
export function skillInfoOf(view: DocumentView, bySkill: RunSettings): SkillInfo {
  const { analysis } = view;
  const { ignored, configFile } = bySkill.forSkill(analysis.file);
  const hidden = ignored ? 'ignored' : baselinedFindings(bySkill, analysis);
  const shown = hidden === 'ignored' ? [] : analysis.diagnostics.filter((item) => !hidden.has(item));
  return {
    format: analysis.format,
    ...(formatOf(analysis).context ? { context: true } : {}),
    name: analysis.name ?? null,
    skillFile: pathToFileURL(analysis.file).href,
    profile: analysis.profile,
    ...(analysis.strict ? { strict: true } : {}),
    ...(configFile ? { configFile: pathToFileURL(configFile).href } : {}),
    ...(hidden === 'ignored' ? { ignored: true } : {}),
    errors: shown.filter((item) => item.severity === 'error').length,
    warnings: shown.filter((item) => item.severity === 'warning').length,
    baselined: hidden === 'ignored' ? 0 : hidden.size,
  };
}

/** A compile result for the client: texts as text, other files as base64, findings with their file's URI and range. */
function compileAnswer(result: CompileResult): CompileAnswer {
  const files = result.files.map((file) =>
    typeof file.content === 'string'
      ? { path: file.path, text: file.content }
      : { path: file.path, base64: Buffer.from(file.content).toString('base64') },
  );
  const lines = resultLines(result);
  const diagnostics = result.diagnostics.map((item) => ({
    uri: pathToFileURL(item.file).href,
    range: lines.of(item.file).rangeOf(item.span),
    severity: item.severity,
    code: item.code,
    message: item.message,
  }));
  return { outDir: result.outDir, files, diagnostics };
}
