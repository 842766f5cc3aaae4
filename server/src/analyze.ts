import * as path from 'node:path';
import { containerFindings } from './checks/container';
import type { Diagnostic } from './checks/diagnostic';
import { PROFILES, type ProfileChoice, type ProfileId } from './checks/profiles';
import { applySeverities, type SeverityMap } from './checks/severities';
import { checkRestrictedYaml, strictProfile } from './checks/strictRules';
import { applySuppressions } from './checks/suppressions';
import { checkSecurity } from './checks/security';
import { unreadableSkillFile } from './checks/unreadableFile';
import {
  checkCodexMetadata,
  checkEvalFiles,
  checkSkillFile,
  type EvalLink,
  loadAgentSkill,
  readFrontmatter,
} from './formats/agent-skill';
import { loadAip03, loadAip05, type ProcedureBlock } from './formats/aip';
import { detectFormat } from './formats/detect';
import type { FormatContext, FormatResult } from './formats/formatContext';
import { loadMetaskill, type MetaPlan } from './formats/metaskill';
import { loadSkillplus, type SkillPlusPackage } from './formats/skillplus';
import type { IncrementalState } from './incremental/incrementalState';
import type { FormatId, SkillModel } from './model/skillModel';
import { parseSkillFile, type SkillFileSyntax } from './parse/skillFile';
import type { TextLike } from './parse/textLike';
import type { YamlSyntax } from './parse/yamlSyntax';
import { AnalysisFileSystem } from './workspace/diskSnapshot';
import { type FileSystem } from './workspace/fileSystem';
import { editorText, readText, type EditorRead } from './workspace/readText';
import { SkillCatalog } from './workspace/skillCatalog';
import { RULE_CODES, SECURITY_RULES, severityMaps } from './rules';

export interface AnalyzeOptions {
  /**
   * The profile to check for: one the user chose (the editor's setting, the CLI's `--profile`), or one with where
   * it came from (the configuration, the skill's folder); `agentskills` when none was.
   */
  profile?: ProfileId | ProfileChoice;
  /** The user's severity for each rule they changed, applied after the profile's (`off` drops the rule). */
  severities?: SeverityMap;
  /** Give the reference validator's verdict: what it rejects is an error (`checks/strictRules.ts`). */
  strict?: boolean;
  /** Run the preview rules too (they are off unless the user's severities name them). */
  preview?: boolean;
  /** The SKILL.md text as an editor holds it, instead of the file on disk. */
  text?: TextLike;
  /** What earlier analyses of this skill left to reuse (the language server keeps one per open skill). */
  incremental?: IncrementalState;
  /** The skills MetaSkills may compose; by default, read from the folders beside each skill. */
  catalog?: SkillCatalog;
  /**
   * Only the model is wanted (the library graph reads its steps, not its findings): the checks that only find
   * problems (the file's, a package's, paths, scripts, the files beside SKILL.md) are not run, and the findings are
   * left incomplete. The model is the same as a full analysis's.
   */
  modelOnly?: boolean;
}

/** Everything known about one skill after analysis. */
export interface SkillAnalysis {
  dir: string;
  file: string;
  /** The SKILL.md text the spans refer to (empty when it could not be read), as one string: made when first read. */
  readonly text: string;
  /** The same text as it was given: the language server's pieces, read without making them one string. */
  source: TextLike;
  format: FormatId;
  /** The profile the findings were made for, and why it was that one. */
  profile: ProfileChoice;
  /** Made with the reference validator's verdict (`strict`). */
  strict?: true;
  name?: string;
  model: SkillModel;
  /** The findings, with the profile's severities and then the user's applied. */
  diagnostics: Diagnostic[];
  /** The syntax the model was loaded from (absent when the file could not be read as text). */
  syntax?: SkillFileSyntax;
  frontmatter?: YamlSyntax;
  /** An AIP procedure's block. */
  procedure?: ProcedureBlock;
  /** The steps the skill's test cases (`evals/evals.json`) name in their expectations. */
  evalLinks?: EvalLink[];
  /** A MetaSkill's plan (both forms). */
  metaPlan?: MetaPlan;
  /** A skill+ package as read. */
  skillplus?: SkillPlusPackage;
  /** The text of every other file a span may point into (skill+ package files), by absolute path. */
  sources: Map<string, string>;
}

/** The text of a file of the analysed skill: SKILL.md, or a package file it read. */
export function sourceOf(analysis: SkillAnalysis, file: string): string {
  return file === analysis.file ? analysis.text : (analysis.sources.get(file) ?? '');
}

const WHOLE_FILE_START = { start: 0, end: 0 };

/**
 * Analyses one skill: SKILL.md text → container and YAML syntax → format
 * detection → the format's loader and checks → one model and its
 * diagnostics, with the profile's and the user's severities. Never throws
 * on any input.
 */
export function analyzeSkill(disk: FileSystem, skillFile: string, options: AnalyzeOptions = {}): SkillAnalysis {
  // A caller's snapshot (the server keeps one per skill folder) is used as it is.
  const fs = disk instanceof AnalysisFileSystem ? disk : new AnalysisFileSystem(disk);
  const file = path.resolve(skillFile);
  const dir = path.dirname(file);
  const chosen: ProfileChoice =
    typeof options.profile === 'string'
      ? { id: options.profile, source: 'setting' }
      : (options.profile ?? { id: 'agentskills', source: 'default' });
  const read: EditorRead = options.text !== undefined ? editorText(options.text) : readText(fs, file);
  if (read.kind !== 'text') return unreadable(file, chosen, options, read);

  const { incremental } = options;
  incremental?.nextAnalysis(fs, file);
  const syntax = parseSkillFile(read.text);
  const diagnostics: Diagnostic[] = containerFindings(file, syntax.problems, read.bom);

  // The frontmatter is read before the format is known. Only OpenSquilla reads a MetaSkill: its YAML reading (PyYAML)
  // and its frontmatter rules decide, whatever the profile. A top-level `kind: meta` line says which reading to try
  // first; the value read decides, and a wrong guess is read again. Without a value (the YAML does not parse, or
  // holds no mapping) nothing tells the readings apart, as both read the same syntax: the guess stands, and a
  // keystroke that leaves a MetaSkill's frontmatter broken is not parsed a second time.
  const looksMeta = syntax.frontmatter
    ? META_KIND_LINE.test(syntax.source.slice(syntax.frontmatter.content.start, syntax.frontmatter.content.end))
    : false;
  let frontmatter = readFrontmatter(syntax, file, looksMeta, incremental?.yaml);
  let detection = detectFormat(frontmatter.value, syntax);
  const isMeta = detection.format === 'metaskill' || detection.format === 'metaskill-sop';
  if (isMeta !== looksMeta && frontmatter.value !== undefined) {
    frontmatter = readFrontmatter(syntax, file, isMeta, incremental?.yaml);
    detection = detectFormat(frontmatter.value, syntax);
  }
  const metaskill = detection.format === 'metaskill' || detection.format === 'metaskill-sop';
  const profileChoice: ProfileChoice = metaskill ? { id: 'opensquilla', source: 'metaskill' } : chosen;
  const profile = options.strict ? strictProfile(PROFILES[profileChoice.id]) : PROFILES[profileChoice.id];
  diagnostics.push(...frontmatter.diagnostics);
  const anchor = syntax.frontmatter?.open ?? WHOLE_FILE_START;
  const context: FormatContext = {
    fs,
    format: detection.format,
    dir,
    file,
    syntax,
    frontmatter: frontmatter.yaml,
    frontmatterValue: frontmatter.value,
    frontmatterAnchor: anchor,
    aipLike: detection.aipLike,
    ...(incremental ? { incremental } : {}),
    catalog: options.catalog ?? new SkillCatalog(fs),
    ...(options.modelOnly ? { modelOnly: true } : {}),
  };
  const parsed =
    frontmatter.value && frontmatter.yaml ? { yaml: frontmatter.yaml, value: frontmatter.value } : undefined;
  if (!options.modelOnly)
    diagnostics.push(
      ...checkSkillFile({ fs, file, dir, syntax, frontmatter: parsed, anchor, profile, format: detection.format }),
    );
  if (options.strict && frontmatter.yaml) diagnostics.push(...checkRestrictedYaml(file, frontmatter.yaml));

  const loaded = loadFormat(detection.format, context);
  diagnostics.push(...loaded.diagnostics);
  // The files beside SKILL.md that clients and eval tools read, whatever the format (Codex's metadata, the evals), and
  // what the skill's files may hide (security): their findings are in those files, whose texts join the sources.
  const name = typeof frontmatter.value?.name === 'string' ? frontmatter.value.name : undefined;
  const nothing = { diagnostics: [], sources: [], links: [] };
  const codex = options.modelOnly ? nothing : checkCodexMetadata(fs, dir);
  const evals = options.modelOnly
    ? nothing
    : checkEvalFiles({
        fs,
        dir,
        ...(name !== undefined ? { name } : {}),
        nodes: loaded.nodes,
        skillText: syntax.source,
      });
  // Every text file of the skill is read for them: not when the user turned every one of them off.
  const security =
    options.modelOnly || SECURITY_RULES.every((rule) => options.severities?.[rule.code] === 'off')
      ? nothing
      : checkSecurity({
          fs,
          dir,
          file,
          source: syntax.source,
          body: syntax.body,
          fences: syntax.fences,
          ...(parsed ? { frontmatter: parsed } : {}),
          nodes: loaded.nodes,
          ...(incremental ? { kept: { files: incremental.files, lines: incremental.securityLines } } : {}),
        });
  const beside = [codex, evals, security];
  for (const found of beside) diagnostics.push(...found.diagnostics);
  const evalLinks = evals.links;
  const sources = new Map([...(loaded.sources ?? []), ...beside.flatMap((found) => found.sources)]);
  const model: SkillModel = {
    dir,
    file,
    ...(name !== undefined ? { name } : {}),
    format: detection.format,
    nodes: loaded.nodes,
    edges: loaded.edges,
    externalInputs: loaded.externalInputs ?? [],
    ...(loaded.refs && loaded.refs.length > 0 ? { refs: loaded.refs } : {}),
    ...(loaded.groups && loaded.groups.length > 0 ? { groups: loaded.groups } : {}),
  };
  return {
    dir,
    file,
    get text() {
      return syntax.text;
    },
    source: syntax.source,
    format: detection.format,
    profile: profileChoice,
    ...(options.strict ? { strict: true as const } : {}),
    name,
    model,
    diagnostics: sortDiagnostics(
      applySeverities(
        applySuppressions(diagnostics, new Map([[file, syntax.source], ...sources]), RULE_CODES),
        ...severityMaps(profileChoice.id, { ...options, user: options.severities }),
      ),
    ),
    syntax,
    ...(frontmatter.yaml ? { frontmatter: frontmatter.yaml } : {}),
    ...('procedure' in loaded && loaded.procedure ? { procedure: loaded.procedure } : {}),
    ...('metaPlan' in loaded && loaded.metaPlan ? { metaPlan: loaded.metaPlan } : {}),
    ...('skillplus' in loaded ? { skillplus: loaded.skillplus } : {}),
    sources,
    ...(evalLinks.length > 0 ? { evalLinks } : {}),
  };
}

const META_KIND_LINE = /^kind[ \t]*:[ \t]*["']?meta(?:_sop)?["']?[ \t]*(?:#.*)?\r?$/m;

/** The analysis of a SKILL.md that could not be read as text: one finding, no model. */
function unreadable(
  file: string,
  profile: ProfileChoice,
  options: AnalyzeOptions,
  read: Exclude<EditorRead, { kind: 'text' }>,
): SkillAnalysis {
  const dir = path.dirname(file);
  const finding = unreadableSkillFile(file, read);
  return {
    dir,
    file,
    text: '',
    source: '',
    format: 'agent-skill',
    profile,
    model: { dir, file, format: 'agent-skill', nodes: [], edges: [], externalInputs: [] },
    diagnostics: applySeverities([finding], ...severityMaps(profile.id, { ...options, user: options.severities })),
    sources: new Map(),
  };
}

type LoadedFormat = FormatResult & { procedure?: ProcedureBlock; metaPlan?: MetaPlan; skillplus?: SkillPlusPackage };

function loadFormat(format: FormatId, context: FormatContext): LoadedFormat {
  switch (format) {
    case 'aip-0.3':
      return loadAip03(context);
    case 'aip-0.5':
      return loadAip05(context);
    case 'metaskill':
    case 'metaskill-sop':
      return loadMetaskill(context);
    case 'skillplus':
      return loadSkillplus(context);
    case 'agent-skill':
      return loadAgentSkill(context);
  }
}

function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      a.span.start - b.span.start ||
      a.span.end - b.span.end ||
      a.code.localeCompare(b.code),
  );
}
