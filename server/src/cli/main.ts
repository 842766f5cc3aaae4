import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeSkill } from '../analyze';
import { CompileRefused, compileSkill } from '../compile/compileSkill';
import { resultLines, SINGLE_FILE, targetsFor, type CompileResult } from '../compile/compiled';
import { toGraphJson } from '../compile/graphJson';
import { toDot, toMermaid } from '../compile/graphText';
import { formatModelContext, modelContext } from '../compile/modelContext';
import { discoverSkills } from '../workspace/discover';
import { ListingCache } from '../workspace/diskSnapshot';
import { NodeFileSystem } from '../workspace/fileSystem';
import { SkillCatalog } from '../workspace/skillCatalog';
import { parseArgs, USAGE, UsageError, type Command } from './args';
import { CHECK_THREAD_FLAG, checkSkills, jobsFor, serveCheckBatches } from './checkSkills';
import { assembleReport, countBySeverity, toReported } from './reporters/report';
import { WriteRefused, writePackage } from './writePackage';
import { formatGithub } from './reporters/github';
import { formatJson } from './reporters/json';
import { formatSarif } from './reporters/sarif';
import { formatText } from './reporters/text';
import { exitWith, printErr, printOut } from './output';
import { version } from '../../../package.json';

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_USAGE = 2;

/** Docs ship beside dist/ in the package: dist/cli-main.js → docs/rules. */
const DOCS_DIR = path.join(__dirname, '..', 'docs', 'rules');

async function runCheck(command: Extract<Command, { command: 'check' }>): Promise<number> {
  const fs = new ListingCache(new NodeFileSystem());
  const discovery = discoverSkills(fs, command.paths, process.cwd());
  for (const missing of discovery.missing) printErr(`skillgraph: ${missing}: no such file or folder\n`);
  if (discovery.missing.length > 0) return EXIT_USAGE;
  for (const file of discovery.outside)
    printErr(`skillgraph: ${file} is not part of a skill (no SKILL.md in its folder or above); skipped\n`);
  // A hook passes whatever changed: files of no skill alone are nothing to check, not a mistake.
  if (
    discovery.skills.length === 0 &&
    discovery.misnamed.length === 0 &&
    discovery.outside.length === command.paths.length
  )
    return EXIT_CLEAN;
  if (discovery.skills.length === 0 && discovery.misnamed.length === 0) {
    printErr(`skillgraph: no SKILL.md found under ${command.paths.join(', ')}\n`);
    return EXIT_USAGE;
  }
  // The count first: asking whether stderr is a terminal loads its stream (see output.ts).
  const progress = discovery.skills.length > 20 && process.stderr.isTTY;
  const total = discovery.skills.length;
  const jobs = jobsFor(total, command.jobs);
  const parts = await checkSkills(__filename, discovery.skills, {
    profile: command.profile,
    catalogRoots: command.catalog.map((root) => path.resolve(root)),
    jobs,
    fs,
    ...(progress ? { onProgress: (done: number) => printErr(`\rskillgraph: checked ${done}/${total} skills…`) } : {}),
  });
  if (progress) printErr('\r\x1b[K');

  const report = assembleReport(parts, discovery.misnamed);
  const output =
    command.format === 'json'
      ? formatJson(report)
      : command.format === 'sarif'
        ? formatSarif(report, { version, docsDir: DOCS_DIR })
        : command.format === 'github'
          ? formatGithub(report)
          : formatText(report);
  printOut(output);
  const counts = countBySeverity(report.diagnostics);
  if (command.format === 'text') {
    printErr(
      `${report.skills.length} skill${report.skills.length === 1 ? '' : 's'} checked${jobs > 1 ? ` on ${jobs} threads` : ''}: ${counts.error} errors, ${counts.warning} warnings, ${counts.information + counts.hint} notes\n`,
    );
  }
  if (counts.error > 0) return EXIT_FINDINGS;
  if (command.maxWarnings !== undefined && counts.warning > command.maxWarnings) {
    printErr(`skillgraph: ${counts.warning} warnings, more than --max-warnings ${command.maxWarnings}\n`);
    return EXIT_FINDINGS;
  }
  return EXIT_CLEAN;
}

/** The SKILL.md a folder or file argument names, or undefined (reported) when there is none. */
function skillFileOf(fs: NodeFileSystem, argument: string): { file: string; shownDir: string } | undefined {
  const absolute = path.resolve(argument);
  const real = fs.realpath(absolute);
  const isFile = real !== undefined && fs.stat(real)?.kind === 'file';
  const file = isFile ? absolute : path.join(absolute, 'SKILL.md');
  if (!fs.stat(file)) {
    printErr(`skillgraph: ${argument}: no SKILL.md there\n`);
    return undefined;
  }
  return { file, shownDir: isFile ? path.dirname(argument) : argument };
}

function runGraph(command: Extract<Command, { command: 'graph' }>): number {
  const fs = new NodeFileSystem();
  const found = skillFileOf(fs, command.path);
  if (!found) return EXIT_USAGE;
  // Paths in the output read as reached from the argument, like `check` prints them.
  const shown = (target: string) => path.join(found.shownDir, path.relative(path.dirname(found.file), target));
  const catalog = new SkillCatalog(
    fs,
    command.catalog.map((root) => path.resolve(root)),
  );
  const graph = toGraphJson(analyzeSkill(fs, found.file, { profile: command.profile, catalog }), shown);
  const output =
    command.format === 'mermaid'
      ? toMermaid(graph)
      : command.format === 'dot'
        ? toDot(graph)
        : JSON.stringify(graph, null, 2) + '\n';
  printOut(output);
  return EXIT_CLEAN;
}

function runContext(command: Extract<Command, { command: 'context' }>): number {
  const fs = new NodeFileSystem();
  const found = skillFileOf(fs, command.path);
  if (!found) return EXIT_USAGE;
  const analysis = analyzeSkill(fs, found.file);
  if (!analysis.skillplus) {
    printErr(`skillgraph: ${command.path} is not a skill+ package (it reads as ${analysis.format})\n`);
    return EXIT_USAGE;
  }
  let state: Record<string, unknown> | undefined;
  if (command.state) {
    const read = readStateFile(command.state);
    if (typeof read === 'string') {
      printErr(`skillgraph: ${read}\n`);
      return EXIT_USAGE;
    }
    state = read;
  }
  const brief = analysis.syntax ? analysis.text.slice(analysis.syntax.body.start, analysis.syntax.body.end) : '';
  const context = modelContext(analysis.skillplus, brief, analysis.name ?? path.basename(analysis.dir), {
    node: command.at,
    ...(state ? { state } : {}),
    ...(command.event ? { event: command.event } : {}),
    ...(command.round ? { round: command.round } : {}),
    ...(command.tool ? { tool: command.tool } : {}),
  });
  if ('error' in context) {
    printErr(`skillgraph: ${context.error}\n`);
    return EXIT_USAGE;
  }
  printOut(command.format === 'json' ? JSON.stringify(context, null, 2) + '\n' : formatModelContext(context));
  return EXIT_CLEAN;
}

function runCompile(command: Extract<Command, { command: 'compile' }>): number {
  const fs = new NodeFileSystem();
  const found = skillFileOf(fs, command.path);
  if (!found) return EXIT_USAGE;
  const catalogRoots = command.catalog.map((root) => path.resolve(root));
  const analysis = analyzeSkill(fs, found.file, {
    profile: command.profile,
    catalog: new SkillCatalog(fs, catalogRoots),
  });
  if (
    targetsFor(analysis.format).includes(command.to) &&
    command.out === undefined &&
    SINGLE_FILE[command.to] === undefined
  ) {
    printErr(`skillgraph: --to ${command.to} makes a package of several files: give --out DIR\n`);
    return EXIT_USAGE;
  }
  // Printed, the result keeps the skill's own name; written, it takes its folder's.
  const outDir = command.out !== undefined ? path.resolve(command.out) : analysis.dir;
  let result: CompileResult;
  try {
    result = compileSkill(fs, analysis, command.to, outDir, catalogRoots);
  } catch (error) {
    if (!(error instanceof CompileRefused)) throw error;
    printErr(`skillgraph: ${command.path}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const lines = resultLines(result);
  const findings = result.diagnostics.map((item) =>
    toReported(item, path.relative(process.cwd(), item.file) || item.file, lines.of(item.file)),
  );
  printErr(formatText({ skills: [], diagnostics: findings }));
  const counts = countBySeverity(findings);
  if (counts.error > 0) {
    printErr(`skillgraph: ${counts.error} error${counts.error === 1 ? '' : 's'}; nothing was written\n`);
    return EXIT_FINDINGS;
  }
  if (command.out === undefined) {
    printOut(result.files[0].content);
    return EXIT_CLEAN;
  }
  try {
    const written = writePackage(outDir, result.files, command.force);
    printErr(
      `skillgraph: wrote ${written.length} file${written.length === 1 ? '' : 's'} to ${command.out}${counts.warning > 0 ? ` (${counts.warning} to review, above)` : ''}\n`,
    );
    return EXIT_CLEAN;
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

/** A State given as JSON: an object, or a message saying why not. */
function readStateFile(file: string): Record<string, unknown> | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `${file}: cannot be read`;
  }
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : `${file}: a State is a JSON object of field values`;
  } catch (error) {
    return `${file}: not JSON (${(error as Error).message})`;
  }
}

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      printErr(`skillgraph: ${error.message}\n\n${USAGE}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  switch (command.command) {
    case 'help':
      printOut(`${USAGE}\n`);
      return EXIT_CLEAN;
    case 'version':
      printOut(`${version}\n`);
      return EXIT_CLEAN;
    case 'check':
      return runCheck(command);
    case 'graph':
      return runGraph(command);
    case 'context':
      return runContext(command);
    case 'compile':
      return runCompile(command);
  }
}

function fail(error: unknown): void {
  printErr(`skillgraph: internal error: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = EXIT_USAGE;
}

// The same file runs the check threads a large run starts (they get the flag).
if (!process.argv.includes(CHECK_THREAD_FLAG)) {
  main(process.argv.slice(2)).then(exitWith, fail);
} else {
  serveCheckBatches();
}
