import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { positionOf, startServer } from '../test/support/lspClient';
import { writeWorkspace } from '../test/support/generate';
import { libraryEngine, loadableStatements } from '../test/support/kuzu';
import { keystroke } from './lib/keystroke';
import { percentile, round, since, summarize, type Summary } from './lib/stats';
import { runNode } from './lib/run';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const RUNS = 3;
const EDITS = 60;
const LOAD_SKILLS = 1000;

export interface SkillLibraryResult {
  skills: number;
  /** `library --format json` and `check`, alternating, RUNS times each. */
  library: { median: number; runs: number[] };
  check: { median: number; runs: number[] };
  ratio: number;
  /** `library --format cypher`: its time, its statements and the rows (nodes and relationships) they MERGE. */
  cypher: { ms: number; statements: number; rows: number };
  /**
   * The Cypher of a LOAD_SKILLS-skill workspace run in Kùzu (WebAssembly, in memory), after its tables are declared:
   * its statements one after another, as cypher-shell runs a file. Kùzu takes milliseconds a row (most of it reading
   * the statement's text), so the whole 10,000-skill graph would take minutes, longer than a bench run can spend;
   * `projectedMs` scales the time measured here by the rows of the large export.
   */
  load: { skills: number; statements: number; rows: number; ms: number; skillsLoaded: number; projectedMs: number };
  /**
   * A SKILL.md opened in the server: its first diagnostics (its own findings; the library is read after them, between
   * messages), then the diagnostics published again once the library is read.
   */
  open: { ownMs: number; libraryMs: number };
  /** A keystroke in one skill's description → the server's diagnostics for it (library findings included). */
  edit: Summary;
  /**
   * An edit of one skill's description that makes (or ends) a collision with another open skill's → that skill's
   * diagnostics pushed with the finding made (or gone): a push-mode editor's other file.
   */
  otherEdit: Summary;
}

/**
 * The library of the 10,000-skill workspace: built against `check`, exported as Cypher and loaded, edited in the
 * server.
 */
export async function benchSkillLibrary(root: string, count = 10000): Promise<SkillLibraryResult> {
  const dir = path.join(root, `workspace-${count}`);
  if (!existsSync(dir)) writeWorkspace(dir, count);
  const libraryRuns: number[] = [];
  const checkRuns: number[] = [];
  let json = '';
  for (let run = 0; run < RUNS; run++) {
    const library = runNode(CLI, ['library', dir, '--format', 'json']);
    libraryRuns.push(library.ms);
    json = library.stdout;
    checkRuns.push(runNode(CLI, ['check', dir]).ms);
  }
  const median = (runs: number[]) => round(percentile(runs, 50));

  const exported = runNode(CLI, ['library', dir, '--format', 'cypher']);
  const statements = loadableStatements(exported.stdout);
  const smaller = path.join(root, `workspace-${LOAD_SKILLS}`);
  if (!existsSync(smaller)) writeWorkspace(smaller, LOAD_SKILLS);
  const loadable = loadableStatements(runNode(CLI, ['library', smaller, '--format', 'cypher']).stdout);
  const rows = rowsOf(json);
  const smallerRows = rowsOf(runNode(CLI, ['library', smaller, '--format', 'json']).stdout);
  const run = await libraryEngine();
  const loadStart = performance.now();
  for (const statement of loadable) run(statement);
  const loadMs = since(loadStart);
  const [{ loaded }] = run('MATCH (s:Skill) RETURN count(s) AS loaded');

  const { open, edit, otherEdit } = await benchLibraryEdits(dir);
  return {
    skills: count,
    library: { median: median(libraryRuns), runs: libraryRuns.map((ms) => round(ms)) },
    check: { median: median(checkRuns), runs: checkRuns.map((ms) => round(ms)) },
    ratio: round(median(libraryRuns) / median(checkRuns), 2),
    cypher: { ms: round(exported.ms), statements: statements.length, rows },
    load: {
      skills: LOAD_SKILLS,
      statements: loadable.length,
      rows: smallerRows,
      ms: round(loadMs),
      skillsLoaded: Number(loaded),
      projectedMs: round((loadMs * rows) / smallerRows),
    },
    open,
    edit,
    otherEdit,
  };
}

/** A description no generated skill has: made the first skill's too, it collides with the second's. */
const ALIKE = 'Reconciles quarterly ledger invoices against vendor purchase orders and flags mismatched totals.';
const OTHER_EDITS = 20;

/**
 * The library in the server (push diagnostics) on the workspace `dir`: a SKILL.md opened, keystrokes in its
 * description, then a second skill opened and the first's description made alike to its and back, each time timed
 * until the second's diagnostics are pushed with the finding made or gone.
 */
export async function benchLibraryEdits(dir: string): Promise<Pick<SkillLibraryResult, 'open' | 'edit' | 'otherEdit'>> {
  const file = path.join(dir, 'skill-00000', 'SKILL.md');
  const text = readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  const session = await startServer({ root: dir });
  const times: number[] = [];
  const otherTimes: number[] = [];
  let open: SkillLibraryResult['open'] | undefined;
  try {
    const openStart = performance.now();
    await session.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text },
    });
    await session.waitForPush(uri, () => session.pushedVersions.get(uri) === 1, 120000);
    const ownMs = since(openStart);
    // The keystrokes are timed with the library read: its findings are published again once it is.
    await session.waitForPush(uri, () => session.pushCounts.get(uri) === 2, 120000);
    open = { ownMs: round(ownMs), libraryMs: round(since(openStart)) };
    const at = positionOf(text, 'for benchmarks', 0);
    for (let round = 0; round < EDITS; round++) {
      const start = performance.now();
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: round + 2 },
        contentChanges: [keystroke(at, round)],
      });
      await session.waitForPush(uri, () => session.pushedVersions.get(uri) === round + 2, 60000);
      times.push(since(start));
    }
    // EDITS is even: the first skill's text is as it was opened.
    const otherFile = path.join(dir, 'skill-00001', 'SKILL.md');
    const otherUri = pathToFileURL(otherFile).href;
    await session.connection.sendNotification('textDocument/didOpen', {
      textDocument: {
        uri: otherUri,
        languageId: 'markdown',
        version: 1,
        text: readFileSync(otherFile, 'utf8').replace(/^description: .*$/m, `description: ${ALIKE}`),
      },
    });
    await session.waitForPush(otherUri, () => session.pushedVersions.get(otherUri) === 1, 60000);
    const line = text.split('\n').findIndex((candidate) => candidate.startsWith('description: '));
    const own = text.split('\n')[line].slice('description: '.length);
    const alikeIn = (items: { code?: string | number }[]) => items.some((item) => item.code === 'similar_descriptions');
    for (let round = 0; round < OTHER_EDITS; round++) {
      const alike = round % 2 === 0;
      const [from, to] = alike ? [own, ALIKE] : [ALIKE, own];
      const start = performance.now();
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: EDITS + 2 + round },
        contentChanges: [
          {
            range: { start: { line, character: 13 }, end: { line, character: 13 + from.length } },
            text: to,
          },
        ],
      });
      await session.waitForPush(otherUri, (items) => alikeIn(items) === alike, 60000);
      otherTimes.push(since(start));
    }
  } finally {
    await session.close();
  }
  return { open: open!, edit: summarize(times), otherEdit: summarize(otherTimes) };
}

/** The nodes and relationships of a library's graph, from its JSON export: the rows its Cypher MERGEs. */
function rowsOf(json: string): number {
  const graph = JSON.parse(json) as { nodes: unknown[]; relationships: unknown[] };
  return graph.nodes.length + graph.relationships.length;
}
