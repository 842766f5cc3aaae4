import { type FormatId, type SkillModel } from '../model/skillModel';
import { parseSkillFile } from '../parse/markdown/skillFile';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { partJson, type PartJson } from './libraryExport';
import { skillGraphPart, type SkillDetails, type SkillGraphPart } from './libraryGraph';
import { librarySkillOf, type LibrarySkill } from './libraryModel';
import { skillProcedure } from './skillProcedure';
import { skillScripts } from './skillScripts';

// What the library graph knows of one skill beyond its SKILL.md's head: the procedure of a skill whose SKILL.md marks
// one, and its scripts by content. Both hosts read a skill's part of the graph here; the procedure's model comes from
// the analysis, a floor above the library, so the host hands in the function that makes it.

/** A structured skill's model and its procedure document's fields, read from its SKILL.md's text. */
export type ReadProcedure = (
  fs: FileSystem,
  file: string,
  text: string,
) => { format: FormatId; model: SkillModel; fields?: Record<string, unknown> };

/**
 * The forms a skill's part of the graph is made in: objects, for the exports and queries that read the whole graph,
 * or the JSON export's text, which is then only put together.
 */
export type PartForm = 'objects' | 'json';

export interface SkillPart<P> {
  skill: LibrarySkill;
  part: P;
}

/** What is known of one skill beyond its SKILL.md's head; undefined when its SKILL.md cannot be read as text. */
function readSkillWithDetails(
  fs: FileSystem,
  file: string,
  home: string,
  readProcedure: ReadProcedure,
): { skill: LibrarySkill; details: SkillDetails } | undefined {
  const read = readText(fs, file);
  if (read.kind !== 'text') return undefined;
  const skill = librarySkillOf(fs, file, read.text, parseSkillFile(read.text), home);
  // A plain skill has no procedure, and is not analysed.
  const analysed = skill.structured ? readProcedure(fs, file, read.text) : undefined;
  const procedure = analysed && skillProcedure(analysed.model, analysed.fields);
  return {
    skill,
    details: {
      ...(analysed ? { format: analysed.format } : {}),
      ...(procedure ? { procedure } : {}),
      scripts: skillScripts(
        fs,
        skill.dir,
        procedure?.runs.map((run) => run.path),
      ),
    },
  };
}

/**
 * One skill and its part of the graph in the form asked for, keyed by `shown` (its SKILL.md as the output names it);
 * undefined when its SKILL.md cannot be read as text.
 */
export function readSkillPart(
  fs: FileSystem,
  file: string,
  { home, form, shown, readProcedure }: { home: string; form: PartForm; shown: string; readProcedure: ReadProcedure },
): SkillPart<SkillGraphPart | PartJson> | undefined {
  const read = readSkillWithDetails(fs, file, home, readProcedure);
  if (!read) return undefined;
  const part = skillGraphPart(read.skill, read.details, shown);
  return { skill: read.skill, part: form === 'json' ? partJson(part) : part };
}
