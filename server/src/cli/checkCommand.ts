import { homedir } from 'node:os';
import * as path from 'node:path';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { readText } from '../workspace/readText';
import { LineIndex } from '../parse/text/lineIndex';
import { flatText } from '../parse/text/textLike';
import type { Command } from './commandOptions';
import { checkSkills } from './checkSkills';
import { withLibraryFindings } from './checkLibraryFindings';
import { jobsFor } from './threadBatches';
import { BaselineError, Baselines } from './checkBaseline';
import { EXIT_CLEAN, EXIT_USAGE } from './exits';
import { printErr, shownPath } from './output';
import { selectSkills } from './selectSkills';
import { emitReport } from './emitReport';
import { modelSetup, withModelOpinions } from './modelOpinions';
import { assembleReport, toReported, type ReportedDiagnostic } from './reporters/report';
import { isSecurityCode } from '../rules';
import { RunSettings } from '../config/runSettings';
import type { FoundSkill } from '../workspace/discover';

export async function runCheck(command: Extract<Command, { command: 'check' }>): Promise<number> {
  const fs = new ListingCache(new NodeFileSystem());
  const explicit = {
    ...(command.profile ? { profile: command.profile } : {}),
    ...(command.strict ? { strict: true } : {}),
    ...(command.preview ? { preview: true } : {}),
    catalogs: command.catalog.map((root) => path.resolve(root)),
  };
  const settings = new RunSettings(fs, explicit);
  const selection = selectSkills(fs, settings, command.paths);
  if ('exit' in selection) return selection.exit;
  const { skills: found, misnamed: allMisnamed, ignored } = selection;
  // A shard checks its slice of the skills in the order found; the first also reports the configurations' findings
  // and the last the misnamed skill files, so the shards' reports joined in order are the report of one run.
  const shard = command.shard ? shardOf(found.length, command.shard) : undefined;
  const skills = shard ? found.slice(shard.from, shard.to) : found;
  const misnamed = !command.shard || command.shard.index === command.shard.count ? allMisnamed : [];
  const withConfig = !command.shard || command.shard.index === 1;
  const counted = command.shard ? answersFor(found, shard!, command.shard) : undefined;
  // The count first: asking whether stderr is a terminal loads its stream (see output.ts).
  const progress = skills.length > 20 && process.stderr.isTTY;
  const total = skills.length;
  const jobs = jobsFor(total, command.jobs);
  const baselines = new Baselines(fs, settings, command.baseline);
  // Before the rules run: a run asked for a model's opinion that has none to ask stops here.
  const models = command.model ? modelSetup(settings, skills) : undefined;
  if (models && 'error' in models) {
    printErr(`skillgraph: ${models.error}\n`);
    return EXIT_USAGE;
  }
  const home = homedir();
  const analysed = await checkSkills(__filename, skills, {
    explicit,
    settings,
    withFixes: command.format === 'json',
    withHash: command.hash === true,
    jobs,
    fs,
    home,
    ...(progress ? { onProgress: (done: number) => printErr(`\rskillgraph: checked ${done}/${total} skills…`) } : {}),
  });
  if (progress) printErr('\r\x1b[K');
  const checked = withLibraryFindings({ fs, settings, home, found, checked: analysed, from: shard?.from ?? 0 });

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
  const opinions = models ? await withModelOpinions(fs, settings, models, skills, filtered.parts) : undefined;
  for (const notice of opinions?.notices ?? []) printErr(notice);
  const checkedParts = opinions?.parts ?? filtered.parts;
  // `--only security`: an audit before installing reports (and exits on) the security rules alone.
  const parts =
    command.only === 'security'
      ? checkedParts.map((part) => ({
          ...part,
          diagnostics: part.diagnostics.filter((item) => isSecurityCode(item.code)),
        }))
      : checkedParts;
  const report = {
    ...assembleReport(parts, misnamed, command.only === 'security' || !withConfig ? [] : configFindings(fs, settings)),
    ...(matches.length > 0
      ? {
          baselines: matches.map((match) => ({
            file: shownPath(match.baseline.file),
            matched: match.matched,
            stale: match.stale(counted),
          })),
        }
      : {}),
    ...(command.shard ? { shard: command.shard } : {}),
  };
  return emitReport(report, command.format, {
    ...(command.maxWarnings !== undefined ? { maxWarnings: command.maxWarnings } : {}),
    summary: `${jobs > 1 ? ` on ${jobs} threads` : ''}${ignored > 0 ? ` (${ignored} ignored by configuration)` : ''}`,
  });
}

/** The K-th of N slices of `total` skills: as equal as can be, the first ones one larger. */
export function shardOf(total: number, shard: { index: number; count: number }): { from: number; to: number } {
  const size = Math.floor(total / shard.count);
  const larger = total % shard.count;
  const from = (shard.index - 1) * size + Math.min(shard.index - 1, larger);
  return { from, to: from + size + (shard.index <= larger ? 1 : 0) };
}

/**
 * Which baseline entries a shard answers for, by their file: those inside its skills (the nearest skill folder above
 * decides), and for the last shard those inside no skill found (a skill deleted since). Each entry is one shard's.
 */
function answersFor(
  found: FoundSkill[],
  slice: { from: number; to: number },
  shard: { index: number; count: number },
): (file: string) => boolean {
  const shardOfDir = new Map(found.map((skill, at) => [path.dirname(skill.file), at >= slice.from && at < slice.to]));
  return (file) => {
    for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const mine = shardOfDir.get(dir);
      if (mine !== undefined) return mine;
    }
    return shard.index === shard.count;
  };
}

/** The mistakes in the configuration files the run read, as findings in those files (paths as from here). */
function configFindings(fs: FileSystem, settings: RunSettings): ReportedDiagnostic[] {
  return settings.configDiagnostics().map((item) => {
    const read = readText(fs, item.file);
    const text = read.kind === 'text' ? flatText(read.text) : '';
    return toReported(item, shownPath(item.file), new LineIndex(text), text);
  });
}
