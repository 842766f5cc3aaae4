import * as path from 'node:path';
import type { SkillAnalysis } from '../analyze';
import type { FileSystem } from '../workspace/fileSystem';
import { SkillCatalog } from '../workspace/skillCatalog';
import { diagnostic, type Diagnostic } from '../checks/diagnostic';
import {
  SINGLE_FILE,
  targetsFor,
  type CompiledFile,
  type AipVersion,
  type CompileResult,
  type CompileTarget,
} from './compiled';
import { toGraphJson } from './graphJson';
import { toDot, toMermaid } from './graphText';
import { compositionToSop, sopToComposition } from './metaForms';
import { agentSkillBodyFromMeta } from './agentSkillFromMeta';
import { agentSkillBodyFromProcedure } from './agentSkillFromProcedure';
import { keptByAgentSkillFromSkillplus, agentSkillBodyFromSkillplus } from './agentSkillFromSkillplus';
import { aip03ToAip05 } from './aip03ToAip05';
import { proseToAip } from './proseToAip';
import { proseToAip05 } from './proseToAip05';
import { checkedResult, frontmatterOf, keptFiles, singleFileResult, skillFileText, sourceTexts } from './resultPackage';
import { toSkillIr } from './skillIr';
import { analysedSkillHash } from '../checks/skillHash';
import {
  aipSpecMismatch,
  duplicateSchemaId,
  invalidAipSchemaId,
  invalidAipSpec,
  missingAipSchemaId,
  missingAipSpec,
  missingSchemaFile,
  schemaIdMismatch,
} from '../formats/aip';
import { compileTodo } from '../checks/compileFindings';

export class CompileRefused extends Error {}

/**
 * AIP 0.3's packaging conventions that 0.5 removed (a schema copy in `source/` matched by `schemaId`, the version in
 * `metadata.aip`): an error in them does not stop a migration to 0.5, which writes neither.
 */
const RESOLVED_BY_MIGRATION: ReadonlySet<string> = new Set([
  missingAipSpec.code,
  invalidAipSpec.code,
  aipSpecMismatch.code,
  missingAipSchemaId.code,
  invalidAipSchemaId.code,
  missingSchemaFile.code,
  schemaIdMismatch.code,
  duplicateSchemaId.code,
]);

/** A plain skill's frontmatter: the source's, named for its folder, without the metadata only its format reads. */
function agentSkillFrontmatter(analysis: SkillAnalysis, name: string): Record<string, unknown> {
  const { kind: _kind, composition: _composition, ...rest } = frontmatterOf(analysis);
  const metadata = rest.metadata;
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    const kept = Object.fromEntries(
      Object.entries(metadata as Record<string, unknown>).filter(
        ([key, value]) =>
          key !== 'aip' && key !== 'aip-version' && !key.startsWith('skillplus-') && typeof value === 'string',
      ),
    );
    if (Object.keys(kept).length > 0) rest.metadata = kept;
    else delete rest.metadata;
  }
  // MetaSkill-only keys would make an ordinary skill fail the Agent Skills rules.
  if (analysis.metaPlan)
    for (const key of [
      'meta_priority',
      'always',
      'final_text_mode',
      'triggers',
      'description_zh',
      'provenance',
      'request_template',
      'output_contract',
      'eval_prompts',
      'preference_keys',
      'policy_tags',
    ])
      delete rest[key];
  return { ...rest, name };
}

/** The most an Agent Skills description may hold. */
const DESCRIPTION_LIMIT = 1024;

/**
 * A plain skill's SKILL.md. A description over the Agent Skills limit (a
 * MetaSkill may have one) is cut at a sentence end; the body already
 * holds it whole, and the cut is reported in the result.
 */
function agentSkillFile(
  analysis: SkillAnalysis,
  name: string,
  body: string,
  outDir: string,
  findings: Diagnostic[],
): CompiledFile {
  const frontmatter = agentSkillFrontmatter(analysis, name);
  const description = frontmatter.description;
  if (typeof description === 'string' && description.length > DESCRIPTION_LIMIT) {
    const head = description.slice(0, DESCRIPTION_LIMIT);
    const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('。'));
    frontmatter.description =
      sentence > DESCRIPTION_LIMIT / 2 ? head.slice(0, sentence + 1) : `${head.slice(0, DESCRIPTION_LIMIT - 1)}…`;
  }
  const content = skillFileText(frontmatter, body);
  if (frontmatter.description !== description) {
    const at = content.indexOf('\ndescription:') + 1;
    findings.push(
      diagnostic(
        compileTodo,
        path.join(outDir, 'SKILL.md'),
        { start: at, end: at + 'description'.length },
        `The source's description is ${String(description).length} characters; an Agent Skill's may have ${DESCRIPTION_LIMIT}, so it was cut at a sentence end (the body keeps it whole). Check that what is left still says when to use the skill.`,
      ),
    );
  }
  return { path: 'SKILL.md', content };
}

/** A result is checked against the skills its source composes from: those beside the source, and the catalog roots. */
function resultCatalog(fs: FileSystem, analysis: SkillAnalysis, catalogRoots: string[]): SkillCatalog {
  return new SkillCatalog(fs, [...catalogRoots, path.dirname(analysis.dir)]);
}

/**
 * Compiles an analysed skill to one target, into a result to be written
 * at `outDir` (whose folder name becomes the compiled skill's name);
 * `catalogRoots` are the catalog folders the source was checked with;
 * `aipVersion` is the AIP version `aip` writes (the current one unless 0.3; an AIP 0.3 skill migrates to 0.5).
 * Writes nothing. Throws CompileRefused when the target does not fit the
 * skill's format. A source with errors compiles only to `ir` (which
 * carries them) and the drawings; other targets return the source's
 * errors and no files (a migration from AIP 0.3 overlooks the 0.3 packaging
 * errors it leaves behind).
 */
export function compileSkill(
  fs: FileSystem,
  analysis: SkillAnalysis,
  target: CompileTarget,
  outDir: string,
  catalogRoots: string[] = [],
  aipVersion: AipVersion = '0.5',
): CompileResult {
  if (!targetsFor(analysis.format).includes(target)) {
    throw new CompileRefused(
      `this skill reads as ${analysis.format}, which compiles to ${targetsFor(analysis.format).join(', ')}; not to ${target}`,
    );
  }
  if (target === 'aip' && analysis.format === 'aip-0.3' && aipVersion === '0.3')
    throw new CompileRefused('this skill is already AIP 0.3; `--to aip` migrates it to 0.5');
  if (target === 'ir') {
    // The revision compiled, pinned: the analysed text (an editor's unsaved text included) over the folder's files.
    const texts = new Map([[analysis.file, analysis.text], ...analysis.sources]);
    const ir = { ...toSkillIr(analysis), hash: analysedSkillHash(fs, analysis.dir, texts) };
    return singleFileResult(target, outDir, SINGLE_FILE.ir!, `${JSON.stringify(ir, null, 2)}\n`);
  }
  if (target === 'mermaid')
    return singleFileResult(target, outDir, SINGLE_FILE.mermaid!, toMermaid(toGraphJson(analysis)));
  if (target === 'dot') return singleFileResult(target, outDir, SINGLE_FILE.dot!, toDot(toGraphJson(analysis)));
  const blocking = analysis.diagnostics.filter(
    (item) =>
      item.severity === 'error' &&
      !(target === 'aip' && analysis.format === 'aip-0.3' && RESOLVED_BY_MIGRATION.has(item.code)),
  );
  if (blocking.length > 0) return { target, outDir, files: [], diagnostics: blocking, texts: sourceTexts(analysis) };

  const name = path.basename(outDir);
  const sources = sourceTexts(analysis);
  const catalog = resultCatalog(fs, analysis, catalogRoots);
  if (target === 'aip' && analysis.format === 'aip-0.3') {
    const { files, findings } = aip03ToAip05(fs, analysis, outDir);
    return checkedResult(target, outDir, files, findings, sources, catalog);
  }
  if (target === 'aip') {
    const { files, findings } = (aipVersion === '0.3' ? proseToAip : proseToAip05)(analysis, outDir);
    const written = new Set(files.map((file) => file.path));
    return checkedResult(
      target,
      outDir,
      [...files, ...keptFiles(fs, analysis, (file) => !written.has(file))],
      findings,
      sources,
      catalog,
    );
  }
  if (target === 'agent-skill') {
    if (analysis.skillplus) {
      const keep = keptByAgentSkillFromSkillplus(analysis.skillplus, analysis.dir);
      const findings: Diagnostic[] = [];
      return checkedResult(
        target,
        outDir,
        [
          agentSkillFile(analysis, name, agentSkillBodyFromSkillplus(analysis, analysis.skillplus), outDir, findings),
          ...keptFiles(fs, analysis, keep),
        ],
        findings,
        sources,
        catalog,
      );
    }
    const body = analysis.metaPlan
      ? agentSkillBodyFromMeta(analysis, analysis.metaPlan)
      : agentSkillBodyFromProcedure(analysis);
    // An AIP package's source/ folder is its compiler's record; a plain skill keeps what it runs and reads.
    const findings: Diagnostic[] = [];
    return checkedResult(
      target,
      outDir,
      [
        agentSkillFile(analysis, name, body, outDir, findings),
        ...keptFiles(fs, analysis, (file) => !file.startsWith('source/')),
      ],
      findings,
      sources,
      catalog,
    );
  }
  const plan = analysis.metaPlan!;
  // One MetaSkill form to the other; what a SOP cannot say is reported at its key, and nothing is compiled.
  const { frontmatter, body, findings } =
    target === 'metaskill-sop'
      ? compositionToSop(analysis, plan)
      : { ...sopToComposition(analysis, plan), findings: [] };
  if (findings.length > 0) return { target, outDir, files: [], diagnostics: findings, texts: sources };
  return checkedResult(
    target,
    outDir,
    [{ path: 'SKILL.md', content: skillFileText({ ...frontmatter, name }, body) }],
    [],
    sources,
    catalog,
  );
}

/**
 * Checks a revision of a compile's result (a language model's refinement
 * of an `aip` scaffold) exactly as compileSkill checks its own result: as
 * the skill it claims to be, where it would be written. Writes nothing.
 */
export function checkRevision(
  fs: FileSystem,
  analysis: SkillAnalysis,
  target: CompileTarget,
  outDir: string,
  files: CompiledFile[],
  catalogRoots: string[] = [],
): CompileResult {
  return checkedResult(target, outDir, files, [], sourceTexts(analysis), resultCatalog(fs, analysis, catalogRoots));
}
