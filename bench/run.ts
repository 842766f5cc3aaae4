// `npm run bench`: measures Skillgraph and its peers on this machine and
// writes bench/RESULTS.md and bench/results.json. Not part of `npm test`.
// `npm run bench -- --only real-shaped` runs the real-shaped step alone (see realShapedOnly); `--only skill-library`
// the library step (skillLibraryOnly); `--only library-load` the library graph's export and load into Kùzu alone
// (libraryLoadOnly).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { benchAdoption } from './adoption';
import { benchSecurity } from './security';
import { benchRealShaped } from './realShaped';
import { benchLibraryLoad, benchSkillLibrary } from './skillLibrary';
import { benchAnalysis } from './analysis';
import { benchCatalog } from './catalog';
import { benchDiff } from './diff';
import { benchCheckScale, benchPeers, plainCorpus } from './check';
import { machine } from './lib/stats';
import { benchMetaskillEdits } from './metaskill';
import { benchPreview } from './preview';
import { benchEditScaling, benchSkillsRefLibrary, benchStartup, benchTyping } from './ratios';
import { benchServer, benchYamlLanguageServer } from './server';
import { benchSkillplus } from './skillplus';
import { renderResults, type Results } from './report';
import { loadShellGrammar } from '../server/src/parse/shell/shellGrammar';

const REPO = path.join(__dirname, '..');
const TMP = path.join(__dirname, 'tmp');
const PEERS = path.join(__dirname, '.peers');
const PEER_VERSIONS = ['yaml-language-server@2.0.0', 'claude-code-lint@0.5.0', 'skills-ref@0.1.5'];
const CORPUS = path.join(REPO, '..', 'shared', 'corpus');

function installPeers(): void {
  if (existsSync(path.join(PEERS, 'node_modules', 'skills-ref'))) return;
  mkdirSync(PEERS, { recursive: true });
  writeFileSync(path.join(PEERS, 'package.json'), '{"private": true}\n');
  console.log(`installing peers: ${PEER_VERSIONS.join(', ')}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...PEER_VERSIONS], {
    cwd: PEERS,
    stdio: 'inherit',
  });
}

const step = (name: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${name}`);
const REAL_SHAPED_STEP = 'security rules and skills-ref on 400 skills shaped like real collections';

/** Writes the results as JSON and as RESULTS.md. */
function writeResults(results: Results): void {
  writeFileSync(path.join(__dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(path.join(__dirname, 'RESULTS.md'), renderResults(results));
  step('wrote bench/RESULTS.md and bench/results.json');
}

/**
 * `--only real-shaped`: that step alone (the whole bench takes long on a busy machine), its numbers put into the last
 * whole run's results, which keep their date and machine.
 */
function realShapedOnly(): void {
  step(REAL_SHAPED_STEP);
  const realShaped = benchRealShaped(TMP, CORPUS, PEERS);
  const results = JSON.parse(readFileSync(path.join(__dirname, 'results.json'), 'utf8')) as Results;
  writeResults({ ...results, realShaped });
}

/** `--only library-load`: the library graph exported and loaded into Kùzu, put into the last whole run's results. */
async function libraryLoadOnly(): Promise<void> {
  step(LIBRARY_LOAD_STEP);
  const loads = await benchLibraryLoad(TMP);
  const results = JSON.parse(readFileSync(path.join(__dirname, 'results.json'), 'utf8')) as Results;
  writeResults({ ...results, skillLibrary: { ...results.skillLibrary, ...loads } });
}

const LIBRARY_LOAD_STEP = 'the library graph of 10,000 skills exported as CSV and as Cypher, loaded into Kùzu';
const SKILL_LIBRARY_STEP =
  'the library of 10,000 skills: built against check, exported as Cypher and loaded into Kùzu, edited in the server';

/** `--only skill-library`: the whole library step (against check, its loads, its edits), into the last results. */
async function skillLibraryOnly(): Promise<void> {
  step(SKILL_LIBRARY_STEP);
  const skillLibrary = await benchSkillLibrary(TMP);
  const results = JSON.parse(readFileSync(path.join(__dirname, 'results.json'), 'utf8')) as Results;
  writeResults({ ...results, skillLibrary });
}

const ONLY: Record<string, () => void | Promise<void>> = {
  'real-shaped': realShapedOnly,
  'library-load': libraryLoadOnly,
  'skill-library': skillLibraryOnly,
};

async function main(): Promise<void> {
  step('analysis against the bare YAML parse');
  const analysis = benchAnalysis(TMP);
  step('language server latencies (300 steps)');
  const server = await benchServer(TMP, 300);
  step('yaml-language-server on the same procedure');
  const yamlls = await benchYamlLanguageServer(
    TMP,
    300,
    path.join(REPO, 'schemas', 'aip-0.3.procedure.schema.json'),
    path.join(PEERS, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server'),
  );
  step('skillgraph check at 100, 1,000 and 10,000 skills');
  const scale = benchCheckScale(TMP);
  step('fix and check --baseline on 1,000 skills with fixable findings, against check');
  const adoption = benchAdoption(TMP);
  step('security rules on 1,000 skills, against check without them');
  const security = benchSecurity(TMP);
  step(REAL_SHAPED_STEP);
  const realShaped = benchRealShaped(TMP, CORPUS, PEERS);
  step(SKILL_LIBRARY_STEP);
  const skillLibrary = await benchSkillLibrary(TMP);
  step('MetaSkill catalog on 10,000 skills');
  const catalog = benchCatalog(TMP);
  step('plain corpora: skillgraph, skills-ref, claude-code-lint');
  const peers = [
    ...benchPeers(TMP, path.join(CORPUS, 'plain'), 'shared corpus plain/ (21 skills)', PEERS),
    ...benchPeers(TMP, plainCorpus(TMP, 300), 'generated plain (300 skills)', PEERS),
  ];
  step('skills-ref through its library, alternating with skillgraph check');
  const library = [
    benchSkillsRefLibrary(path.join(CORPUS, 'plain'), 'shared corpus plain/ (21 skills)', PEERS),
    benchSkillsRefLibrary(plainCorpus(TMP, 300), 'generated plain (300 skills)', PEERS),
  ];
  step('start-up: check of one skill against node -e 0');
  const startup = benchStartup();
  step('edit latency at 10, 300 and 1,000 steps in one server');
  const scaling = await benchEditScaling(TMP);
  step('typing into 1,000 steps, a keystroke every 60 ms');
  const typing = await benchTyping(TMP);
  step("MetaSkill: edit latency on the corpus's largest compositions");
  const metaskillEdits = await benchMetaskillEdits(CORPUS);
  step('graph preview: request to rendered graph');
  const preview = await benchPreview(TMP);
  step('skill+ package: 300 nodes, 50 tips and rules');
  const skillplus = await benchSkillplus(TMP);
  step('diff of two revisions of a 1,000-step procedure, against one analysis');
  const diff = benchDiff(TMP);
  const results: Results = {
    date: new Date().toISOString(),
    machine: machine(),
    analysis,
    server,
    yamlls,
    scale,
    adoption,
    security,
    realShaped,
    skillLibrary,
    catalog,
    peers,
    library,
    startup,
    scaling,
    typing,
    metaskillEdits,
    preview,
    skillplus,
    diff,
  };
  writeResults(results);
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
if (only !== undefined && !(only in ONLY)) {
  console.error(`--only: the steps that run alone are ${Object.keys(ONLY).join(', ')}, not ${only}`);
  process.exit(2);
}
// What the bench and the programs it starts put in the system's temporary folder (browser profiles, memory readings)
// goes under one folder of this run, removed at its end, as the test run does.
const runTmp = mkdtempSync(path.join(tmpdir(), 'sg-bench-'));
process.env.TMPDIR = runTmp;
const removeRunTmp = () => rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
const run = async () => {
  // The analyses this process runs (analysis, catalog, diff) read shell with the shell's grammar, as the CLI does.
  await loadShellGrammar();
  installPeers();
  mkdirSync(TMP, { recursive: true });
  if (only) await ONLY[only]();
  else await main();
};
run().then(removeRunTmp, (error) => {
  console.error(error);
  removeRunTmp();
  process.exit(1);
});
