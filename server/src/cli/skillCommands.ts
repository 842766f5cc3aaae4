import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeSkill } from '../analyze';
import { CompileRefused, compileSkill } from '../compile/compileSkill';
import { resultLines, type CompileResult } from '../forms/compiled';
import { targetsFor } from '../compile/targets';
import { toGraphJson } from '../forms/graphJson';
import { toDot, toMermaid } from '../forms/graphText';
import { formatModelContext } from '../analysis/modelContext';
import { CONTEXT_FORMATS, formatOf } from '../formats';
import { NodeFileSystem } from '../workspace/fileSystem';
import type { Command } from './commandOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, skillFileOf } from './exits';
import { plural, printErr, printOut, shownPath } from './output';
import { countBySeverity, toReported } from './reporters/report';
import { formatText } from './reporters/text';
import { RunSettings } from '../config/runSettings';
import { WriteRefused } from './atomicWrite';
import { writePackage } from './writePackage';

// The commands about one skill: graph, context, compile.

export function runGraph(command: Extract<Command, { command: 'graph' }>): number {
  const fs = new NodeFileSystem();
  const found = skillFileOf(fs, command.path);
  if (!found) return EXIT_USAGE;
  // Paths in the output read as reached from the argument, like `check` prints them.
  const shown = (target: string) => path.join(found.shownDir, path.relative(path.dirname(found.file), target));
  const settings = new RunSettings(fs, {
    ...(command.profile ? { profile: command.profile } : {}),
    catalogs: command.catalog.map((root) => path.resolve(root)),
  });
  const graph = toGraphJson(analyzeSkill(fs, found.file, settings.analyzeOptions(found.file)), shown);
  const output =
    command.format === 'mermaid'
      ? toMermaid(graph)
      : command.format === 'dot'
        ? toDot(graph)
        : JSON.stringify(graph, null, 2) + '\n';
  printOut(output);
  return EXIT_CLEAN;
}

export function runContext(command: Extract<Command, { command: 'context' }>): number {
  const fs = new NodeFileSystem();
  const found = skillFileOf(fs, command.path);
  if (!found) return EXIT_USAGE;
  const analysis = analyzeSkill(fs, found.file);
  const runtime = formatOf(analysis).context;
  if (!runtime) {
    printErr(`skillgraph: ${command.path} is not a ${CONTEXT_FORMATS} (it reads as ${analysis.format})\n`);
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
  const context = runtime(analysis, {
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

export function runCompile(command: Extract<Command, { command: 'compile' }>): number {
  const fs = new NodeFileSystem();
  const found = skillFileOf(fs, command.path);
  if (!found) return EXIT_USAGE;
  const settings = new RunSettings(fs, {
    ...(command.profile ? { profile: command.profile } : {}),
    catalogs: command.catalog.map((root) => path.resolve(root)),
  });
  const analysis = analyzeSkill(fs, found.file, settings.analyzeOptions(found.file));
  const catalogRoots = settings.forSkill(found.file).catalogs;
  const target = targetsFor(analysis).find((candidate) => candidate.id === command.to);
  if (target && command.out === undefined && target.singleFile === undefined) {
    printErr(`skillgraph: --to ${command.to} makes a package of several files: give --out DIR\n`);
    return EXIT_USAGE;
  }
  // Printed, the result keeps the skill's own name; written, it takes its folder's.
  const outDir = command.out !== undefined ? path.resolve(command.out) : analysis.dir;
  let result: CompileResult;
  try {
    result = compileSkill(fs, analysis, command.to, outDir, catalogRoots, command.version);
  } catch (error) {
    if (!(error instanceof CompileRefused)) throw error;
    printErr(`skillgraph: ${command.path}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const lines = resultLines(result);
  const findings = result.diagnostics.map((item) =>
    toReported(item, shownPath(item.file), lines.of(item.file), result.texts.get(item.file) ?? ''),
  );
  printErr(formatText({ skills: [], diagnostics: findings }));
  const counts = countBySeverity(findings);
  if (counts.error > 0) {
    printErr(`skillgraph: ${plural(counts.error, 'error')}; nothing was written\n`);
    return EXIT_FINDINGS;
  }
  if (command.out === undefined) {
    printOut(result.files[0].content);
    return EXIT_CLEAN;
  }
  try {
    const written = writePackage(outDir, result.files, command.force);
    printErr(
      `skillgraph: wrote ${plural(written.length, 'file')} to ${command.out}${counts.warning > 0 ? ` (${counts.warning} to review, above)` : ''}\n`,
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
