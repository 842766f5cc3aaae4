import * as path from 'node:path';
import { parseDocument } from 'yaml';
import type { FileSystem } from './fileSystem';
import { readText } from './readText';
import { isInside } from './skillPaths';

/** A skill a MetaSkill may compose, as OpenSquilla's catalog knows it: by its frontmatter `name`. */
export interface CatalogSkill {
  name: string;
  /** Absolute path of its SKILL.md. */
  file: string;
  /** Frontmatter `kind` (`meta`, `meta_sop`), when set. */
  kind?: string;
  /** It declares an `entrypoint` (a script the runtime runs as `skill_exec`). */
  entrypoint: boolean;
  description?: string;
}

interface CachedEntry {
  mtimeMs: number;
  size: number;
  skill: CatalogSkill | undefined;
}

/** OpenSquilla's frontmatter: from a first line `---` to the next line that is `---` at column 0. */
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/** A top-level key whose value is a plain word or a simply quoted string on its own line. */
const SIMPLE_LINE =
  /^(name|kind|description|entrypoint)[ \t]*:[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s"'|>&*!{[#%@`][^\n#]*?))?[ \t]*(?:#.*)?$/;
/** Anything that makes a line-by-line reading of the top-level keys unsafe: then the frontmatter is parsed. */
const NEEDS_PARSER = /^(?:name|kind|description)[ \t]*:[ \t]*(?:[|>&*!{[]|"[^"]*\\|'[^']*''|$)|^[{[&*!%]/m;

/**
 * Reads what the catalog needs from a SKILL.md: `name`, `kind`,
 * `entrypoint` and `description`. Most frontmatter states them on single
 * lines, read here without a YAML parse (a catalog of 10,000 skills is read
 * in one pass); anything less simple is parsed.
 */
export function readCatalogSkill(file: string, text: string): CatalogSkill | undefined {
  const match = FRONTMATTER.exec(text);
  if (!match) return undefined;
  const frontmatter = match[1];
  if (!NEEDS_PARSER.test(frontmatter)) {
    const found: Record<string, string | undefined> = {};
    let simple = true;
    for (const line of frontmatter.split('\n')) {
      if (!/^(name|kind|description|entrypoint)[ \t]*:/.test(line)) continue;
      const simpleLine = SIMPLE_LINE.exec(line.replace(/\r$/, ''));
      if (!simpleLine) {
        simple = false;
        break;
      }
      // A repeated key keeps its last value, as PyYAML reads it.
      found[simpleLine[1]] = simpleLine[2] ?? simpleLine[3]?.replace(/''/g, "'") ?? simpleLine[4];
    }
    if (simple && !/^entrypoint[ \t]*:/m.test(frontmatter)) {
      if (!found.name) return undefined;
      return {
        name: found.name,
        file,
        ...(found.kind ? { kind: found.kind } : {}),
        entrypoint: false,
        ...(found.description ? { description: found.description } : {}),
      };
    }
  }
  const doc = parseDocument(frontmatter, { uniqueKeys: false, version: '1.1' });
  if (doc.errors.length > 0) return undefined;
  const value = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown> | null;
  if (!value || typeof value !== 'object' || typeof value.name !== 'string' || value.name === '') return undefined;
  return {
    name: value.name,
    file,
    ...(typeof value.kind === 'string' ? { kind: value.kind } : {}),
    entrypoint:
      typeof value.entrypoint === 'object' &&
      value.entrypoint !== null &&
      !Array.isArray(value.entrypoint) &&
      Object.keys(value.entrypoint).length > 0,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
  };
}

/**
 * The skills a MetaSkill may compose, keyed by frontmatter `name`: the
 * skills in the folders beside the MetaSkill's own (OpenSquilla keeps a
 * catalog as one folder of skill folders), after the skills under the
 * configured roots (later layers win, as in OpenSquilla). Each SKILL.md is
 * read once and again only when its size or time changes, so a re-check
 * after one skill changed costs a listing and a stat per skill.
 */
export class SkillCatalog {
  private readonly entries = new Map<string, CachedEntry>();
  /** Per root: its skill folders' SKILL.md paths, and the skills by name. */
  private readonly layers = new Map<string, { files: string[]; skills: Map<string, CatalogSkill> }>();

  constructor(
    private readonly fs: FileSystem,
    private roots: string[] = [],
  ) {}

  setRoots(roots: string[]): void {
    this.roots = roots;
    this.layers.clear();
  }

  /** The catalog seen from a skill folder. */
  forSkill(skillDir: string): Map<string, CatalogSkill> {
    const merged = new Map<string, CatalogSkill>();
    for (const root of [...this.roots, path.dirname(skillDir)])
      for (const [name, skill] of this.layer(root)) merged.set(name, skill);
    return merged;
  }

  /** Where the catalog of `skillDir` comes from, for messages. */
  describe(skillDir: string): string {
    const parent = `the skills beside it in ${path.basename(path.dirname(skillDir)) || path.dirname(skillDir)}/`;
    return this.roots.length > 0
      ? `${parent} and under ${this.roots.length} catalog root${this.roots.length === 1 ? '' : 's'}`
      : parent;
  }

  /**
   * Forgets what is known about `file` (or about everything), after the
   * editor reports a change. A SKILL.md changed in place is read again
   * alone; anything created or deleted lists its folder again.
   */
  invalidate(file?: string, change: 'changed' | 'created' | 'deleted' = 'deleted'): void {
    if (file === undefined) {
      this.entries.clear();
      this.layers.clear();
      return;
    }
    const resolved = path.resolve(file);
    this.entries.delete(resolved);
    const skillDir = path.basename(resolved) === 'SKILL.md' ? path.dirname(resolved) : resolved;
    const root = path.dirname(skillDir);
    const layer = this.layers.get(root);
    if (change === 'changed' && layer && layer.files.includes(resolved)) {
      // The same folders: the names are rebuilt from what is known, with only this file read again.
      layer.skills = this.skillsOf(layer.files, resolved);
      return;
    }
    // A skill folder appearing or going changes the listing of the folder above it.
    this.layers.delete(root);
    this.layers.delete(skillDir);
  }

  /** The skills in the folders directly under `root`, by name. */
  private layer(root: string): Map<string, CatalogSkill> {
    const resolved = path.resolve(root);
    const known = this.layers.get(resolved);
    if (known) return known.skills;
    const files = this.fs
      .readDirectory(resolved)
      // A linked folder counts only while it stays inside the root, as OpenSquilla's loader requires.
      .filter(
        (entry) =>
          !entry.name.startsWith('.') &&
          (entry.kind === 'directory' ||
            (entry.kind === 'symlink' && isInside(this.fs, resolved, path.join(resolved, entry.name)))),
      )
      .map((entry) => path.join(resolved, entry.name, 'SKILL.md'))
      .sort();
    const skills = this.skillsOf(files);
    this.layers.set(resolved, { files, skills });
    return skills;
  }

  /** The skills of these SKILL.md files by name (later names win); known entries are trusted, except `fresh`. */
  private skillsOf(files: string[], fresh?: string): Map<string, CatalogSkill> {
    const skills = new Map<string, CatalogSkill>();
    for (const file of files) {
      const known = file === fresh ? undefined : this.entries.get(file);
      const skill = known && fresh !== undefined ? known.skill : this.entry(file);
      if (skill) skills.set(skill.name, skill);
    }
    return skills;
  }

  private entry(file: string): CatalogSkill | undefined {
    const stat = this.fs.stat(file);
    if (!stat || stat.kind !== 'file') {
      this.entries.set(file, { mtimeMs: -1, size: -1, skill: undefined });
      return undefined;
    }
    const cached = this.entries.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size && stat.mtimeMs !== 0)
      return cached.skill;
    const read = readText(this.fs, file);
    const skill = read.kind === 'text' ? readCatalogSkill(file, read.text) : undefined;
    this.entries.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, skill });
    return skill;
  }
}
