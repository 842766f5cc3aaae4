import { analyzeSkill } from '../analyze';
import type { SkillDetails } from '../library/libraryGraph';
import { librarySkillOf, linkLibrary, type Library, type LibrarySkill } from '../library/libraryModel';
import { skillProcedure } from '../library/skillProcedure';
import { skillScripts } from '../library/skillScripts';
import { parseSkillFile } from '../parse/skillFile';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { inBatches, jobsFor, type ThreadSetup } from './threadBatches';

// A library with what its graph knows of each skill beyond its SKILL.md's head: the procedure of a skill whose SKILL.md
// marks one (a plain skill has none, and is not analysed), and its scripts by content. Each SKILL.md is read once, and
// a large library is read on several threads, as `check` reads one.

export interface ReadSkill {
  skill: LibrarySkill;
  details: SkillDetails;
}

/** One skill of the library and its details; undefined when its SKILL.md cannot be read as text. */
export function readSkillWithDetails(fs: FileSystem, file: string, home: string): ReadSkill | undefined {
  const read = readText(fs, file);
  if (read.kind !== 'text') return undefined;
  const skill = librarySkillOf(fs, file, read.text, parseSkillFile(read.text), home);
  // The graph reads the procedure's model, not the findings: only the model is made.
  const analysis = skill.structured ? analyzeSkill(fs, file, { modelOnly: true, text: read.text }) : undefined;
  const procedure = analysis && skillProcedure(analysis.model, analysis.procedure?.value);
  return {
    skill,
    details: {
      ...(analysis ? { format: analysis.format } : {}),
      ...(procedure ? { procedure } : {}),
      scripts: skillScripts(
        fs,
        skill.dir,
        procedure?.runs.map((run) => run.path),
      ),
    },
  };
}

export type DetailsThreadSetup = ThreadSetup & { work: 'details'; home: string };

/** The library of `files` (SKILL.md paths) and each skill's details, by its SKILL.md. */
export async function readLibraryWithDetails(
  entry: string,
  fs: FileSystem,
  files: string[],
  home: string,
): Promise<{ library: Library; details: Map<string, SkillDetails> }> {
  const setup: DetailsThreadSetup = { work: 'details', home };
  const read = (
    await inBatches(files, {
      entry,
      setup,
      jobs: jobsFor(files.length, undefined),
      here: (file) => readSkillWithDetails(fs, file, home),
    })
  ).flatMap((found) => found ?? []);
  return {
    library: linkLibrary(read.map((found) => found.skill)),
    details: new Map(read.map((found) => [found.skill.file, found.details])),
  };
}
