import * as path from 'node:path';
import { discoverSkills } from '../workspace/discover';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { LineIndex } from '../parse/lineIndex';
import { flatText } from '../parse/textLike';
import type { Command } from './args';
import { checkSkills, jobsFor } from './checkSkills';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE } from './exits';
import { printErr, printOut } from './output';
import { formatGithub } from './reporters/github';
import { formatJson } from './reporters/json';
import { assembleReport, countBySeverity, toReported, type ReportedDiagnostic } from './reporters/report';
import { formatSarif } from './reporters/sarif';
import { formatText } from './reporters/text';
import { RunSettings } from '../config/runSettings';
import { version } from '../../../package.json';

/** Docs ship beside dist/ in the package: dist/cli-main.js → docs/rules. */
const DOCS_DIR = path.join(__dirname, '..', 'docs', 'rules');

export async function runCheck(command: Extract<Command, { command: 'check' }>): Promise<number> {
  const fs = new ListingCache(new NodeFileSystem());
  const explicit = {
    ...(command.profile ? { profile: command.profile } : {}),
    ...(command.strict ? { strict: true } : {}),
    catalogs: command.catalog.map((root) => path.resolve(root)),
  };
  const settings = new RunSettings(fs, explicit);
  const discovery = discoverSkills(fs, command.paths, process.cwd());
  for (const missing of discovery.missing) printErr(`skillgraph: ${missing}: no such file or folder\n`);
  if (discovery.missing.length > 0) return EXIT_USAGE;
  for (const file of discovery.outside)
    printErr(`skillgraph: ${file} is not part of a skill (no SKILL.md in its folder or above); skipped\n`);
  // A hook passes whatever changed: files of no skill alone are nothing to check, not a mistake.
  if (
    discovery.skills.length === 0 &&
    discovery.misnamed.length === 0 &&
    discovery.outside.length === command.paths.length
  )
    return EXIT_CLEAN;
  // What a configuration file's `ignore` matches is not checked (an overlay, a template, a vendored skill).
  const checked = (found: { file: string }) => !settings.forSkill(found.file).ignored;
  const skills = discovery.skills.filter(checked);
  const misnamed = discovery.misnamed.filter(checked);
  const ignored = discovery.skills.length + discovery.misnamed.length - skills.length - misnamed.length;
  if (skills.length === 0 && misnamed.length === 0) {
    if (ignored > 0) {
      printErr(`skillgraph: every skill found is ignored by its configuration file; nothing to check\n`);
      return EXIT_CLEAN;
    }
    printErr(`skillgraph: no SKILL.md found under ${command.paths.join(', ')}\n`);
    return EXIT_USAGE;
  }
  // The count first: asking whether stderr is a terminal loads its stream (see output.ts).
  const progress = skills.length > 20 && process.stderr.isTTY;
  const total = skills.length;
  const jobs = jobsFor(total, command.jobs);
  const parts = await checkSkills(__filename, skills, {
    explicit,
    settings,
    jobs,
    fs,
    ...(progress ? { onProgress: (done: number) => printErr(`\rskillgraph: checked ${done}/${total} skills…`) } : {}),
  });
  if (progress) printErr('\r\x1b[K');

  const report = assembleReport(parts, misnamed, configFindings(fs, settings));
  const output =
    command.format === 'json'
      ? formatJson(report)
      : command.format === 'sarif'
        ? formatSarif(report, { version, docsDir: DOCS_DIR })
        : command.format === 'github'
          ? formatGithub(report)
          : formatText(report);
  printOut(output);
  const counts = countBySeverity(report.diagnostics);
  if (command.format === 'text') {
    printErr(
      `${report.skills.length} skill${report.skills.length === 1 ? '' : 's'} checked${jobs > 1 ? ` on ${jobs} threads` : ''}${ignored > 0 ? ` (${ignored} ignored by configuration)` : ''}: ${counts.error} errors, ${counts.warning} warnings, ${counts.information + counts.hint} notes\n`,
    );
  }
  if (counts.error > 0) return EXIT_FINDINGS;
  if (command.maxWarnings !== undefined && counts.warning > command.maxWarnings) {
    printErr(`skillgraph: ${counts.warning} warnings, more than --max-warnings ${command.maxWarnings}\n`);
    return EXIT_FINDINGS;
  }
  return EXIT_CLEAN;
}

/** The mistakes in the configuration files the run read, as findings in those files (paths as from here). */
function configFindings(fs: FileSystem, settings: RunSettings): ReportedDiagnostic[] {
  return settings.configDiagnostics().map((item) => {
    const read = readText(fs, item.file);
    const lines = new LineIndex(read.kind === 'text' ? flatText(read.text) : '');
    return toReported(item, path.relative(process.cwd(), item.file) || item.file, lines);
  });
}
