import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { random } from '../../test/support/random';
import { CorpusPieces } from './corpusText';
import { planSkill, type PlannedFile } from './realShape';

/** What a real-shaped workspace holds, counted as it was written. */
export interface RealShapedWorkspace {
  dir: string;
  skills: number;
  files: number;
  bytes: number;
  /** Skills with references, with scripts, with vendored docs (40 or more .md files besides SKILL.md). */
  withReferences: number;
  withScripts: number;
  withVendoredDocs: number;
}

/** Skills per collection: real libraries keep their skills under a plugin's `skills/` folder. */
const PER_COLLECTION = 50;

/** How SKILL.md points at its files, as real ones do: a reference to read, a script to run, a page to look up. */
function pointer(file: PlannedFile): string {
  if (file.path.startsWith('scripts/'))
    return `- Run \`${file.kind === 'python' ? 'python3' : file.kind === 'shell' ? 'bash' : 'node'} ${file.path}\` when the step needs it.`; // prettier-ignore
  return `- Read [${path.basename(file.path, path.extname(file.path))}](${file.path}) for the details.`;
}

/** SKILL.md: frontmatter, what the skill is for, pointers to its first files, then sections to its drawn size. */
function skillFile(pieces: CorpusPieces, next: () => number, name: string, bytes: number, files: PlannedFile[]) {
  const head = [
    '---',
    `name: ${name}`,
    `description: Generated skill ${name}, shaped like the skills of real collections. Use when measuring checks.`,
    'license: MIT',
    '---',
    '',
    `# ${name}`,
    '',
    'Use this skill when the task below comes up.',
    '',
    ...files
      .filter((file) => !file.path.startsWith('assets/'))
      .slice(0, 8)
      .map(pointer),
    '',
    '',
  ].join('\n');
  return head + pieces.text(next, 'markdown', bytes - head.length, name).replace(/^# .*\n\n/, '');
}

/**
 * Writes `count` skills under `dir` in the proportions of the real-world corpus (bench/lib/realShape.ts), their texts
 * assembled from `corpus` (bench/lib/corpusText.ts); the same `seed` writes the same bytes.
 */
export function writeRealShapedWorkspace(dir: string, count: number, corpus: string, seed = 1): RealShapedWorkspace {
  const next = random(seed);
  const pieces = new CorpusPieces(corpus);
  const written: RealShapedWorkspace = {
    dir,
    skills: count,
    files: 0,
    bytes: 0,
    withReferences: 0,
    withScripts: 0,
    withVendoredDocs: 0,
  };
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    written.files++;
    written.bytes += Buffer.byteLength(content);
  };
  for (let index = 0; index < count; index++) {
    const name = `skill-${String(index).padStart(4, '0')}`;
    const skillDir = path.join(dir, `collection-${Math.floor(index / PER_COLLECTION)}`, 'skills', name);
    const plan = planSkill(next, index);
    write(path.join(skillDir, 'SKILL.md'), skillFile(pieces, next, name, plan.skillBytes, plan.files));
    for (const file of plan.files) {
      const target = path.join(skillDir, file.path);
      if (file.kind === 'tsv' || file.kind === 'mmd' || file.kind === 'png')
        write(target, pieces.asset(next, file.kind, file.bytes));
      else write(target, pieces.text(next, file.kind, file.bytes, `${name}/${file.path}`));
    }
    if (plan.files.some((file) => file.path.startsWith('references/'))) written.withReferences++;
    if (plan.files.some((file) => file.path.startsWith('scripts/'))) written.withScripts++;
    if (plan.files.filter((file) => file.path.endsWith('.md')).length >= 40) written.withVendoredDocs++;
  }
  return written;
}
