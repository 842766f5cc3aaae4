import type { Diagnostic } from '../checks/engine/diagnostic';
import type { ProfileChoice } from '../platforms/profiles';
import type { Span } from '../parse/text/lineIndex';
import type { FormatId, SkillModel } from '../model/skillModel';
import type { SkillFileSyntax } from '../parse/markdown/skillFile';
import type { TextLike } from '../parse/text/textLike';
import type { YamlSyntax } from '../parse/yaml/yamlSyntax';

/** A step a test case of the skill (`evals/evals.json`) names in its expectations. */
export interface EvalLink {
  step: string;
  /** The case's id as written. */
  id: string;
  /** The case's id in `evals/evals.json`. */
  span: Span;
}

/**
 * Everything known about one skill after analysis, whatever its format. What only one format reads (an AIP procedure
 * block, a MetaSkill's plan, a skill+ package) is in that format's part of `SkillAnalysis` (formats/index.ts), which
 * only that format's code reads.
 */
export interface AnalysisBase {
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
  /** The steps the skill's test cases (`evals/evals.json`) name in their expectations. */
  evalLinks?: EvalLink[];
  /** The text of every other file a span may point into (skill+ package files), by absolute path. */
  sources: Map<string, string>;
}

/** The text of a file of the analysed skill: SKILL.md, or a package file it read. */
export function sourceOf(analysis: AnalysisBase, file: string): string {
  return file === analysis.file ? analysis.text : (analysis.sources.get(file) ?? '');
}
