import * as path from 'node:path';
import { containerFindings } from './checks/skillFile/container';
import type { Diagnostic } from './checks/engine/diagnostic';
import { PROFILES, type ProfileChoice, type ProfileId } from './platforms/profiles';
import { applySeverities, type SeverityMap } from './checks/engine/severities';
import { checkRestrictedYaml, strictProfile } from './checks/skillFile/strictRules';
import { applySuppressions } from './checks/engine/suppressions';
import { checkSecurity } from './checks/security';
import { unreadableSkillFile } from './checks/skillFile/unreadableFile';
import { checkCodexMetadata, checkEvalFiles, checkSkillFile, readFrontmatter } from './formats/agent-skill';
import { detectFormat, formatOf, likelyReader, type SkillAnalysis } from './formats';
import type { ReadProcedure } from './library/readSkillDetails';
import type { FormatContext } from './analysis/formatContext';
import type { IncrementalState } from './incremental/incrementalState';
import { PLAIN_FORMAT, type SkillModel } from './model/skillModel';
import { parseSkillFile } from './parse/markdown/skillFile';
import type { TextLike } from './parse/text/textLike';
import { AnalysisFileSystem } from './workspace/diskSnapshot';
import { type FileSystem } from './workspace/fileSystem';
import { editorText, readText, type EditorRead } from './workspace/readText';
import { SkillCatalog } from './workspace/skillCatalog';
import { RULE_CODES, SECURITY_RULES, severityMaps } from './rules';
import { SKILL_SUPPRESSIONS } from './rules/libraryFindings';

export interface AnalyzeOptions {
  /**
   * The profile to check for: one the user chose (the editor's setting, the CLI's `--profile`), or one with where
   * it came from (the configuration, the skill's folder); `agentskills` when none was.
   */
  profile?: ProfileId | ProfileChoice;
  /** The user's severity for each rule they changed, applied after the profile's (`off` drops the rule). */
  severities?: SeverityMap;
  /** Give the reference validator's verdict: what it rejects is an error (`checks/skillFile/strictRules.ts`). */
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

export type { SkillAnalysis };
export { sourceOf } from './analysis/skillAnalysis';

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

  // The frontmatter is read before the format is known. A format only one consumer reads (a MetaSkill, OpenSquilla's)
  // is read as that consumer reads YAML (PyYAML), and checked for its profile, whatever the chosen one. The text
  // suggests which reading to try first; the value read decides, and a wrong guess is read again. Without a value
  // (the YAML does not parse, or holds no mapping) nothing tells the readings apart, as both read the same syntax: the
  // guess stands, and a keystroke that leaves such a frontmatter broken is not parsed a second time.
  const guessed = syntax.frontmatter
    ? likelyReader(syntax.source.slice(syntax.frontmatter.content.start, syntax.frontmatter.content.end))
    : undefined;
  let frontmatter = readFrontmatter(syntax, file, guessed?.dialect === 'pyyaml', incremental?.yaml);
  let detection = detectFormat(frontmatter.value, syntax);
  if (detection.format.reader?.dialect !== guessed?.dialect && frontmatter.value !== undefined) {
    frontmatter = readFrontmatter(syntax, file, detection.format.reader?.dialect === 'pyyaml', incremental?.yaml);
    detection = detectFormat(frontmatter.value, syntax);
  }
  const { format } = detection;
  const profileChoice: ProfileChoice = format.reader?.profile ?? chosen;
  const profile = options.strict ? strictProfile(PROFILES[profileChoice.id]) : PROFILES[profileChoice.id];
  diagnostics.push(...frontmatter.diagnostics);
  const anchor = syntax.frontmatter?.open ?? WHOLE_FILE_START;
  const context: FormatContext = {
    fs,
    format: format.id,
    dir,
    file,
    syntax,
    frontmatter: frontmatter.yaml,
    frontmatterValue: frontmatter.value,
    frontmatterAnchor: anchor,
    unmarked: detection.unmarked,
    ...(incremental ? { incremental } : {}),
    catalog: options.catalog ?? new SkillCatalog(fs),
    ...(options.modelOnly ? { modelOnly: true } : {}),
  };
  const parsed =
    frontmatter.value && frontmatter.yaml ? { yaml: frontmatter.yaml, value: frontmatter.value } : undefined;
  if (!options.modelOnly)
    diagnostics.push(
      ...checkSkillFile({
        fs,
        file,
        dir,
        syntax,
        frontmatter: parsed,
        anchor,
        profile,
        ownMetadata: format.ownMetadata ?? [],
      }),
    );
  if (options.strict && frontmatter.yaml) diagnostics.push(...checkRestrictedYaml(file, frontmatter.yaml));

  const loaded = format.load(context);
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
          ...(incremental ? { reused: { files: incremental.files, lines: incremental.securityLines } } : {}),
        });
  const beside = [codex, evals, security];
  for (const found of beside) diagnostics.push(...found.diagnostics);
  const evalLinks = evals.links;
  const sources = new Map([...(loaded.sources ?? []), ...beside.flatMap((found) => found.sources)]);
  const model: SkillModel = {
    dir,
    file,
    ...(name !== undefined ? { name } : {}),
    format: format.id,
    nodes: loaded.nodes,
    edges: loaded.edges,
    externalInputs: loaded.externalInputs ?? [],
    ...(loaded.refs && loaded.refs.length > 0 ? { refs: loaded.refs } : {}),
    ...(loaded.groups && loaded.groups.length > 0 ? { groups: loaded.groups } : {}),
  };
  // The format's own part goes with its id: the union (formats/index.ts) pairs them.
  return {
    dir,
    file,
    get text() {
      return syntax.text;
    },
    source: syntax.source,
    format: format.id,
    profile: profileChoice,
    ...(options.strict ? { strict: true as const } : {}),
    name,
    model,
    diagnostics: sortDiagnostics(
      applySeverities(
        applySuppressions(diagnostics, new Map([[file, syntax.source], ...sources]), RULE_CODES, SKILL_SUPPRESSIONS),
        ...severityMaps(profileChoice.id, { ...options, user: options.severities }),
      ),
    ),
    syntax,
    ...(frontmatter.yaml ? { frontmatter: frontmatter.yaml } : {}),
    ...loaded.part,
    sources,
    ...(evalLinks.length > 0 ? { evalLinks } : {}),
  } as SkillAnalysis;
}

/**
 * A structured skill's model, and its procedure document's fields, as the library graph reads them: only the model is
 * made, not the findings.
 */
export const readProcedure: ReadProcedure = (fs, file, text) => {
  const analysis = analyzeSkill(fs, file, { modelOnly: true, text });
  const fields = formatOf(analysis).procedureDocument?.(analysis);
  return { format: analysis.format, model: analysis.model, ...(fields ? { fields } : {}) };
};

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
    format: PLAIN_FORMAT,
    profile,
    model: { dir, file, format: PLAIN_FORMAT, nodes: [], edges: [], externalInputs: [] },
    diagnostics: applySeverities([finding], ...severityMaps(profile.id, { ...options, user: options.severities })),
    sources: new Map(),
  };
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
