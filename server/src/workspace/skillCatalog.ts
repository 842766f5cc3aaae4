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
const SIMPLE_LINE = /^(name|kind|description|entrypoint)[ \t]*:[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s"'|>&*!{[#%@`][^\n#]*?))?[ \t]*(?:#.*)?$/;
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
      return { name: found.name, file, ...(found.kind ? { kind: found.kind } : {}), entrypoint: false, ...(found.description ? { description: found.description } : {}) };
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
    entrypoint: typeof value.entrypoint === 'object' && value.entrypoint !== null && !Array.isArray(value.entrypoint) && Object.keys(value.entrypoint).length > 0,
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
  private readonly layers = new Map<string, Map<string, CatalogSkill>>();

  constructor(private readonly fs: FileSystem, private roots: string[] = []) {}

  setRoots(roots: string[]): void {
    this.roots = roots;
    this.layers.clear();
  }

  /** The catalog seen from a skill folder. */
  forSkill(skillDir: string): Map<string, CatalogSkill> {
    const merged = new Map<string, CatalogSkill>();
    for (const root of [...this.roots, path.dirname(skillDir)]) for (const [name, skill] of this.layer(root)) merged.set(name, skill);
    return merged;
  }

  /** Where the catalog of `skillDir` comes from, for messages. */
  describe(skillDir: string): string {
    const parent = `the skills beside it in ${path.basename(path.dirname(skillDir)) || path.dirname(skillDir)}/`;
    return this.roots.length > 0 ? `${parent} and under ${this.roots.length} catalog root${this.roots.length === 1 ? '' : 's'}` : parent;
  }

  /** Forgets what is known about `file` (or about everything), after the editor reports a change. */
  invalidate(file?: string): void {
    if (file === undefined) {
      this.entries.clear();
      this.layers.clear();
      return;
    }
    this.entries.delete(path.resolve(file));
    // A skill folder appearing or going changes the listing of the folder above it.
    const skillDir = path.basename(file) === 'SKILL.md' ? path.dirname(file) : file;
    this.layers.delete(path.dirname(path.resolve(skillDir)));
    this.layers.delete(path.resolve(skillDir));
  }

  /** The skills in the folders directly under `root`, by name. */
  private layer(root: string): Map<string, CatalogSkill> {
    const resolved = path.resolve(root);
    let skills = this.layers.get(resolved);
    if (skills) return skills;
    skills = new Map();
    const folders = this.fs
      .readDirectory(resolved)
      // A linked folder counts only while it stays inside the root, as OpenSquilla's loader requires.
      .filter((entry) => !entry.name.startsWith('.') && (entry.kind === 'directory' || (entry.kind === 'symlink' && isInside(this.fs, resolved, path.join(resolved, entry.name)))))
      .map((entry) => entry.name)
      .sort();
    for (const folder of folders) {
      const skill = this.entry(path.join(resolved, folder, 'SKILL.md'));
      if (skill) skills.set(skill.name, skill);
    }
    this.layers.set(resolved, skills);
    return skills;
  }

  private entry(file: string): CatalogSkill | undefined {
    const stat = this.fs.stat(file);
    if (!stat || stat.kind !== 'file') return undefined;
    const cached = this.entries.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size && stat.mtimeMs !== 0) return cached.skill;
    const read = readText(this.fs, file);
    const skill = read.kind === 'text' ? readCatalogSkill(file, read.text) : undefined;
    this.entries.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, skill });
    return skill;
  }
}
