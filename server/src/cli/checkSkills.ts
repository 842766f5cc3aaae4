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
  /** Each skill's content hash is reported (check --hash): reading every file of every skill is not free. */
  withHash: boolean;
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
  withHash: boolean;
}

/** One skill's report: the same work whichever thread does it. */
export function checkOne(
  fs: FileSystem,
  settings: RunSettings,
  setup: Pick<CheckThreadSetup, 'withFixes' | 'withHash'>,
  found: FoundSkill,
): SkillReport {
  const analysis = analyzeSkill(fs, found.file, settings.analyzeOptions(found.file));
  return reportSkill(found, analysis, setup.withFixes, setup.withHash ? fs : undefined);
}

/** Analyses every skill and returns each one's report in the order given, large runs on several threads. */
export function checkSkills(entry: string, skills: FoundSkill[], options: CheckOptions): Promise<SkillReport[]> {
  const setup: CheckThreadSetup = {
    work: 'check',
    explicit: options.explicit,
    withFixes: options.withFixes,
    withHash: options.withHash,
  };
  return inBatches(skills, {
    entry,
    setup,
    jobs: options.jobs,
    here: (found) => checkOne(options.fs, options.settings, setup, found),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
