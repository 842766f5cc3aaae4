import { readProcedure } from '../analyze';
import type { PartJson } from '../library/libraryExport';
import { joinedGraph, type LibraryGraph, type SkillGraphPart } from '../library/libraryGraph';
import { linkLibrary, type Library } from '../library/libraryModel';
import { readSkillPart as readPart, type PartForm, type SkillPart } from '../library/readSkillDetails';
import type { FileSystem } from '../workspace/fileSystem';
import { shownPath } from './output';
import { inBatches, jobsFor, type ThreadSetup } from './threadBatches';

// A library with its graph. Each SKILL.md is read once, and a large library is read on several threads, as `check`
// reads one; each skill's part of the graph is made on the thread that read it (library/readSkillDetails.ts), and
// this one joins the parts.

export type GraphThreadSetup = ThreadSetup & { work: 'graph'; home: string; form: PartForm };

/** One skill and its part of the graph, as a thread reads it. */
export function readSkillPart(
  fs: FileSystem,
  file: string,
  { home, form }: Pick<GraphThreadSetup, 'home' | 'form'>,
): SkillPart<SkillGraphPart | PartJson> | undefined {
  return readPart(fs, file, { home, form, shown: shownPath(file), readProcedure });
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
  ).flatMap((found) => (found ? [found as SkillPart<P>] : []));
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
