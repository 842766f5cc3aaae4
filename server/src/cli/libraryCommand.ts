import { homedir } from 'node:os';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { appendTo } from '../listMap';
import { libraryFindingsIn } from '../rules/libraryFindings';
import { exitStatus, formatReport } from './emitReport';
import { RunSettings } from '../config/runSettings';
import { GOVERNANCE_QUERIES, type Row } from '../library/governanceQueries';
import { checkLibrary } from '../library/libraryChecks';
import {
  listedSize,
  listedSkills,
  profilesFrom,
  SKILL_LIST_BUDGETS,
  type LibraryCheckOptions,
} from '../library/skillListBudget';
import { libraryCsv } from '../library/libraryCsv';
import { libraryCypher, libraryGraphml, libraryJsonText } from '../library/libraryExport';
import type { LibraryGraph } from '../library/libraryGraph';
import { buildLibrary, type Library } from '../library/libraryModel';
import { LineIndex } from '../parse/text/lineIndex';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { userSkillFolders } from '../workspace/userSkillFolders';
import type { Command } from './commandOptions';
import { WriteRefused } from './atomicWrite';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE } from './exits';
import { printErr, printOut, shownPath } from './output';
import { toReported, type ReportedDiagnostic } from './reporters/report';
import { formatText } from './reporters/text';
import { selectSkills } from './selectSkills';
import { readLibraryGraph, readLibraryJson } from './libraryThreads';
import { writePackage } from './writePackage';

/** The SKILL.md files under `paths` (and the clients' user folders, when asked), or the exit status without any. */
function libraryFiles(
  fs: FileSystem,
  settings: RunSettings,
  given: string[],
  userFolders: boolean,
): { files: string[] } | { exit: number } {
  const paths = userFolders ? [...given, ...userSkillFolders(fs, homedir())] : given;
  const selection = selectSkills(fs, settings, paths);
  return 'exit' in selection ? selection : { files: selection.skills.map((found) => found.file) };
}

/**
 * `skillgraph library`: the skills under the paths as one library (who names whom, which names collide, what a
 * client's skill list holds), its findings, or the library graph for a graph database or a graph editor (each skill's
 * procedure and scripts read too, on several threads for a large library).
 */
export async function runLibrary(command: Extract<Command, { command: 'library' }>): Promise<number> {
  const fs = new ListingCache(new NodeFileSystem());
  const settings = new RunSettings(fs, command.profile ? { profile: command.profile } : {});
  const found = libraryFiles(fs, settings, command.paths.length > 0 ? command.paths : ['.'], command.userFolders);
  if ('exit' in found) return found.exit;
  const { files } = found;
  const options = profilesFrom(settings);
  const home = homedir();
  if (command.format === 'json') {
    const { library, parts } = await readLibraryJson(__filename, fs, files, home);
    const findings = reported(fs, settings, library, options);
    // One line: a large library's graph is tens of megabytes, and indenting it doubles that (jq reads either).
    printInParts(libraryJsonText(library, parts, shownPath, { findings }));
    return exitStatus({ diagnostics: findings }, command.maxWarnings);
  }
  if (command.format === 'sarif' || command.format === 'github') {
    const findings = reported(fs, settings, buildLibrary(fs, files, home), options);
    printOut(formatReport({ skills: [], diagnostics: findings }, command.format));
    return exitStatus({ diagnostics: findings }, command.maxWarnings);
  }
  if (command.format !== 'text') {
    const { graph } = await readLibraryGraph(__filename, fs, files, home);
    if (command.format === 'csv') return writeCsv(graph, command.out!, command.force);
    printOut(command.format === 'cypher' ? libraryCypher(graph) : libraryGraphml(graph));
    return EXIT_CLEAN;
  }
  const library = buildLibrary(fs, files, home);
  const findings = reported(fs, settings, library, options);
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
  return exitStatus({ diagnostics: findings }, command.maxWarnings);
}

/** The CSV files into `out`, all or nothing and never over a file without `force`; then the import commands. */
function writeCsv(graph: LibraryGraph, out: string, force: boolean): number {
  const { files, commands } = libraryCsv(graph);
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
  printErr(`skillgraph: wrote ${files.length} files to ${out}; load them into an empty Neo4j or Kùzu database with:\n`);
  printOut(commands.map((command) => `cd ${out} && ${command}\n`).join(''));
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
  const found = libraryFiles(fs, new RunSettings(fs, {}), command.paths, command.userFolders);
  if ('exit' in found) return found.exit;
  const { graph } = await readLibraryGraph(__filename, fs, found.files, homedir());
  const rows = query.answer(graph);
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

/**
 * The library's findings as every report shows them, as `check` reports them in each skill: its suppression comments
 * read, its configured severities (`off` drops one).
 */
function reported(
  fs: FileSystem,
  settings: RunSettings,
  library: Library,
  options: LibraryCheckOptions,
): ReportedDiagnostic[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const item of checkLibrary(library, options)) appendTo(byFile, item.file, item);
  return library.skills.flatMap((skill) => {
    const findings = byFile.get(skill.file) ?? [];
    if (findings.length === 0 && !skill.hasSuppressions) return [];
    const read = readText(fs, skill.file);
    if (read.kind !== 'text') return [];
    const lines = new LineIndex(read.text);
    return libraryFindingsIn(skill.file, read.text, findings, settings.forSkill(skill.file)).map((item) =>
      toReported(item, shownPath(item.file), lines, read.text, shownPath),
    );
  });
}

/** Text gathered before it is written: about a megabyte a write, not one write a part. */
const WRITE_SIZE = 1 << 20;

/**
 * Prints a document a part at a time: the library graph of 10,000 skills is about 60 MB of JSON, and made as one
 * string (and one buffer of it) it costs the CLI a second of garbage collection.
 */
function printInParts(parts: Iterable<string>): void {
  let gathered: string[] = [];
  let size = 0;
  for (const part of parts) {
    gathered.push(part);
    size += part.length;
    if (size >= WRITE_SIZE) {
      printOut(gathered.join(''));
      gathered = [];
      size = 0;
    }
  }
  printOut(`${gathered.join('')}\n`);
}
