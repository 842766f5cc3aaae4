import * as path from 'node:path';
import { RunSettings } from '../config/runSettings';
import { isEmptyDiff } from '../diff/graphDiff';
import { diffMarkdown } from '../diff/diffMarkdown';
import { diffText, type SkillDiff } from '../diff/diffReport';
import { diffRevisions, type Revision } from '../diff/revisionDiff';
import { sha256 } from '../workspace/sha256';
import { fileChanges, HASHED_BYTES, skillFiles, skillHash } from '../workspace/skillHash';
import { AnalysisFileSystem } from '../workspace/diskSnapshot';
import { discoverSkills } from '../workspace/discover';
import { NodeFileSystem, type FileSystem } from '../workspace/fileSystem';
import { GitTreeFileSystem, repositoryOf, revisionObject } from '../workspace/gitTreeFileSystem';
import type { Command } from './commandOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE } from './exits';
import { printErr, printOut } from './output';
import type { GraphJson } from '../protocol';

/** One side of the comparison: the files, and the folder that stands for the working folder in them. */
interface Side {
  label: string;
  fs: FileSystem;
  /** Where the paths asked for are found, and what skills' paths are shown relative to. */
  base: string;
}

class SideError extends Error {}

/**
 * A side named on the command line: a folder (a copy of the working folder), or a git revision of the repository
 * around the working folder, read without checking it out.
 */
function sideNamed(spec: string, cwd: string, repositoryAround: () => string | undefined): Side {
  const disk = new NodeFileSystem();
  const folder = path.resolve(cwd, spec);
  if (disk.stat(folder)?.kind === 'directory') return { label: spec, fs: disk, base: folder };
  const repository = repositoryAround();
  if (!repository) throw new SideError(`${spec}: neither a folder nor a git revision (not in a git repository)`);
  const revision = revisionObject(repository, spec);
  const tree = revision ? GitTreeFileSystem.at(repository, revision.object) : undefined;
  if (!tree) throw new SideError(`${spec}: neither a folder nor a git revision`);
  const label = revision?.unborn ? `${spec} (no commit yet)` : spec;
  return { label, fs: tree, base: path.join(repository, path.relative(repository, cwd)) };
}

/** The working tree: the folder the command runs in. */
function workingSide(cwd: string): Side {
  return { label: 'the working tree', fs: new NodeFileSystem(), base: cwd };
}

/**
 * Each skill under `paths` on one side that the side's configuration does not ignore (as `check` of that side would
 * see them), by its folder relative to the side's base; and the paths the side lacks. A git revision's skills are read
 * from git then, in one batch, not a git process per file.
 */
function skillsOf(
  side: Side,
  settings: RunSettings,
  paths: string[],
): { skills: Map<string, string>; missing: string[] } {
  const found = discoverSkills(side.fs, paths, side.base);
  const kept = found.skills.filter((skill) => !settings.forSkill(skill.file).ignored);
  if (side.fs instanceof GitTreeFileSystem) side.fs.readAheadUnder(kept.map((skill) => path.dirname(skill.file)));
  return {
    skills: new Map(kept.map((skill) => [path.relative(side.base, path.dirname(skill.file)) || '.', skill.file])),
    missing: found.missing,
  };
}

/** A line that may start a MetaSkill's `kind: meta` (or `meta_sop`): any top-level `kind` key. */
const KIND_LINE = /^kind[ \t]*:/m;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Whether a skill is certain to analyse alike on both sides, so that neither is analysed: the same bytes in every
 * file of its folder (no link, whose target could differ; none too large to hash), the same settings, and not a
 * MetaSkill (a composition reads the skills beside it, which may have changed). Nothing else reaches an analysis: it
 * reads no file outside the skill's folder. Most skills of a library are unchanged by a pull request: analysing each
 * twice made a diff of 600 skills cost twice their check.
 */
function sameOnBothSides(before: Side, after: Side, settings: [RunSettings, RunSettings], files: [string, string]) {
  const [oldFile, newFile] = files;
  // The SKILL.md first: the file a change to a skill most often touches, so most changed skills are told apart
  // without reading (and hashing) the rest of their folders, which could be hundreds of scripts.
  const [text, newText] = [before.fs.readWithin(oldFile, HASHED_BYTES), after.fs.readWithin(newFile, HASHED_BYTES)];
  if (text.kind !== 'bytes' || newText.kind !== 'bytes' || !Buffer.from(text.bytes).equals(newText.bytes)) return false;
  const [oldBytes, newBytes] = [
    skillFiles(before.fs, path.dirname(oldFile), sha256),
    skillFiles(after.fs, path.dirname(newFile), sha256),
  ];
  if (oldBytes.size !== newBytes.size) return false;
  for (const [file, digest] of oldBytes) if (!SHA256_HEX.test(digest) || newBytes.get(file) !== digest) return false;
  if (JSON.stringify(settings[0].forSkill(oldFile)) !== JSON.stringify(settings[1].forSkill(newFile))) return false;
  return !KIND_LINE.test(Buffer.from(text.bytes).toString('utf8'));
}

/** A side whose files are kept once read, for the comparison of one skill. */
function snapshotOf(side: Side): Side {
  return { ...side, fs: new AnalysisFileSystem(side.fs) };
}

/** The revision of a skill on one side, its paths shown relative to the side's base. */
function revisionOf(side: Side, settings: RunSettings, file: string | undefined): Revision | undefined {
  if (!file) return undefined;
  return {
    fs: side.fs,
    file,
    options: settings.analyzeOptions(file),
    shown: (target) => path.relative(side.base, target),
  };
}

export function runDiff(command: Extract<Command, { command: 'diff' }>): number {
  const cwd = process.cwd();
  // Asked of git only when a side is not a folder: two folders compare without a git process.
  let repository: { root: string | undefined } | undefined;
  const repositoryAround = () => (repository ??= { root: repositoryOf(cwd) }).root;
  let before: Side;
  let after: Side;
  try {
    if (command.sides.length === 0 && !repositoryAround())
      throw new SideError('not in a git repository: name the two folders to compare');
    before = sideNamed(command.sides[0] ?? 'HEAD', cwd, repositoryAround);
    after = command.sides.length > 1 ? sideNamed(command.sides[1], cwd, repositoryAround) : workingSide(cwd);
  } catch (error) {
    if (!(error instanceof SideError)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const explicit = {
    ...(command.profile ? { profile: command.profile } : {}),
    catalogs: command.catalog.map((root) => path.resolve(root)),
  };
  // One side's settings for all its skills, as check has one for its run: each catalog of skills is read once, not
  // once per skill compared (which made a diff of a library quadratic in its skills).
  const [beforeSettings, afterSettings] = [new RunSettings(before.fs, explicit), new RunSettings(after.fs, explicit)];
  const paths = command.paths.length > 0 ? command.paths : ['.'];
  const [{ skills: oldSkills, missing: oldLacks }, { skills: newSkills, missing: newLacks }] = [
    skillsOf(before, beforeSettings, paths),
    skillsOf(after, afterSettings, paths),
  ];
  // A path on one side only is a skill added or removed; on neither, a mistake (a typo would read as no change).
  const nowhere = oldLacks.filter((missing) => newLacks.includes(missing));
  for (const missing of nowhere) printErr(`skillgraph: ${missing}: no such file or folder on either side\n`);
  if (nowhere.length > 0) return EXIT_USAGE;
  const changed: { skill: SkillDiff; afterEdges: GraphJson['edges'] }[] = [];
  for (const dir of [...new Set([...oldSkills.keys(), ...newSkills.keys()])].sort()) {
    const oldFile = oldSkills.get(dir);
    const newFile = newSkills.get(dir);
    // Each side's files of the skill are read once: the comparison below, the analysis and the hashes share them (a
    // changed skill's SKILL.md was read three times, each of its scripts twice).
    const [oldSide, newSide] = [snapshotOf(before), snapshotOf(after)];
    if (oldFile && newFile && sameOnBothSides(oldSide, newSide, [beforeSettings, afterSettings], [oldFile, newFile]))
      continue;
    const {
      before: oldGraph,
      after: newGraph,
      diff,
    } = diffRevisions(revisionOf(oldSide, beforeSettings, oldFile), revisionOf(newSide, afterSettings, newFile));
    const oldFiles = oldFile ? skillFiles(oldSide.fs, path.dirname(oldFile)) : new Map<string, string>();
    const newFiles = newFile ? skillFiles(newSide.fs, path.dirname(newFile)) : new Map<string, string>();
    const files = fileChanges(oldFiles, newFiles);
    // A skill whose files changed is reported even when its graph did not: a script's new body is a change to review.
    const touched = files.added.length + files.removed.length + files.changed.length > 0;
    if (oldGraph && newGraph && isEmptyDiff(diff) && !touched) continue;
    changed.push({
      skill: {
        path: dir,
        ...(oldFile ? { hashBefore: skillHash(oldFiles) } : {}),
        ...(newFile ? { hashAfter: skillHash(newFiles) } : {}),
        files,
        diff,
      },
      afterEdges: newGraph?.edges ?? [],
    });
  }
  const skills = changed.map((item) => item.skill);
  if (command.format === 'json')
    printOut(`${JSON.stringify({ version: 1, before: before.label, after: after.label, skills }, null, 2)}\n`);
  else if (command.format === 'markdown') printOut(diffMarkdown(changed));
  else printOut(diffText(skills));
  return skills.some((skill) => skill.diff.introducesErrors) ? EXIT_FINDINGS : EXIT_CLEAN;
}

export function runHash(command: Extract<Command, { command: 'hash' }>): number {
  const fs = new NodeFileSystem();
  const cwd = process.cwd();
  const found = discoverSkills(fs, command.paths, cwd);
  for (const missing of found.missing) printErr(`skillgraph: ${missing}: no such file or folder\n`);
  const hashes = found.skills.map((skill) => ({
    path: path.dirname(skill.display) || '.',
    hash: skillHash(skillFiles(fs, path.dirname(skill.file))),
  }));
  printOut(
    command.format === 'json'
      ? `${JSON.stringify({ version: 1, skills: hashes }, null, 2)}\n`
      : hashes.map((item) => `${item.hash}  ${item.path}\n`).join(''),
  );
  return found.missing.length > 0 ? EXIT_USAGE : EXIT_CLEAN;
}
