import { analyzeSkill } from '../analyze';
import { partJson, type PartJson } from '../library/libraryExport';
import {
  joinedGraph,
  skillGraphPart,
  type LibraryGraph,
  type SkillDetails,
  type SkillGraphPart,
} from '../library/libraryGraph';
import { librarySkillOf, linkLibrary, type Library, type LibrarySkill } from '../library/libraryModel';
import { skillProcedure } from '../library/skillProcedure';
import { skillScripts } from '../library/skillScripts';
import { parseSkillFile } from '../parse/skillFile';
import type { FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { shownPath } from './output';
import { inBatches, jobsFor, type ThreadSetup } from './threadBatches';
import { formatOf } from '../formats';

// A library with its graph, which knows of each skill more than its SKILL.md's head: the procedure of a skill whose
// SKILL.md marks one (a plain skill has none, and is not analysed), and its scripts by content. Each SKILL.md is read
// once, and a large library is read on several threads, as `check` reads one; each skill's part of the graph is made
// on the thread that read it, and this one joins the parts.

/** What is known of one skill beyond its SKILL.md's head; undefined when its SKILL.md cannot be read as text. */
function readSkillWithDetails(
  fs: FileSystem,
  file: string,
  home: string,
): { skill: LibrarySkill; details: SkillDetails } | undefined {
  const read = readText(fs, file);
  if (read.kind !== 'text') return undefined;
  const skill = librarySkillOf(fs, file, read.text, parseSkillFile(read.text), home);
  // The graph reads the procedure's model, not the findings: only the model is made.
  const analysis = skill.structured ? analyzeSkill(fs, file, { modelOnly: true, text: read.text }) : undefined;
  const procedure = analysis && skillProcedure(analysis.model, formatOf(analysis).procedureDocument?.(analysis));
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

/**
 * The forms a skill's part of the graph is made in: objects, for the exports and queries that read the whole graph,
 * or the JSON export's text, which is then only put together.
 */
type PartForm = 'objects' | 'json';

interface ReadPart<P> {
  skill: LibrarySkill;
  part: P;
}

export type GraphThreadSetup = ThreadSetup & { work: 'graph'; home: string; form: PartForm };

/** One skill and its part of the graph, in the form asked for; undefined when its SKILL.md cannot be read as text. */
export function readSkillPart(
  fs: FileSystem,
  file: string,
  { home, form }: Pick<GraphThreadSetup, 'home' | 'form'>,
): ReadPart<SkillGraphPart | PartJson> | undefined {
  const read = readSkillWithDetails(fs, file, home);
  if (!read) return undefined;
  const part = skillGraphPart(read.skill, read.details, shownPath(file));
  return { skill: read.skill, part: form === 'json' ? partJson(part) : part };
}

/** The library of `files` (SKILL.md paths) and each skill's part of its graph, in the library's order. */
async function readParts<P>(
  entry: string,
  fs: FileSystem,
  files: string[],
  home: string,
  form: PartForm,
): Promise<{ library: Library; parts: P[] }> {
  const setup: GraphThreadSetup = { work: 'graph', home, form };
  const read = (
    await inBatches(files, {
      entry,
      setup,
      jobs: jobsFor(files.length, undefined),
      here: (file) => readSkillPart(fs, file, setup),
    })
  ).flatMap((found) => (found ? [found as ReadPart<P>] : []));
  return { library: linkLibrary(read.map((found) => found.skill)), parts: read.map((found) => found.part) };
}

/** The library of `files` and its graph. */
export async function readLibraryGraph(
  entry: string,
  fs: FileSystem,
  files: string[],
  home: string,
): Promise<{ library: Library; graph: LibraryGraph }> {
  const { library, parts } = await readParts<SkillGraphPart>(entry, fs, files, home, 'objects');
  return { library, graph: joinedGraph(library, parts, shownPath) };
}

/** The library of `files` and its JSON export's parts (see libraryJsonText). */
export function readLibraryJson(
  entry: string,
  fs: FileSystem,
  files: string[],
  home: string,
): Promise<{ library: Library; parts: PartJson[] }> {
  return readParts<PartJson>(entry, fs, files, home, 'json');
}
