import { analyzeSkill } from '../analyze';
import type { ExplicitSettings } from '../config/skillConfig';
import type { FoundSkill } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import { reportSkill, type SkillReport } from './reporters/report';
import type { RunSettings } from '../config/runSettings';
import { inBatches, type ThreadSetup } from './threadBatches';
import { librarySkillOf, type LibrarySkill } from '../library/libraryModel';

export interface CheckOptions {
  /** The flags given (profile, strictness, catalogs): each thread reads the configurations under them itself. */
  explicit: ExplicitSettings;
  /** The settings of this thread's analyses (the caller's, whose configurations and catalogs are read already). */
  settings: RunSettings;
  /** Each finding's fix tier is reported (JSON). */
  withFixes: boolean;
  /** Each skill's content hash is reported (check --hash): reading every file of every skill is not free. */
  withHash: boolean;
  /** Threads to analyse on, this one included (see jobsFor). */
  jobs: number;
  /** The user's home folder: where a skill is in the library depends on it (libraryModel.ts, scopeOf). */
  home: string;
  /** The disk as this thread reads it (the caller's, so listings made while discovering serve the analyses). */
  fs: FileSystem;
  onProgress?: (done: number) => void;
}

/** What a check thread is set up with. */
export interface CheckThreadSetup extends ThreadSetup {
  work: 'check';
  explicit: ExplicitSettings;
  withFixes: boolean;
  withHash: boolean;
  home: string;
}

/** One skill checked: its report, and what the library's checks need of it, read from the text its analysis read. */
export interface CheckedSkill {
  report: SkillReport;
  /** The skill as the library knows it; none when its SKILL.md could not be read as text. */
  librarySkill?: LibrarySkill;
}

/** One skill's report: the same work whichever thread does it. */
export function checkOne(
  fs: FileSystem,
  settings: RunSettings,
  setup: Pick<CheckThreadSetup, 'withFixes' | 'withHash' | 'home'>,
  found: FoundSkill,
): CheckedSkill {
  const analysis = analyzeSkill(fs, found.file, settings.analyzeOptions(found.file));
  const report = reportSkill(found, analysis, setup.withFixes, setup.withHash ? fs : undefined);
  if (!analysis.syntax) return { report };
  return { report, librarySkill: librarySkillOf(fs, analysis.file, analysis.source, analysis.syntax, setup.home) };
}

/** Analyses every skill and returns each one's report in the order given, large runs on several threads. */
export function checkSkills(entry: string, skills: FoundSkill[], options: CheckOptions): Promise<CheckedSkill[]> {
  const setup: CheckThreadSetup = {
    work: 'check',
    explicit: options.explicit,
    withFixes: options.withFixes,
    withHash: options.withHash,
    home: options.home,
  };
  return inBatches(skills, {
    entry,
    setup,
    jobs: options.jobs,
    here: (found) => checkOne(options.fs, options.settings, setup, found),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
