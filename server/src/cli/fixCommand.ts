import { existsSync, readFileSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { RunSettings } from '../config/runSettings';
import { chosenFix, type FixChoice } from '../fixes/chooseFixes';
import { fixSkill, type FixedFile, type PlacedFix, type SkillFixes } from '../fixes/fixSkill';
import { fixesFor } from '../fixes/skillFixes';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem } from '../workspace/fileSystem';
import { decodeText } from '../workspace/readText';
import type { Command } from './commandOptions';
import { WriteRefused, writeAllOrNothing, type PlannedWrite } from './atomicWrite';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE } from './exits';
import { plural, printErr, printOut, shownPath } from './output';
import { selectSkills } from './selectSkills';

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

export function runFix(command: Extract<Command, { command: 'fix' }>): number {
  const fs = new ListingCache(new NodeFileSystem());
  const settings = new RunSettings(fs, {
    ...(command.profile ? { profile: command.profile } : {}),
    ...(command.strict ? { strict: true } : {}),
    ...(command.preview ? { preview: true } : {}),
    catalogs: command.catalog.map((root) => path.resolve(root)),
  });
  const selection = selectSkills(fs, settings, command.paths);
  if ('exit' in selection) return selection.exit;
  const choice: FixChoice = {
    unsafe: command.unsafe,
    onDisk: true,
    ...(command.codes.length > 0 ? { codes: new Set(command.codes) } : {}),
  };
  const results = selection.skills.map((found) =>
    fixSkill(fs, found.file, settings.analyzeOptions(found.file), choice),
  );

  let writes: PlannedWrite[];
  try {
    writes = results.flatMap((result) => plannedWrites(result));
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const changed = results.flatMap((result) => result.files);
  if (command.dryRun) printOut(changed.map(unifiedDiff).join(''));
  else if (writes.length > 0) {
    try {
      writeAllOrNothing(writes, 'the fixed files');
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
      printErr(`skillgraph: ${error.message}\n`);
      return EXIT_USAGE;
    }
  }
  for (const result of results) {
    // A dry run's standard output is the patch alone (it can be piped to `git apply`): the list goes to stderr.
    const list = command.dryRun ? printErr : printOut;
    for (const placed of result.applied)
      list(
        `${locate(placed)}: ${command.dryRun ? 'would fix' : 'fixed'} [${placed.fix.diagnostic.code}] ${placed.fix.title}\n`,
      );
    for (const placed of result.refused)
      printErr(
        `${locate(placed)}: not fixed [${placed.fix.diagnostic.code}] ${placed.fix.title}: the result would have an error the skill does not have\n`,
      );
  }
  printErr(summary(command, results, choice));
  if (command.dryRun) return changed.length > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
  const errors = results.reduce(
    (sum, result) => sum + result.analysis.diagnostics.filter((item) => item.severity === 'error').length,
    0,
  );
  return errors > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}

/**
 * The writes of one skill's fixes: each file's new bytes, to replace bytes
 * that must be what was read (a file changed since is refused), never
 * through a link that leaves the skill folder.
 */
function plannedWrites(result: SkillFixes): PlannedWrite[] {
  const root = realpathSync(result.initial.dir);
  return result.files.map((fixed): PlannedWrite => {
    const target = fixed.created ? fixed.file : realpathSync(fixed.file);
    if (!inside(root, fixed.created ? nearestExisting(target) : target))
      throw new WriteRefused(`${shownPath(fixed.file)} leads out of its skill folder; nothing was written`);
    const text = Buffer.from(fixed.after, 'utf8');
    if (fixed.created) return { target, content: text, create: true, mode: 0o644 };
    const bytes = readFileSync(target);
    const read = decodeText(bytes);
    if (read.kind !== 'text' || read.text !== fixed.before)
      throw new WriteRefused(`${shownPath(fixed.file)} changed while it was being fixed; nothing was written`);
    const content = read.bom && !fixed.markRemoved ? Buffer.concat([BOM, text]) : text;
    return { target, content, expected: bytes };
  });
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root + path.sep);
}

/** The real path of the nearest folder of `file` that exists (where a new file's folders would be made). */
function nearestExisting(file: string): string {
  let folder = path.dirname(file);
  while (!existsSync(folder)) folder = path.dirname(folder);
  return realpathSync(folder);
}

/** Where a fix's finding was, as `file:line:column`. */
function locate(placed: PlacedFix): string {
  return `${shownPath(placed.fix.diagnostic.file)}:${placed.line + 1}:${placed.character + 1}`;
}

/**
 * One file's change as a unified diff (a new file from /dev/null). What a
 * diff cannot show is noted above it: a byte-order mark removed, and CRLF
 * line endings made LF (the diff is then of the lines' text, as readable as
 * any other, instead of every line changed).
 */
function unifiedDiff(fixed: FixedFile): string {
  const name = shownPath(fixed.file).split(path.sep).join('/');
  const endings = fixed.before.includes('\r\n') && !fixed.after.includes('\r\n');
  const before = endings ? fixed.before.replace(/\r\n/g, '\n') : fixed.before;
  const notes = [
    ...(fixed.markRemoved ? [`# ${name}: the byte-order mark is removed\n`] : []),
    ...(endings ? [`# ${name}: CRLF line endings become LF\n`] : []),
  ].join('');
  if (!fixed.created && before === fixed.after) return notes;
  const patch = createTwoFilesPatch(
    fixed.created ? '/dev/null' : `a/${name}`,
    `b/${name}`,
    before,
    fixed.after,
    undefined,
    undefined,
    { context: 3 },
  );
  // The header line of `diff`'s own format: git and patch read from the `---` line on.
  return notes + patch.replace(/^=+\n/m, '').replace(/^Index: [^\n]*\n/m, '');
}

function summary(command: Extract<Command, { command: 'fix' }>, results: SkillFixes[], choice: FixChoice): string {
  const applied = results.reduce((sum, result) => sum + result.applied.length, 0);
  const files = results.reduce((sum, result) => sum + result.files.length, 0);
  const skills = results.filter((result) => result.files.length > 0).length;
  const refused = results.reduce((sum, result) => sum + result.refused.length, 0);
  // What is left that --unsafe would fix: the findings of the final analyses whose preferred fix is unsafe.
  const unsafeLeft = command.unsafe
    ? 0
    : results.reduce(
        (sum, result) =>
          sum +
          result.analysis.diagnostics.filter(
            (item) => chosenFix(fixesFor(result.analysis, item), { ...choice, unsafe: true })?.tier === 'unsafe',
          ).length,
        0,
      );
  const verb = command.dryRun ? 'Would fix' : 'Fixed';
  const parts = [
    applied === 0
      ? `Nothing to fix in ${plural(results.length, 'skill')}`
      : `${verb} ${plural(applied, 'problem')} in ${plural(files, 'file')} of ${plural(skills, 'skill')}`,
    ...(refused > 0 ? [`${refused} fix${refused === 1 ? '' : 'es'} left out (each would add an error)`] : []),
    ...(unsafeLeft > 0
      ? [
          `${unsafeLeft} more ha${unsafeLeft === 1 ? 's an unsafe fix' : 've unsafe fixes'}: review them in the editor, or run with --unsafe`,
        ]
      : []),
  ];
  return `${parts.join('; ')}.\n`;
}
