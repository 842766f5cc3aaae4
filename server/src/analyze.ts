import * as path from 'node:path';
import { diagnostic, type Diagnostic } from './checks/diagnostic';
import { PROFILES, type Profile, type ProfileId } from './checks/profiles';
import { checkBody } from './formats/agentSkill/bodyRules';
import { checkFrontmatter } from './formats/agentSkill/frontmatterRules';
import { readFrontmatter } from './formats/agentSkill/readFrontmatter';
import { checkUploadSize } from './formats/agentSkill/uploadSize';
import { loadAip03 } from './formats/aip03/loadAip03';
import { loadAip05 } from './formats/aip05/loadAip05';
import { detectFormat } from './formats/detect';
import { loadMetaskill } from './formats/metaskill/loadMetaskill';
import { loadSkillplus } from './formats/skillplus/loadSkillplus';
import type { SkillPlusPackage } from './formats/skillplus/readPackage';
import type { MetaPlan } from './formats/metaskill/metaPlan';
import type { ProcedureBlock } from './formats/aip/procedureBlock';
import type { FormatContext, FormatResult } from './formats/formatContext';
import type { ModelCache } from './model/modelCache';
import type { FormatId, SkillModel } from './model/skillModel';
import { parseSkillFile, type SkillFileSyntax } from './parse/skillFile';
import type { ParseCache } from './parse/parseCache';
import { utf8Length, type TextLike } from './parse/textLike';
import type { YamlChunkCache } from './parse/yamlChunks';
import type { YamlSyntax } from './parse/yamlSyntax';
import { AnalysisFileSystem, type FileSystem } from './workspace/fileSystem';
import { editorText, readText, MAX_TEXT_BYTES, type EditorRead } from './workspace/readText';
import { SkillCatalog } from './workspace/skillCatalog';

export interface AnalyzeOptions {
  profile?: ProfileId;
  /** The SKILL.md text as an editor holds it, instead of the file on disk. */
  text?: TextLike;
  /** Parsed YAML chunks of earlier versions of this document (the language server keeps one per document). */
  yamlCache?: YamlChunkCache;
  /** What earlier analyses of this skill read from its other files (the language server keeps one per skill). */
  parseCache?: ParseCache;
  /** Steps and graph findings of earlier analyses of this skill (the language server keeps one per skill). */
  modelCache?: ModelCache;
  /** The skills MetaSkills may compose; by default, read from the folders beside each skill. */
  catalog?: SkillCatalog;
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
  name?: string;
  model: SkillModel;
  diagnostics: Diagnostic[];
  /** The syntax the model was loaded from (absent when the file could not be read as text). */
  syntax?: SkillFileSyntax;
  frontmatter?: YamlSyntax;
  procedure?: ProcedureBlock;
  /** A MetaSkill's plan (both forms). */
  metaPlan?: MetaPlan;
  /** A skill+ package as read. */
  skillplus?: SkillPlusPackage;
  /** The text of every other file a span may point into (skill+ package files), by absolute path. */
  sources: Map<string, string>;
}

const WHOLE_FILE_START = { start: 0, end: 0 };

/**
 * Analyses one skill: SKILL.md text → container and YAML syntax → format
 * detection → the format's loader and checks → one model and its
 * diagnostics. Never throws on any input.
 */
export function analyzeSkill(disk: FileSystem, skillFile: string, options: AnalyzeOptions = {}): SkillAnalysis {
  // A caller's snapshot (the server keeps one per document) is used as it is.
  const fs = disk instanceof AnalysisFileSystem ? disk : new AnalysisFileSystem(disk);
  const file = path.resolve(skillFile);
  const dir = path.dirname(file);
  let profile = PROFILES[options.profile ?? 'agentskills'];
  const read: EditorRead = options.text !== undefined ? editorText(options.text) : readText(fs, file);
  const empty = (diagnostics: Diagnostic[]): SkillAnalysis => ({
    dir,
    file,
    text: '',
    source: '',
    format: 'agent-skill',
    model: { dir, file, format: 'agent-skill', nodes: [], edges: [], externalInputs: [] },
    diagnostics,
    sources: new Map(),
  });
  if (read.kind === 'missing')
    return empty([diagnostic('missing_skill_md', file, WHOLE_FILE_START, `${file} could not be read.`)]);
  if (read.kind === 'too_large') {
    return empty([
      diagnostic(
        'file_too_large',
        file,
        WHOLE_FILE_START,
        `SKILL.md is ${(read.size / 1048576).toFixed(1)} MB; files over ${MAX_TEXT_BYTES / 1048576} MB are not analysed. Agents load SKILL.md whole: move bulk into \`references/\` or \`assets/\`.`,
      ),
    ]);
  }
  if (read.kind === 'binary')
    return empty([
      diagnostic('binary_file', file, WHOLE_FILE_START, 'SKILL.md holds binary data (a NUL byte), not Markdown text.'),
    ]);

  options.modelCache?.nextAnalysis();
  const syntax = parseSkillFile(read.text);
  // The frontmatter is read before the format is known; a MetaSkill's is read again below, as its runtime reads it.
  const diagnostics: Diagnostic[] = syntax.problems.map((problem) =>
    diagnostic(problem.code, file, problem.span, problem.message),
  );
  if (read.bom)
    diagnostics.push(
      diagnostic(
        'utf8_bom',
        file,
        WHOLE_FILE_START,
        'SKILL.md starts with a UTF-8 byte-order mark; most clients strip it, but some packagers reject the file.',
      ),
    );

  // Only OpenSquilla reads a MetaSkill: its YAML reading (PyYAML) and its frontmatter rules decide, whatever the
  // profile. A top-level `kind: meta` line says which reading to try first; the value read decides, and a wrong guess
  // is read again. Without a value (the YAML does not parse, or holds no mapping) nothing tells the readings apart, as
  // both read the same syntax: the guess stands, and a keystroke that leaves a MetaSkill's frontmatter broken is not
  // parsed a second time.
  const looksMeta = syntax.frontmatter
    ? META_KIND_LINE.test(syntax.source.slice(syntax.frontmatter.content.start, syntax.frontmatter.content.end))
    : false;
  let frontmatter = readFrontmatter(syntax, file, looksMeta, options.yamlCache);
  let detection = detectFormat(frontmatter.value, syntax);
  const isMeta = detection.format === 'metaskill' || detection.format === 'metaskill-sop';
  if (isMeta !== looksMeta && frontmatter.value !== undefined) {
    frontmatter = readFrontmatter(syntax, file, isMeta, options.yamlCache);
    detection = detectFormat(frontmatter.value, syntax);
  }
  if (detection.format === 'metaskill' || detection.format === 'metaskill-sop') profile = PROFILES.opensquilla;
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
    profile,
    ...(options.yamlCache ? { yamlCache: options.yamlCache } : {}),
    ...(options.parseCache ? { parseCache: options.parseCache } : {}),
    ...(options.modelCache ? { modelCache: options.modelCache } : {}),
    catalog: options.catalog ?? new SkillCatalog(fs),
  };
  if (frontmatter.value && frontmatter.yaml) {
    diagnostics.push(
      ...checkFrontmatter({
        file,
        dir,
        yaml: frontmatter.yaml,
        value: frontmatter.value,
        anchor,
        profile,
        format: detection.format,
      }),
    );
  }
  if (profile.id === 'claude-api') diagnostics.push(...checkUploadSize(fs, dir, file, anchor));
  // Counted without encoding the text: this runs on every keystroke in a MetaSkill.
  if (profile.id === 'opensquilla' && utf8Length(syntax.source) > OPENSQUILLA_MAX_BYTES) {
    diagnostics.push(
      diagnostic(
        'loader_size_limit',
        file,
        anchor,
        `SKILL.md is over ${OPENSQUILLA_MAX_BYTES.toLocaleString('en')} bytes; OpenSquilla skips larger skill files. Move detail into \`references/\`.`,
      ),
    );
  }

  const loaded = loadFormat(detection.format, context);
  diagnostics.push(...loaded.diagnostics);
  const name = typeof frontmatter.value?.name === 'string' ? frontmatter.value.name : undefined;
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
    name,
    model,
    diagnostics: sortDiagnostics(applyProfile(diagnostics, profile)),
    syntax,
    ...(frontmatter.yaml ? { frontmatter: frontmatter.yaml } : {}),
    ...(loaded.procedure ? { procedure: loaded.procedure } : {}),
    ...(loaded.metaPlan ? { metaPlan: loaded.metaPlan } : {}),
    ...(loaded.skillplus ? { skillplus: loaded.skillplus } : {}),
    sources: loaded.sources ?? new Map(),
  };
}

const META_KIND_LINE = /^kind[ \t]*:[ \t]*["']?meta(?:_sop)?["']?[ \t]*(?:#.*)?\r?$/m;

/** OpenSquilla's loader skips SKILL.md files larger than this. */
const OPENSQUILLA_MAX_BYTES = 256_000;

/** The profile's severities: what its consumer makes of each finding. */
function applyProfile(diagnostics: Diagnostic[], profile: Profile): Diagnostic[] {
  return diagnostics.flatMap((item) => {
    const severity = profile.severities[item.code];
    if (severity === 'off') return [];
    return severity ? [{ ...item, severity }] : [item];
  });
}

function loadFormat(format: FormatId, context: FormatContext): FormatResult {
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
    default:
      return { nodes: [], edges: [], diagnostics: checkBody(context) };
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
