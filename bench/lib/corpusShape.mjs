// The shape of a folder of skill collections, in numbers: per skill, the files by kind, their counts and sizes, and
// how the kinds go together. bench/lib/realShape.ts holds what this printed for the real-world corpus
// (../shared/realworld); run it again there to check them, or on a generated workspace to compare:
//   node bench/lib/corpusShape.mjs ../realworld
// It reads names and sizes only (no file's text), and follows no link.
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

const SKIPPED = new Set(['.git', 'node_modules', '__pycache__', '.venv', 'venv']);
const MARKDOWN = /\.(md|markdown|mdx|txt)$/i;
const CODE = /\.(sh|bash|zsh|fish|ps1|py|js|mjs|cjs|ts|rb|pl|php|lua|go|rs|bat|cmd)$/i;
const DATA = /\.(json|ya?ml|toml|ini|cfg|conf|env|xml|csv|html?)$/i;
/** A skill with this many .md files besides SKILL.md holds vendored docs. */
const VENDORED = 40;

const skillDirs = (dir) => {
  const entries = readdirSync(dir, { withFileTypes: true });
  const folders = entries.filter((e) => e.isDirectory() && !SKIPPED.has(e.name));
  const below = folders.flatMap((e) => skillDirs(path.join(dir, e.name)));
  return entries.some((e) => e.isFile() && e.name === 'SKILL.md') ? [dir, ...below] : below;
};

const kindOf = (rel) => {
  const top = rel.split('/')[0];
  if (rel === 'SKILL.md') return 'skill';
  if (MARKDOWN.test(rel)) return top === 'references' ? 'references' : 'markdown';
  if (CODE.test(rel) || (top === 'scripts' && !path.basename(rel).includes('.'))) return 'scripts';
  return DATA.test(rel) ? 'data' : 'assets';
};

/** The files of a skill (relative path, bytes), not those of a skill nested in it. */
const filesOf = (dir, skills, rel = '') =>
  readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    const own = !SKIPPED.has(e.name) && !skills.has(path.join(dir, child));
    if (e.isDirectory()) return own ? filesOf(dir, skills, child) : [];
    return e.isFile() ? [{ rel: child, bytes: statSync(path.join(dir, child)).size }] : [];
  });

const quantile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
};
const quantiles = (values, ps) => ps.map((p) => `p${p * 100} ${quantile(values, p)}`).join(', ');
const share = (part, whole) => (whole.length ? (part.length / whole.length).toFixed(3) : '-');

const dirs = skillDirs(path.resolve(process.argv[2]));
const all = new Set(dirs);
const skills = dirs.map((dir) => {
  const files = filesOf(dir, all).map((file) => ({ ...file, kind: kindOf(file.rel) }));
  return { files, markdown: files.filter((f) => MARKDOWN.test(f.rel) && f.rel !== 'SKILL.md') };
});
const sum = (values) => values.reduce((a, b) => a + b, 0);
const files = skills.map((s) => s.files.length);
const bytes = skills.map((s) => sum(s.files.map((f) => f.bytes)));
console.log(`${skills.length} skills, ${sum(files)} files, ${sum(bytes)} bytes`);
console.log(`files per skill: ${quantiles(files, [0.5, 0.9, 0.99])}, mean ${(sum(files) / skills.length).toFixed(2)}`);
console.log(`bytes per skill: ${quantiles(bytes, [0.5, 0.9, 0.99])}, mean ${Math.round(sum(bytes) / skills.length)}`);

const vendored = skills.filter((s) => s.markdown.length >= VENDORED);
const depths = vendored.flatMap((s) => s.markdown.map((f) => f.rel.split('/').length));
console.log(`vendored docs (>= ${VENDORED} .md besides SKILL.md): ${vendored.length} (${share(vendored, skills)});`,
  `.md files ${quantiles(vendored.map((s) => s.markdown.length), [0.5, 0.9, 1])};`,
  `depth ${quantiles(depths, [0.5, 0.9])}; bytes ${quantiles(vendored.flatMap((s) => s.markdown.map((f) => f.bytes)), [0.5, 0.9])}`); // prettier-ignore

const rest = skills.filter((s) => s.markdown.length < VENDORED);
const has = (s, kind) => s.files.some((f) => f.kind === kind);
const withReferences = rest.filter((s) => has(s, 'references'));
const without = rest.filter((s) => !has(s, 'references'));
console.log(
  `the other ${rest.length}: SKILL.md alone ${share(
    rest.filter((s) => s.files.length === 1),
    rest,
  )}`,
);
for (const kind of ['skill', 'references', 'markdown', 'scripts', 'data', 'assets']) {
  const counts = rest.map((s) => s.files.filter((f) => f.kind === kind).length).filter((n) => n > 0);
  const sizes = rest.flatMap((s) => s.files.filter((f) => f.kind === kind).map((f) => f.bytes));
  const given = (list) =>
    share(
      list.filter((s) => has(s, kind)),
      list,
    );
  console.log(`${kind}: share ${(counts.length / rest.length).toFixed(3)} (with references ${given(withReferences)},`,
    `without ${given(without)}); count ${quantiles(counts, [0.25, 0.5, 0.9, 0.99, 1])};`,
    `bytes ${quantiles(sizes, [0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1])}`); // prettier-ignore
}
const extensions = new Map();
for (const file of rest.flatMap((s) => s.files.filter((f) => f.kind !== 'skill')))
  extensions.set(path.extname(file.rel) || '(none)', (extensions.get(path.extname(file.rel) || '(none)') ?? 0) + 1);
console.log('extensions:', [...extensions].sort((a, b) => b[1] - a[1]).slice(0, 16).map(([e, n]) => `${e} ${n}`).join(', ')); // prettier-ignore
