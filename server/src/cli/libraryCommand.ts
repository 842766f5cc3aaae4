import { homedir } from 'node:os';
import * as path from 'node:path';
import { applySeverities } from '../checks/severities';
import { RunSettings } from '../config/runSettings';
import { GOVERNANCE_QUERIES, type Row } from '../library/governanceQueries';
import {
  checkLibrary,
  listedSize,
  listedSkills,
  profilesFrom,
  SKILL_LIST_BUDGETS,
  type LibraryCheckOptions,
} from '../library/libraryChecks';
import { libraryCsv, libraryCypher, libraryGraphml, libraryJson } from '../library/libraryExport';
import { libraryGraph, type LibraryGraph } from '../library/libraryGraph';
import { buildLibrary, type Library } from '../library/libraryModel';
import { LineIndex } from '../parse/lineIndex';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { userSkillFolders } from '../workspace/userSkillFolders';
import type { Command } from './args';
import { WriteRefused } from './atomicWrite';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE } from './exits';
import { printErr, printOut } from './output';
import { toReported, type ReportedDiagnostic } from './reporters/report';
import { formatText } from './reporters/text';
import { selectSkills } from './selectSkills';
import { readLibraryWithDetails } from './skillDetails';
import { writePackage } from './writePackage';

interface ReadLibrary {
  fs: FileSystem;
  settings: RunSettings;
  library: Library;
  shown: (file: string) => string;
}

/**
 * The library of the skills under `paths` (with its graph: each skill's procedure and scripts read too, on several
 * threads for a large library), or the exit status when they could not be found.
 */
async function readLibrary(
  given: string[],
  settings: RunSettings,
  fs: FileSystem,
  options: { graph: boolean; userFolders: boolean },
): Promise<(ReadLibrary & { graph?: LibraryGraph }) | { exit: number }> {
  const paths = options.userFolders ? [...given, ...userSkillFolders(fs, homedir())] : given;
  const selection = selectSkills(fs, settings, paths);
  if ('exit' in selection) return selection;
  const files = selection.skills.map((found) => found.file);
  const shown = (file: string) => path.relative(process.cwd(), file) || '.';
  if (!options.graph) return { fs, settings, library: buildLibrary(fs, files, homedir()), shown };
  const { library, details } = await readLibraryWithDetails(__filename, fs, files, homedir());
  return { fs, settings, library, shown, graph: libraryGraph(library, details, shown) };
}

/**
 * `skillgraph library`: the skills under the paths as one library (who names whom, which names collide, what a
 * client's skill list holds), its findings, or the library graph for a graph database or a graph editor.
 */
export async function runLibrary(command: Extract<Command, { command: 'library' }>): Promise<number> {
  const fs = new ListingCache(new NodeFileSystem());
  const settings = new RunSettings(fs, command.profile ? { profile: command.profile } : {});
  const read = await readLibrary(command.paths.length > 0 ? command.paths : ['.'], settings, fs, {
    graph: command.format !== 'text',
    userFolders: command.userFolders,
  });
  if ('exit' in read) return read.exit;
  const { library, graph } = read;
  const options = profilesFrom(settings);
  switch (command.format) {
    case 'json':
      // One line: a large library's graph is tens of megabytes, and indenting it doubles that (jq reads either).
      printJsonInParts({ ...libraryJson(graph!), findings: reported(read, options) });
      return EXIT_CLEAN;
    case 'cypher':
      printOut(libraryCypher(graph!));
      return EXIT_CLEAN;
    case 'graphml':
      printOut(libraryGraphml(graph!));
      return EXIT_CLEAN;
    case 'csv':
      return writeCsv(graph!, command.out!, command.force);
    case 'text':
      break;
  }
  const findings = reported(read, options);
  const invocations = library.edges.filter((edge) => edge.kind !== 'link').length;
  const lists = SKILL_LIST_BUDGETS.map((budget) => {
    const listed = listedSkills(library, budget, options);
    const size = listed.reduce((sum, skill) => sum + listedSize(skill), 0);
    return `${budget.client} lists ${listed.length} of them in ${size.toLocaleString('en')} characters (up to ${budget.characters.toLocaleString('en')})`;
  });
  printOut(
    `${count(library.skills.length, 'skill')}, ${count(invocations, 'invocation')} and ${count(library.edges.length - invocations, 'link')} between them; ${lists.join('; ')}\n` +
      formatText({ skills: [], diagnostics: findings }),
  );
  return findings.some((item) => item.severity === 'error') ? EXIT_FINDINGS : EXIT_CLEAN;
}

/** The CSV files into `out`, all or nothing and never over a file without `force`; then the import command. */
function writeCsv(graph: LibraryGraph, out: string, force: boolean): number {
  const { files, command } = libraryCsv(graph);
  try {
    writePackage(
      out,
      files.map((file) => ({ path: file.name, content: file.content })),
      force,
    );
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
  printErr(`skillgraph: wrote ${files.length} files to ${out}; import them into an empty database with:\n`);
  printOut(`cd ${out} && ${command}\n`);
  return EXIT_CLEAN;
}

/**
 * `skillgraph query NAME`: a governance question answered over the library's graph, as rows; without a name, the
 * questions and their Cypher.
 */
export async function runQuery(command: Extract<Command, { command: 'query' }>): Promise<number> {
  if (command.name === undefined) {
    if (command.format === 'json')
      printOut(
        `${JSON.stringify(
          GOVERNANCE_QUERIES.map(({ answer: _, ...query }) => query),
          null,
          2,
        )}\n`,
      );
    else
      printOut(GOVERNANCE_QUERIES.map((query) => `${query.name}\n  ${query.question}\n  ${query.cypher}\n`).join('\n'));
    return EXIT_CLEAN;
  }
  const query = GOVERNANCE_QUERIES.find((candidate) => candidate.name === command.name);
  if (!query) {
    printErr(
      `skillgraph: no query is named "${command.name}"; the queries are ${GOVERNANCE_QUERIES.map((known) => known.name).join(', ')}\n`,
    );
    return EXIT_USAGE;
  }
  const fs = new ListingCache(new NodeFileSystem());
  const read = await readLibrary(command.paths, new RunSettings(fs, {}), fs, {
    graph: true,
    userFolders: command.userFolders,
  });
  if ('exit' in read) return read.exit;
  const rows = query.answer(read.graph!);
  if (command.format === 'json') printOut(`${JSON.stringify({ query: query.name, rows }, null, 2)}\n`);
  else printOut(`${query.question}\n${rows.length === 0 ? 'No rows.\n' : table(rows)}`);
  return rows.length > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}

/** Rows as aligned columns under their names. */
function table(rows: Row[]): string {
  const columns = Object.keys(rows[0]);
  const cells = [columns, ...rows.map((row) => columns.map((column) => String(row[column])))];
  const widths = columns.map((_, at) => Math.max(...cells.map((line) => line[at].length)));
  return (
    cells
      .map((line) =>
        line
          .map((cell, at) => cell.padEnd(widths[at]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** `1 skill`, `2 skills`. */
function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

/** The library's findings as every report shows them, with each skill's configured severities (`off` drops one). */
function reported({ library, settings, fs, shown }: ReadLibrary, options: LibraryCheckOptions): ReportedDiagnostic[] {
  return checkLibrary(library, options)
    .flatMap((item) => applySeverities([item], settings.forSkill(item.file).severities))
    .map((item) => {
      const read = readText(fs, item.file);
      const text = read.kind === 'text' ? read.text : '';
      return toReported(item, shown(item.file), new LineIndex(text), text);
    });
}

/** Items written per part of a large JSON document. */
const JSON_PART = 2000;

/**
 * Prints `{ key: value, … }` as `JSON.stringify` would, on one line, a few thousand array items at a time: the library
 * graph of 10,000 skills is about 60 MB of JSON, and made as one string (and one buffer of it) it costs the CLI a
 * second of garbage collection.
 */
function printJsonInParts(document: Record<string, unknown>): void {
  const keys = Object.keys(document);
  keys.forEach((key, index) => {
    const value = document[key];
    printOut(`${index === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    if (!Array.isArray(value)) printOut(JSON.stringify(value));
    else
      for (let start = 0; start < value.length || start === 0; start += JSON_PART) {
        // A slice as one array, its brackets dropped: one stringify a part, not one an item.
        const part = JSON.stringify(value.slice(start, start + JSON_PART)).slice(1, -1);
        printOut(`${start === 0 ? '[' : ','}${part}${start + JSON_PART >= value.length ? ']' : ''}`);
      }
  });
  printOut('}\n');
}
