import type { CompileTarget, Compiler, Format, FormatFeatures, StructureFix } from '../../analysis/format';
import type { Rule } from '../../checks/engine/rule';
import type { AnalysisBase } from '../../analysis/skillAnalysis';
import { plainSkill } from '../../forms/plainSkill';
import { keptFiles } from '../../forms/resultPackage';
import { fenceLanguage, type SkillFileSyntax } from '../../parse/markdown/skillFile';
import { externalInput } from '../../checks/graph/dataFlow';
import {
  aipSpecMismatch,
  invalidAipSchemaId,
  invalidAipSpec,
  missingAipSchemaId,
  missingAipSpec,
} from './read/aipMetadata';
import { agentSkillBodyFromProcedure } from './compile/agentSkillFromProcedure';
import { aip03ToAip05 } from './compile/aip03ToAip05';
import { proseToAip } from './compile/proseToAip';
import { proseToAip05 } from './compile/proseToAip05';
import { procedureItems } from './features/procedureCompletion';
import { procedureKeyDescription } from './features/procedureSchema';
import { aipLikeSkill, loadAip03 } from './read/loadAip03';
import { loadAip05 } from './read/loadAip05';
import { duplicateSchemaId, missingSchemaFile, schemaIdMismatch } from './read/packageRules';
import { addAipMetadataFix, addOutputFixes } from './fixes/procedureFixes';
import type { ProcedureResult } from './read/procedureGraph';
import type { AipAnalysis } from './read/analysis';

const metadataOf = (frontmatter: Record<string, unknown>): Record<string, unknown> => {
  const metadata = frontmatter.metadata;
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : {};
};

/** Procedure keys that make a lone YAML block look like AIP. */
const AIP_BODY = /^(?:purpose|trigger_when|steps)\s*:/m;

/** A body of one fenced YAML block with `steps`, and nothing before it: an AIP 0.3 procedure without its metadata. */
function procedureShaped(syntax: SkillFileSyntax): boolean {
  const [fence] = syntax.fences;
  if (syntax.fences.length !== 1 || !['yaml', 'yml'].includes(fenceLanguage(fence))) return false;
  const before = syntax.text.slice(syntax.body.start, fence.open.start).trim();
  const content = syntax.text.slice(fence.content.start, fence.content.end);
  return before === '' && AIP_BODY.test(content) && /^steps\s*:/m.test(content);
}

const withPart = ({ procedure, ...result }: ProcedureResult) => ({ ...result, part: procedure ? { procedure } : {} });

/** An AIP package: what a prose skill compiles to, and an AIP 0.3 skill migrates to. */
export const AIP_TARGET: CompileTarget = {
  id: 'aip',
  title: 'AIP 0.5 package',
  agentSkill: true,
  versions: [
    { version: '0.5', title: 'AIP 0.5 package' },
    { version: '0.3', title: 'AIP 0.3 package (older runtimes)' },
  ],
};

/** A prose skill compiled to an AIP package (`0.3` on request), with the source's other files kept beside it. */
export const PROSE_TO_AIP: Compiler<AnalysisBase> = {
  to: 'aip',
  compile(analysis, request) {
    const { files, findings } = (request.version === '0.3' ? proseToAip : proseToAip05)(analysis, request.outDir);
    const written = new Set(files.map((file) => file.path));
    return { files: [...files, ...keptFiles(request.fs, analysis, (file) => !written.has(file))], findings };
  },
};

/** An AIP skill as a plain Agent Skill: its `source/` folder is its compiler's record; the rest is kept. */
const TO_AGENT_SKILL: Compiler<AipAnalysis> = {
  to: 'agent-skill',
  compile: (analysis, request) =>
    plainSkill(analysis, request, agentSkillBodyFromProcedure(analysis), {
      own: { metadata: (key) => key === 'aip' || key === 'aip-version' },
      keep: (file) => !file.startsWith('source/'),
    }),
};

const features: FormatFeatures<AipAnalysis> = {
  // Paths in prose are those of the procedure block's text.
  proseRegions: (analysis) => (analysis.procedure ? [analysis.procedure.fence.content] : undefined),
  keyDescription: (view, region, path) => (region === 'procedure' ? procedureKeyDescription(view, path) : undefined),
  completion: (request, where) => (where.region === 'procedure' ? procedureItems(request, where.cursor) : undefined),
};

const common = {
  block: (analysis: AipAnalysis) =>
    analysis.procedure && { fence: analysis.procedure.fence, yaml: analysis.procedure.yaml },
  procedureDocument: (analysis: AipAnalysis) => analysis.procedure?.value,
  features,
  fixes: new Map<Rule, StructureFix<AipAnalysis>>([
    [externalInput, addOutputFixes],
    [aipLikeSkill, addAipMetadataFix],
  ]),
} satisfies Partial<Format<AipAnalysis>>;

/** AIP 0.3: `metadata.aip` (any value: the AIP metadata rules report a malformed one), or a procedure's shape. */
export const aip03Format: Format<AipAnalysis> = {
  id: 'aip-0.3',
  title: 'AIP 0.3 procedure',
  marked: (frontmatter) => 'aip' in metadataOf(frontmatter),
  shaped: procedureShaped,
  ownMetadata: ['aip'],
  load: (context) => withPart(loadAip03(context)),
  ...common,
  compile: [
    {
      to: 'aip',
      // An AIP 0.3 skill only migrates; the packaging 0.5 removed (a schema copy in `source/` matched by `schemaId`,
      // the version in `metadata.aip`) does not stop the migration, which writes neither.
      versions: [{ version: '0.5', title: 'AIP 0.5 package (migrated from 0.3)' }],
      refuses: (request) =>
        request.version === '0.3' ? 'this skill is already AIP 0.3; `--to aip` migrates it to 0.5' : undefined,
      overlooks: [
        missingAipSpec,
        invalidAipSpec,
        aipSpecMismatch,
        missingAipSchemaId,
        invalidAipSchemaId,
        missingSchemaFile,
        schemaIdMismatch,
        duplicateSchemaId,
      ],
      compile: (analysis, request) => aip03ToAip05(request.fs, analysis, request.outDir),
    },
    TO_AGENT_SKILL,
  ],
};

/** AIP 0.5: `metadata.aip-version`. */
export const aip05Format: Format<AipAnalysis> = {
  id: 'aip-0.5',
  title: 'AIP 0.5 procedure',
  marked: (frontmatter) => 'aip-version' in metadataOf(frontmatter),
  load: (context) => withPart(loadAip05(context)),
  ...common,
  compile: [TO_AGENT_SKILL],
  targets: [AIP_TARGET],
};
