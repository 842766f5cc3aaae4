// The precision of every rule on the real-world corpus (../shared/realworld): what share of a rule's findings its
// author would agree with, from a sample of them judged by reading each where it points. The judgements are kept in
// docs/precision/<code>.tsv (place, verdict, why), so the next change to a rule is judged against the same places.
//
//   node ../shared/realworld/census.mjs ../realworld --sample 0 --save CENSUS.json     (after npm run build)
//   tsx scripts/precision.ts sample CENSUS.json [--code CODE]... [--size 40]
//       prints, per rule, the findings to judge (every one when a rule has fewer than --size, else --size of them
//       spread over repositories, the same on every run), each with its verdict when it was judged before
//   tsx scripts/precision.ts report CENSUS.json --commit SHA
//       writes docs/precision.md: per rule, its findings on the corpus, the sample judged, how many were right
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { RULES } from '../server/src/rules';

const ROOT = path.join(__dirname, '..');
const JUDGED = path.join(ROOT, 'docs', 'precision');
const REPORT = path.join(ROOT, 'docs', 'precision.md');
/** Below this judged precision a rule is not stable: it becomes a preview until it can reach it. */
const STABLE_PRECISION = 0.95;
const SAMPLE_SIZE = 40;

/** One finding as census.mjs saves it. */
interface Finding {
  repo: string;
  file: string;
  line: number;
  column: number;
  code: string;
  severity: string;
  message: string;
}

/**
 * `artifact`: the finding comes from how the corpus was built, not from the skill as its repository holds it (a
 * symbolic link the build wrote as a file): it says nothing of the rule, and is left out of its precision.
 */
interface Judgement {
  verdict: 'right' | 'wrong' | 'artifact';
  why: string;
}

/** Where a finding is: what a judgement is keyed on (its message may change while it stays the same finding). */
const placeOf = (finding: Finding) => `${finding.repo}/${finding.file}:${finding.line}:${finding.column}`;

function judgementsOf(code: string): Map<string, Judgement> {
  const file = path.join(JUDGED, `${code}.tsv`);
  const judged = new Map<string, Judgement>();
  if (!existsSync(file)) return judged;
  for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
    const [place, verdict, why = ''] = line.split('\t');
    if (place && (verdict === 'right' || verdict === 'wrong' || verdict === 'artifact'))
      judged.set(place, { verdict, why });
  }
  return judged;
}

/** A stable order that does not follow the corpus's: FNV-1a of the place. */
function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value >>> 0;
}

/** Every finding when there are at most `size`, else `size` of them taken in turn from each repository. */
function sampleOf(findings: Finding[], size: number): Finding[] {
  if (findings.length <= size) return findings;
  const byRepo = new Map<string, Finding[]>();
  for (const finding of [...findings].sort((a, b) => hash(placeOf(a)) - hash(placeOf(b))))
    byRepo.set(finding.repo, [...(byRepo.get(finding.repo) ?? []), finding]);
  const queues = [...byRepo.values()];
  const picked: Finding[] = [];
  while (picked.length < size)
    for (const queue of queues) if (queue.length > 0 && picked.length < size) picked.push(queue.shift()!);
  return picked;
}

function byCode(findings: Finding[]): Map<string, Finding[]> {
  const grouped = new Map<string, Finding[]>();
  for (const finding of findings) grouped.set(finding.code, [...(grouped.get(finding.code) ?? []), finding]);
  return grouped;
}

function printSample(findings: Finding[], codes: string[], size: number): void {
  for (const [code, list] of byCode(findings)) {
    if (codes.length > 0 && !codes.includes(code)) continue;
    const judged = judgementsOf(code);
    const sample = sampleOf(list, size);
    console.log(`## ${code}: ${sample.length} of ${list.length}`);
    for (const finding of sample) {
      const known = judged.get(placeOf(finding));
      console.log(
        [placeOf(finding), known?.verdict ?? '', known?.why ?? '', finding.severity, finding.message].join('\t'),
      );
    }
  }
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

function writeReport(findings: Finding[], commit: string): void {
  const grouped = byCode(findings);
  const rows = RULES.map((rule) => {
    const list = grouped.get(rule.code) ?? [];
    const judged = judgementsOf(rule.code);
    const all = sampleOf(list, SAMPLE_SIZE).flatMap((finding) => judged.get(placeOf(finding)) ?? []);
    const verdicts = all.filter((item) => item.verdict !== 'artifact');
    const right = verdicts.filter((item) => item.verdict === 'right').length;
    const precision = verdicts.length > 0 ? percent(right / verdicts.length) : list.length > 0 ? 'not judged' : '—';
    const severities = [...new Set(list.map((finding) => finding.severity))].join(', ') || rule.severity;
    const artifacts = all.length - verdicts.length;
    return `| \`${rule.code}\` | ${severities} | ${rule.stability} | ${list.length} | ${verdicts.length} | ${right} | ${precision} | ${artifacts || ''} |`;
  });
  const judgedFiles = existsSync(JUDGED) ? readdirSync(JUDGED).filter((name) => name.endsWith('.tsv')).length : 0;
  const text = [
    '# Precision on public skills',
    '',
    `Written by \`tsx scripts/precision.ts report\` from a census of the real-world corpus (\`../shared/realworld\`,`,
    `preview rules on) at commit ${commit}: ${findings.length.toLocaleString('en')} findings. The judgements are in`,
    `[precision/](precision), a file per rule (${judgedFiles} rules), so the next change is judged at the same places.`,
    '',
    `Each rule with findings had a sample judged by reading each finding where it points: every finding when it has`,
    `fewer than ${SAMPLE_SIZE}, else ${SAMPLE_SIZE} spread over the repositories. A finding is right when the skill's`,
    `author, shown it, would agree and act on it. A stable rule must reach ${percent(STABLE_PRECISION)}, else it is a`,
    'preview (off unless asked for) until it does; an error must be right on every finding judged. A rule with no',
    'finding on the corpus has nothing to judge (—). A finding that comes from how the corpus was built rather than',
    'from the skill (a symbolic link the build did not keep) is an artifact: counted apart, and left out of the',
    'precision.',
    '',
    '| rule | severity on the corpus | stability | findings | judged | right | precision | artifacts |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(REPORT, text);
}

function main(argv: string[]): void {
  const [command, census, ...rest] = argv;
  const flag = (name: string) => rest.flatMap((arg, index) => (arg === name ? [rest[index + 1]] : []));
  if (!census || (command !== 'sample' && command !== 'report')) {
    console.error(
      'usage: tsx scripts/precision.ts sample|report CENSUS.json [--code CODE]... [--size N] [--commit SHA]',
    );
    process.exit(2);
  }
  const findings = JSON.parse(readFileSync(census, 'utf8')) as Finding[];
  if (command === 'sample') printSample(findings, flag('--code'), Number(flag('--size')[0] ?? SAMPLE_SIZE));
  else writeReport(findings, flag('--commit')[0] ?? 'unknown');
}

main(process.argv.slice(2));
