import * as path from 'node:path';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { LineIndex } from '../parse/lineIndex';
import { flatText } from '../parse/textLike';
import type { Command } from './args';
import { checkSkills } from './checkSkills';
import { jobsFor } from './threadBatches';
import { BaselineError, Baselines } from './checkBaseline';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE } from './exits';
import { printErr, printOut } from './output';
import { selectSkills } from './selectSkills';
import { formatGithub } from './reporters/github';
import { formatJson } from './reporters/json';
import { assembleReport, countBySeverity, toReported, type ReportedDiagnostic } from './reporters/report';
import { formatSarif } from './reporters/sarif';
import { isSecurityCode } from '../checks/security';
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
  const selection = selectSkills(fs, settings, command.paths);
  if ('exit' in selection) return selection.exit;
  const { skills, misnamed, ignored } = selection;
  // The count first: asking whether stderr is a terminal loads its stream (see output.ts).
  const progress = skills.length > 20 && process.stderr.isTTY;
  const total = skills.length;
  const jobs = jobsFor(total, command.jobs);
  const baselines = new Baselines(fs, settings, command.baseline);
  const checked = await checkSkills(__filename, skills, {
    explicit,
    settings,
    withFixes: command.format === 'json',
    jobs,
    fs,
    ...(progress ? { onProgress: (done: number) => printErr(`\rskillgraph: checked ${done}/${total} skills…`) } : {}),
  });
  if (progress) printErr('\r\x1b[K');

  let filtered: ReturnType<Baselines['filter']>;
  try {
    if (command.updateBaseline) {
      for (const line of baselines.update(skills, checked)) printErr(`skillgraph: wrote the baseline ${line}\n`);
      return EXIT_CLEAN;
    }
    filtered = baselines.filter(skills, checked);
  } catch (error) {
    if (!(error instanceof BaselineError)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const { matches } = filtered;
  // `--only security`: an audit before installing reports (and exits on) the security rules alone.
  const parts =
    command.only === 'security'
      ? filtered.parts.map((part) => ({
          ...part,
          diagnostics: part.diagnostics.filter((item) => isSecurityCode(item.code)),
        }))
      : filtered.parts;
  const report = {
    ...assembleReport(parts, misnamed, command.only === 'security' ? [] : configFindings(fs, settings)),
    ...(matches.length > 0
      ? {
          baselines: matches.map((match) => ({
            file: path.relative(process.cwd(), match.baseline.file) || match.baseline.file,
            matched: match.matched,
            stale: match.stale,
          })),
        }
      : {}),
  };
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
    const accepted = matches.reduce((sum, match) => sum + match.matched, 0);
    const stale = matches.reduce((sum, match) => sum + match.stale, 0);
    printErr(
      `${report.skills.length} skill${report.skills.length === 1 ? '' : 's'} checked${jobs > 1 ? ` on ${jobs} threads` : ''}${ignored > 0 ? ` (${ignored} ignored by configuration)` : ''}: ${counts.error} errors, ${counts.warning} warnings, ${counts.information + counts.hint} notes${accepted > 0 ? `; ${accepted} more in the baseline` : ''}\n`,
    );
    if (stale > 0)
      printErr(
        `skillgraph: ${stale} finding${stale === 1 ? '' : 's'} in the baseline ${stale === 1 ? 'is' : 'are'} gone; --update-baseline drops ${stale === 1 ? 'it' : 'them'}\n`,
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
    const text = read.kind === 'text' ? flatText(read.text) : '';
    return toReported(item, path.relative(process.cwd(), item.file) || item.file, new LineIndex(text), text);
  });
}
