// What a skill of a real collection holds, in numbers, and a skill's plan drawn from them. The numbers were measured
// on the real-world corpus (3,262 skills in 12 public repositories, 20,343 files, 156 MB; see
// ../shared/realworld/README.md) by bench/lib/corpusShape.mjs, which counts files and bytes and copies no text. A
// skill is a folder with a SKILL.md; its files are all below it but those of a nested skill and of .git,
// node_modules, __pycache__ and virtual environments (the folders the security rules skip).
//
// Skills with vendored docs (40 or more .md files besides SKILL.md): 41 of 3,262 (1.3%), holding 74 .md files at the
// median (p90 340, at most 1,058), at a depth of 3 folders (p90 5), of 5,217 bytes at the median (p90 23,126).
// The other 3,221 skills, by kind of file (share of skills that have one; count in a skill that has one; bytes):
//
// | kind                                      | share | count p50 / p90 / p99 / max | bytes p10 / p50 / p90 / p99     |
// |-------------------------------------------|-------|-----------------------------|---------------------------------|
// | SKILL.md                                  | 1     | 1                           | 2,926 / 5,085 / 17,629 / 30,804 |
// | references/*.md                           | 0.435 | 4 / 4 / 22 / 36             | 801 / 5,156 / 9,542 / 34,688    |
// | other .md (templates/, top level, assets) | 0.385 | 1 / 2 / 4 / 28              | 501 / 1,762 / 5,636 / 18,444    |
// | scripts (.py 79%, .sh 10%, .ts 8%, .mjs)  | 0.343 | 1 / 1 / 6 / 111             | 1,363 / 5,888 / 12,161 / 30,946 |
// | data (.json 63%, .yaml 32%, .html)        | 0.088 | 1 / 2 / 8 / 28              | 322 / 576 / 1,900 / 52,680      |
// | assets (.tsv, .mmd, .png, ...)            | 0.039 | 1 / 3 / 16 / 16             | 41 / 172 / 3,429 / 239,044      |
//
// 52% of them are a SKILL.md alone: the kinds go together. Of the skills with references, 81% have other .md files,
// 78% scripts, 10% data and 6% assets; of those without, 5%, 1%, 8% and 3%.
// Per skill (all 3,262): 1 file at the median (p90 7, p99 73, mean 6.24), 6,543 bytes (p90 59,708, p99 450,021, mean
// 47,874); 400 skills drawn from these numbers hold about 2,500 files and 20 MB.

/** A distribution as points of its cumulative function: [probability, value], from 0 to 1, values increasing. */
type Quantiles = readonly (readonly [number, number])[];

/** Sizes at the points the measure prints (p10, p25, p50, p75, p90, p99), the smallest and largest around them. */
const bytes = (...values: number[]): Quantiles =>
  [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1].map((p, i) => [p, values[i]] as const);

const SKILL_BYTES = bytes(300, 2926, 3652, 5085, 12846, 17629, 30804, 86621);
const REFERENCE_COUNT: Quantiles = [[0, 1], [0.2, 3], [0.25, 4], [0.9, 4], [0.99, 22], [1, 36]]; // prettier-ignore
const REFERENCE_BYTES = bytes(100, 801, 2499, 5156, 7001, 9542, 34688, 79210);
const OTHER_MD_COUNT: Quantiles = [[0, 1], [0.8, 1], [0.9, 2], [0.99, 4], [1, 28]]; // prettier-ignore
const OTHER_MD_BYTES = bytes(100, 501, 647, 1762, 4092, 5636, 18444, 93838);
const SCRIPT_COUNT: Quantiles = [[0, 1], [0.9, 1], [0.99, 6], [1, 111]]; // prettier-ignore
const SCRIPT_BYTES = bytes(200, 1363, 3123, 5888, 9244, 12161, 30946, 1535945);
const DATA_COUNT: Quantiles = [[0, 1], [0.6, 1], [0.75, 2], [0.99, 8], [1, 28]]; // prettier-ignore
const DATA_BYTES = bytes(50, 322, 453, 576, 805, 1900, 52680, 168407);
const ASSET_COUNT: Quantiles = [[0, 1], [0.6, 1], [0.9, 3], [0.99, 16], [1, 16]]; // prettier-ignore
const ASSET_BYTES = bytes(20, 41, 53, 172, 301, 3429, 239044, 377375);
const VENDORED_COUNT: Quantiles = [[0, 40], [0.5, 74], [0.9, 340], [1, 1058]]; // prettier-ignore
const VENDORED_BYTES: Quantiles = [[0, 200], [0.5, 5217], [0.9, 23126], [1, 200000]]; // prettier-ignore
/** One skill in this many has vendored docs (41 of 3,262). */
export const VENDORED_EVERY = 80;

export type FileKind = 'reference' | 'markdown' | 'python' | 'shell' | 'typescript' | 'javascript' | 'json' | 'yaml';
export type AssetKind = 'tsv' | 'mmd' | 'png';

/** One file to write: where in the skill, what kind of text, how many bytes. */
export interface PlannedFile {
  path: string;
  kind: FileKind | AssetKind;
  bytes: number;
}

/** A skill's SKILL.md size and its other files. */
export interface SkillPlan {
  skillBytes: number;
  files: PlannedFile[];
}

/** The value of `quantiles` at probability `p`: linear between two points in the logarithm of the value. */
function valueAt(quantiles: Quantiles, p: number): number {
  for (let i = 1; i < quantiles.length; i++) {
    const [p1, v1] = quantiles[i];
    if (p > p1) continue;
    const [p0, v0] = quantiles[i - 1];
    const t = p1 === p0 ? 1 : (p - p0) / (p1 - p0);
    return Math.round(Math.exp(Math.log(v0) + t * (Math.log(v1) - Math.log(v0))));
  }
  return quantiles[quantiles.length - 1][1];
}

/** A value drawn from `quantiles` (sizes are log-normal, so linear in their logarithm between two points). */
const draw = (next: () => number, quantiles: Quantiles) => valueAt(quantiles, next());

/** One of `choices`, each as likely as its weight. */
function pick<T>(next: () => number, choices: readonly (readonly [T, number])[]): T {
  let left = next() * choices.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [choice, weight] of choices) if ((left -= weight) < 0) return choice;
  return choices[choices.length - 1][0];
}

const SCRIPT_KINDS = [['python', 80], ['shell', 10], ['typescript', 8], ['javascript', 2]] as const; // prettier-ignore
const SCRIPT_EXTENSIONS: Record<string, string> = { python: 'py', shell: 'sh', typescript: 'ts', javascript: 'mjs' };
const DATA_KINDS = [['json', 65], ['yaml', 35]] as const; // prettier-ignore
const ASSET_KINDS = [['tsv', 45], ['mmd', 35], ['png', 20]] as const; // prettier-ignore
const TOPICS = ['setup', 'editing', 'export', 'styling', 'api', 'concepts', 'guides', 'integrations', 'media', 'text'];
const OTHER_MD_FOLDERS = ['templates/', '', '', 'assets/', 'rules/'];

/** `count` files named by `name` (their index in the skill), each of a size drawn from `bytes`. */
function files(
  next: () => number,
  countOf: Quantiles,
  bytes: Quantiles,
  file: (index: number) => Omit<PlannedFile, 'bytes'>,
): PlannedFile[] {
  return Array.from({ length: draw(next, countOf) }, (_, index) => ({ ...file(index), bytes: draw(next, bytes) }));
}

/** The plan of the skill at `index` of a collection, drawn with `next`. */
export function planSkill(next: () => number, index: number): SkillPlan {
  const skillBytes = draw(next, SKILL_BYTES);
  if (index % VENDORED_EVERY === VENDORED_EVERY - 1) {
    // Vendored docs: a product's documentation copied in, topic folders two levels deep.
    // Their page counts spread over the distribution by the golden ratio rather than drawn: a few hundred skills hold
    // five such trees, and five draws from so wide a distribution moved the workspace's size by half.
    const spread = ((Math.floor(index / VENDORED_EVERY) + 0.5) * 0.618034) % 1;
    const pages = Array.from({ length: valueAt(VENDORED_COUNT, spread) }, (_, page) => ({
      path: `${TOPICS[page % TOPICS.length]}/part-${Math.floor(page / 30)}/page-${page}.md`,
      kind: 'markdown' as const,
      bytes: draw(next, VENDORED_BYTES),
    }));
    return { skillBytes, files: pages };
  }
  const planned: PlannedFile[] = [];
  const hasReferences = next() < 0.435;
  if (hasReferences)
    planned.push(...files(next, REFERENCE_COUNT, REFERENCE_BYTES, (n) => ({ path: `references/topic-${n}.md`, kind: 'reference' }))); // prettier-ignore
  if (next() < (hasReferences ? 0.814 : 0.054))
    planned.push(...files(next, OTHER_MD_COUNT, OTHER_MD_BYTES, (n) => ({ path: `${OTHER_MD_FOLDERS[n % 5]}notes-${n}.md`, kind: 'markdown' }))); // prettier-ignore
  if (next() < (hasReferences ? 0.776 : 0.01))
    planned.push(
      ...files(next, SCRIPT_COUNT, SCRIPT_BYTES, (n) => {
        const kind = pick(next, SCRIPT_KINDS);
        return { path: `scripts/tool_${n}.${SCRIPT_EXTENSIONS[kind]}`, kind };
      }),
    );
  if (next() < (hasReferences ? 0.103 : 0.076))
    planned.push(
      ...files(next, DATA_COUNT, DATA_BYTES, (n) => {
        const kind = pick(next, DATA_KINDS);
        return { path: `${n % 2 ? 'evals' : 'references'}/data-${n}.${kind}`, kind };
      }),
    );
  if (next() < (hasReferences ? 0.055 : 0.027))
    planned.push(
      ...files(next, ASSET_COUNT, ASSET_BYTES, (n) => {
        const kind = pick(next, ASSET_KINDS);
        return { path: `assets/asset-${n}.${kind}`, kind };
      }),
    );
  return { skillBytes, files: planned };
}
