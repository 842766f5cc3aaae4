import { analyzeSkill } from '../analyze';
import type { ExplicitSettings } from '../config/skillConfig';
import type { FoundSkill } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import { reportSkill, type SkillReport } from './reporters/report';
import type { RunSettings } from '../config/runSettings';
import { inBatches, type ThreadSetup } from './threadBatches';

export interface CheckOptions {
  /** The flags given (profile, strictness, catalogs): each thread reads the configurations under them itself. */
  explicit: ExplicitSettings;
  /** The settings of this thread's analyses (the caller's, whose configurations and catalogs are read already). */
  settings: RunSettings;
  /** Each finding's fix tier is reported (JSON). */
  withFixes: boolean;
  /** Threads to analyse on, this one included (see jobsFor). */
  jobs: number;
  /** The disk as this thread reads it (the caller's, so listings made while discovering serve the analyses). */
  fs: FileSystem;
  onProgress?: (done: number) => void;
}

/** What a check thread is set up with. */
export interface CheckThreadSetup extends ThreadSetup {
  work: 'check';
  explicit: ExplicitSettings;
  withFixes: boolean;
}

/** One skill's report: the same work whichever thread does it. */
export function checkOne(fs: FileSystem, settings: RunSettings, withFixes: boolean, found: FoundSkill): SkillReport {
  return reportSkill(found, analyzeSkill(fs, found.file, settings.analyzeOptions(found.file)), withFixes);
}

/** Analyses every skill and returns each one's report in the order given, large runs on several threads. */
export function checkSkills(entry: string, skills: FoundSkill[], options: CheckOptions): Promise<SkillReport[]> {
  const setup: CheckThreadSetup = { work: 'check', explicit: options.explicit, withFixes: options.withFixes };
  return inBatches(skills, {
    entry,
    setup,
    jobs: options.jobs,
    here: (found) => checkOne(options.fs, options.settings, options.withFixes, found),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
