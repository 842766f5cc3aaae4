import { homedir } from 'node:os';
import * as path from 'node:path';
import { applySeverities } from '../checks/severities';
import { RunSettings } from '../config/runSettings';
import {
  checkLibrary,
  listedSize,
  listedSkills,
  profilesFrom,
  SKILL_LIST_BUDGETS,
  type LibraryCheckOptions,
} from '../library/libraryChecks';
import { libraryCypher, libraryJson } from '../library/libraryExport';
import { buildLibrary } from '../library/libraryModel';
import { LineIndex } from '../parse/lineIndex';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import type { Command } from './args';
import { EXIT_CLEAN, EXIT_FINDINGS } from './exits';
import { printOut } from './output';
import { toReported, type ReportedDiagnostic } from './reporters/report';
import { formatText } from './reporters/text';
import { selectSkills } from './selectSkills';

/**
 * `skillgraph library`: the skills under the paths as one library (who names whom, which names collide, what a
 * client's skill list holds), its findings, or the library as JSON or Cypher for a graph database.
 */
export function runLibrary(command: Extract<Command, { command: 'library' }>): number {
  const fs = new ListingCache(new NodeFileSystem());
  const settings = new RunSettings(fs, command.profile ? { profile: command.profile } : {});
  const selection = selectSkills(fs, settings, command.paths.length > 0 ? command.paths : ['.']);
  if ('exit' in selection) return selection.exit;
  const library = buildLibrary(
    fs,
    selection.skills.map((found) => found.file),
    homedir(),
  );
  const shown = (file: string) => path.relative(process.cwd(), file) || '.';
  const options = profilesFrom(settings);
  if (command.format === 'json') {
    printOut(
      `${JSON.stringify({ ...libraryJson(library, shown), findings: reported(library, settings, options, fs, shown) }, null, 2)}\n`,
    );
    return EXIT_CLEAN;
  }
  if (command.format === 'cypher') {
    printOut(libraryCypher(library, shown));
    return EXIT_CLEAN;
  }
  const findings = reported(library, settings, options, fs, shown);
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

/** `1 skill`, `2 skills`. */
function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

/** The library's findings as every report shows them, with each skill's configured severities (`off` drops one). */
function reported(
  library: ReturnType<typeof buildLibrary>,
  settings: RunSettings,
  options: LibraryCheckOptions,
  fs: NodeFileSystem | ListingCache,
  shown: (file: string) => string,
): ReportedDiagnostic[] {
  return checkLibrary(library, options)
    .flatMap((item) => applySeverities([item], settings.forSkill(item.file).severities))
    .map((item) => {
      const read = readText(fs, item.file);
      const text = read.kind === 'text' ? read.text : '';
      return toReported(item, shown(item.file), new LineIndex(text), text);
    });
}
