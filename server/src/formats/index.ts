import type { CompileTarget, Format } from '../analysis/format';
import type { AnalysisBase } from '../analysis/skillAnalysis';
import type { FormatId } from '../model/skillModel';
import type { SkillFileSyntax } from '../parse/markdown/skillFile';
import { agentSkillFormat, type AgentSkillAnalysis } from './agent-skill';
import { aip03Format, aip05Format, type AipAnalysis } from './aip';
import { metaskillFormat, metaskillSopFormat, type MetaAnalysis } from './metaskill';
import { skillplusFormat, type SkillplusAnalysis } from './skillplus';

// The registry of formats. To add a format: write its folder (its `Format` values, analysis/format.ts), list them here,
// and add its analysis to `SkillAnalysis`.

/** Everything known about one skill after analysis: what every skill has, and its format's own part. */
export type SkillAnalysis = AgentSkillAnalysis | AipAnalysis | MetaAnalysis | SkillplusAnalysis;

/** The analysis of a skill of one format (AIP's covers both its versions). */
type AnalysisOf<Id extends FormatId> = SkillAnalysis extends infer A
  ? A extends { format: infer Ids }
    ? Id extends Ids
      ? A
      : never
    : never
  : never;

/** Each format id's format, each taking analyses of its own. */
const BY_ID: { [Id in FormatId]: Format<AnalysisOf<Id>> } = {
  'aip-0.3': aip03Format,
  'aip-0.5': aip05Format,
  'agent-skill': agentSkillFormat,
  metaskill: metaskillFormat,
  'metaskill-sop': metaskillSopFormat,
  skillplus: skillplusFormat,
};

// Each format's code takes analyses of that format only, and an analysis carries the id of the format that made it:
// asked by an analysis's id, a format is asked about that analysis alone (the one cast that says so).
const asked = <A extends AnalysisBase>(format: Format<A>) => format as unknown as Format<AnalysisBase>;

/** The formats in the order their markers are asked for (a plain skill has none), and their targets listed. */
export const FORMATS: readonly Format<AnalysisBase>[] = [
  asked(aip03Format),
  asked(aip05Format),
  asked(agentSkillFormat),
  asked(metaskillFormat),
  asked(metaskillSopFormat),
  asked(skillplusFormat),
];

/**
 * The format of an analysis, whose hooks take that analysis (and views of it); of anything else that carries a format
 * id (a model), hooks that take any analysis.
 */
export function formatOf<A extends AnalysisBase>(analysis: A): Format<A>;
export function formatOf(carrier: { format: FormatId }): Format<AnalysisBase>;
export function formatOf(carrier: { format: FormatId }): Format<AnalysisBase> {
  return BY_ID[carrier.format] as unknown as Format<AnalysisBase>;
}

export interface Detection {
  format: Format<AnalysisBase>;
  /** Recognised from its shape alone, without its marker. */
  unmarked: boolean;
}

/** The format of a skill: the first whose marker its frontmatter has, else one whose shape it has, else plain. */
export function detectFormat(frontmatter: Record<string, unknown> | undefined, syntax: SkillFileSyntax): Detection {
  const marked = frontmatter && FORMATS.find((format) => format.marked(frontmatter));
  if (marked) return { format: marked, unmarked: false };
  const shaped = FORMATS.find((format) => format.shaped?.(syntax));
  return { format: shaped ?? asked(agentSkillFormat), unmarked: shaped !== undefined };
}

/** The reader a frontmatter's text suggests, before it is read: a format only one consumer reads (its dialect). */
export function likelyReader(frontmatterText: string): Format['reader'] {
  return FORMATS.find((format) => format.reader?.likely(frontmatterText))?.reader;
}

/** Every target a format is, in the formats' order: what `compile --to` may name besides the graph's forms. */
export const FORMAT_TARGETS: readonly CompileTarget[] = FORMATS.flatMap((format) => format.targets ?? []);

/** What the formats whose runtime shows the model a context (Format.context) are called: "skill+ package". */
export const CONTEXT_FORMATS: string = FORMATS.filter((format) => format.context)
  .map((format) => format.title)
  .join(' or ');
