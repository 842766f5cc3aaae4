import type { RunSettings } from '../config/runSettings';
import { discoverSkills, type FoundSkill } from '../workspace/discover';
import type { FileSystem } from '../workspace/fileSystem';
import { EXIT_CLEAN, EXIT_USAGE } from './exits';
import { printErr } from './output';

/** The skills a command acts on, or the exit status that ends it (what went wrong was printed). */
export type Selection = { skills: FoundSkill[]; misnamed: FoundSkill[]; ignored: number } | { exit: number };

/**
 * The skills under `paths` that their configuration does not ignore. A
 * path that does not exist ends the run; a file of no skill is skipped
 * (a hook passes whatever changed); a run that finds nothing to act on
 * says why.
 */
export function selectSkills(fs: FileSystem, settings: RunSettings, paths: string[]): Selection {
  const discovery = discoverSkills(fs, paths, process.cwd());
  for (const missing of discovery.missing) printErr(`skillgraph: ${missing}: no such file or folder\n`);
  if (discovery.missing.length > 0) return { exit: EXIT_USAGE };
  for (const file of discovery.outside)
    printErr(`skillgraph: ${file} is not part of a skill (no skill's SKILL.md in its folder or above); skipped\n`);
  // Files of no skill alone are nothing to do, not a mistake.
  if (discovery.skills.length === 0 && discovery.misnamed.length === 0 && discovery.outside.length === paths.length)
    return { exit: EXIT_CLEAN };
  // What a configuration file's `ignore` matches is left alone (an overlay, a template, a vendored skill).
  const kept = (found: FoundSkill) => !settings.forSkill(found.file).ignored;
  const skills = discovery.skills.filter(kept);
  const misnamed = discovery.misnamed.filter(kept);
  const ignored = discovery.skills.length + discovery.misnamed.length - skills.length - misnamed.length;
  if (skills.length === 0 && misnamed.length === 0) {
    if (ignored > 0) {
      printErr(`skillgraph: every skill found is ignored by its configuration file; nothing to check\n`);
      return { exit: EXIT_CLEAN };
    }
    printErr(`skillgraph: no SKILL.md found under ${paths.join(', ')}\n`);
    return { exit: EXIT_USAGE };
  }
  return { skills, misnamed, ignored };
}
