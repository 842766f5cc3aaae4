import * as path from 'node:path';
import { analyzeSkill } from '../analyze';
import { emptyGraph, toGraphJson } from '../forms/graphJson';
import { RunSettings } from '../config/runSettings';
import { changeView } from '../diff/changeView';
import { diffGraphs } from '../diff/graphDiff';
import type { GraphChanges, GraphJson, Refusal } from '../protocol';
import { GitTreeFileSystem, repositoryOf, revisionObject } from '../workspace/gitTreeFileSystem';

/** Trees and graphs kept: a preview compares with one revision at a time, so a few cover switching back and forth. */
const KEPT = 4;

/** A file larger than this at a revision is not shown (a diff editor of it would not be read either). */
const MAX_SHOWN_BYTES = 8 * 1024 * 1024;

/** Adds to a map that keeps only its KEPT newest entries. */
function keep<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  if (map.size > KEPT) map.delete(map.keys().next().value as K);
  return value;
}

/**
 * A skill as it was at a git revision, for the preview's changes since one. The revision's tree is read through git
 * (nothing is checked out) and analysed with that revision's configuration files; its graph is kept per commit, skill
 * and settings, so an edit re-analyses only the open side.
 */
export class Revisions {
  private readonly trees = new Map<string, GitTreeFileSystem | undefined>();
  private readonly graphs = new Map<string, GraphJson | null>();

  private tree(root: string, commit: string): GitTreeFileSystem | undefined {
    const key = `${root}\0${commit}`;
    return this.trees.has(key) ? this.trees.get(key) : keep(this.trees, key, GitTreeFileSystem.at(root, commit));
  }

  /** Where `skillFile`'s repository is and what `revision` names in it, or why not. */
  private locate(skillFile: string, revision: string): { root: string; commit: string } | Refusal {
    const root = repositoryOf(path.dirname(skillFile));
    if (!root) return { error: `${path.basename(path.dirname(skillFile))} is not in a git repository` };
    const commit = revisionObject(root, revision)?.object;
    return commit ? { root, commit } : { error: `${revision} is not a revision of the repository at ${root}` };
  }

  /**
   * The change from `revision` to `after` (the skill as the editor has it now), to draw. `settingsKey` differs whenever
   * the editor's settings do, so a graph analysed under other settings is not reused.
   */
  changes(
    after: GraphJson,
    revision: string,
    explicit: ConstructorParameters<typeof RunSettings>[1],
    settingsKey: string,
  ): GraphChanges | Refusal {
    const skillFile = after.skill.file;
    const where = this.locate(skillFile, revision);
    if ('error' in where) return where;
    const key = `${where.root}\0${where.commit}\0${skillFile}\0${settingsKey}`;
    let before = this.graphs.get(key);
    if (before === undefined) {
      const tree = this.tree(where.root, where.commit);
      if (!tree) return { error: `git could not read ${revision}` };
      const existed = tree.stat(skillFile)?.kind === 'file';
      const settings = new RunSettings(tree, explicit);
      before = keep(
        this.graphs,
        key,
        existed ? toGraphJson(analyzeSkill(tree, skillFile, settings.analyzeOptions(skillFile))) : null,
      );
    }
    const old = before ?? emptyGraph(after);
    return changeView(old, after, diffGraphs(old, after), {
      revision,
      commit: where.commit,
      existed: before !== null,
    });
  }

  /**
   * A file of a skill as it was at `revision` (the left side of a diff editor); empty where it did not exist. Only a
   * file in the folder of the skill (`skillFile`) is read.
   */
  fileAt(skillFile: string, file: string, revision: string): { text: string } | Refusal {
    const inside = path.relative(path.dirname(skillFile), file);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return { error: `${file} is not in the skill's folder` };
    const where = this.locate(file, revision);
    if ('error' in where) return where;
    const tree = this.tree(where.root, where.commit);
    if (!tree) return { error: `git could not read ${revision}` };
    const read = tree.readWithin(file, MAX_SHOWN_BYTES);
    if (read.kind === 'too_large') return { error: `${path.basename(file)} at ${revision} is too large to show` };
    return { text: read.kind === 'bytes' ? Buffer.from(read.bytes).toString('utf8') : '' };
  }
}
