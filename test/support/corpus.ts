import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The shared corpus sits beside the checkout, in development and in CI. */
export const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus');

/** Every SKILL.md under `dir`, at any depth. */
export function skillFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return skillFilesUnder(full);
    return name === 'SKILL.md' ? [full] : [];
  });
}

/** Every SKILL.md of the corpus and of the project's examples. */
export function corpusAndExampleSkills(): string[] {
  return [...skillFilesUnder(CORPUS), ...skillFilesUnder(join(__dirname, '..', '..', 'examples'))];
}

/** The text of every file under `dir`, at any depth, by its path relative to `dir`. */
export function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return files;
}
