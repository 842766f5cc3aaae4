import type { SkillModel } from '../../model/skillModel';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import type { Diagnostic } from './diagnostic';

/**
 * How far a fix may be trusted without a look. `safe`: mechanical and
 * meaning-preserving (quoting a value YAML would misread, a path's case or
 * slashes, line endings): `skillgraph fix` applies it by default and the
 * editor on "fix all". `unsafe`: a guess at what was meant (the nearest
 * name, a dependency to add, a stub to write): applied only when asked.
 */
export type FixTier = 'safe' | 'unsafe';

/** Replaces [start, end) of `file`'s text (as the analysis read it: no byte-order mark) with `newText`. */
export interface TextChange {
  kind: 'replace';
  file: string;
  start: number;
  end: number;
  newText: string;
}

/** Creates `file` with `text`; never over a file that exists. */
export interface FileCreation {
  kind: 'create';
  file: string;
  text: string;
}

/**
 * Removes the byte-order mark from `file`: its text (which the analysis
 * reads without the mark) is unchanged, so it is no text edit, and an editor,
 * which keeps the mark as the file's encoding, cannot apply it.
 */
export interface MarkRemoval {
  kind: 'remove-bom';
  file: string;
}

export type FileEdit = TextChange | FileCreation | MarkRemoval;

/** One way to resolve one finding: what the editor offers as a quick fix and `skillgraph fix` applies. */
export interface Fix {
  title: string;
  tier: FixTier;
  /** The fix the editor applies on a click of the light bulb's first entry. */
  preferred: boolean;
  /** Edits that apply to a file on disk but not to an editor's buffer of it (line endings): `fix` only. */
  diskOnly?: true;
  diagnostic: Diagnostic;
  edits: FileEdit[];
}

export function textChange(file: string, start: number, end: number, newText: string): TextChange {
  return { kind: 'replace', file, start, end, newText };
}

/** A fix of `item` by `edits`; the first a rule offers is its preferred one. */
export function fixOf(
  item: Diagnostic,
  title: string,
  tier: FixTier,
  edits: FileEdit[],
  options: { preferred?: boolean; diskOnly?: boolean } = {},
): Fix {
  return {
    title,
    tier,
    preferred: options.preferred ?? true,
    ...(options.diskOnly ? { diskOnly: true as const } : {}),
    diagnostic: item,
    edits,
  };
}

/** What a rule's fix reads: the text of the finding's file (as the analysis read it), the frontmatter, the model. */
export interface FixSource {
  text: string;
  frontmatter?: YamlSyntax;
  model: SkillModel;
}
