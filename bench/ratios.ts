// Side-by-side measures reported as ratios of medians, each side alternating
// with the other in the same run so a busier moment of the machine weighs on
// both: the CLI on one skill against a bare `node -e 0`, every rule against
// skills-ref's library on the same plain skills, and edit latency in one
// server holding procedures of 10, 300 and 1,000 steps.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { EditorDocument } from '../server/src/service/editorDocument';
import { positionAt, startServer, type ServerSession } from '../test/support/lspClient';
import { writeAipSkill } from '../test/support/generate';
import { keystroke, type At } from './lib/keystroke';
import { runNode } from './lib/run';
import { percentile, round, summarize, since, type Summary } from './lib/stats';

const REPO = path.join(__dirname, '..');
const CLI = path.join(REPO, 'dist', 'cli.js');

export interface Alternated {
  /** What each side ran. */
  ours: string;
  theirs: string;
  oursMs: number[];
  theirsMs: number[];
  oursMedian: number;
  theirsMedian: number;
  /** Median of ours ÷ median of theirs. */
  ratio: number;
}

/** Runs two Node programs in turn, `rounds` times each (without the memory preload), and compares their medians. */
function alternate(rounds: number, ours: [string, string[]], theirs: [string, string[]]): Alternated {
  const oursMs: number[] = [];
  const theirsMs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    oursMs.push(round(runNode(ours[0], ours[1], { memory: false }).ms));
    theirsMs.push(round(runNode(theirs[0], theirs[1], { memory: false }).ms));
  }
  const show = ([script, args]: [string, string[]]) =>
    [
      'node',
      path.relative(REPO, script) || script,
      ...args.map((arg) => (path.isAbsolute(arg) ? path.relative(REPO, arg) : arg)),
    ].join(' ');
  const median = (values: number[]) => percentile(values, 50);
  return {
    ours: show(ours),
    theirs: show(theirs),
    oursMs,
    theirsMs,
    oursMedian: round(median(oursMs)),
    theirsMedian: round(median(theirsMs)),
    ratio: round(median(oursMs) / median(theirsMs)),
  };
}

/** `skillgraph check` on one skill (a plain one, an AIP one) against starting Node and doing nothing. */
export function benchStartup(): { plain: Alternated; aip: Alternated } {
  // runNode runs a script: `-e 0` goes through as node's own arguments.
  const bare: [string, string[]] = ['-e', ['0']];
  return {
    plain: alternate(21, [CLI, ['check', path.join(REPO, 'examples', 'release-notes')]], bare),
    aip: alternate(21, [CLI, ['check', path.join(REPO, 'examples', 'csv-report')]], bare),
  };
}

/** Every rule on a plain corpus against skills-ref validating the same skills through its library, in one process. */
export function benchSkillsRefLibrary(
  corpusDir: string,
  label: string,
  peers: string,
): Alternated & { corpus: string } {
  return {
    corpus: label,
    ...alternate(
      7,
      [CLI, ['check', corpusDir, '--format', 'json']],
      [path.join(__dirname, 'lib', 'skillsRefLibrary.mjs'), [peers, corpusDir]],
    ),
  };
}

export interface EditScaling {
  steps: number;
  /** SESSIONS sessions' samples pooled. */
  pull: Summary;
  /** Each session's p95 alone. */
  p95PerSession: number[];
  /**
   * The same keystrokes applied by the server's document (EditorDocument)
   * alone, in the bench's process, with no server and no analysis: what
   * taking the change costs before any analysis starts.
   */
  documentUpdate: Summary;
  /**
   * The same by vscode-languageserver-textdocument, which the server used before: it makes each edited text one new
   * flat string.
   */
  libraryUpdate: Summary;
}

const ROUNDS = 100;
/**
 * Servers started one after another, their samples pooled, as for the other latency rows (bench/server.ts): each
 * session holds the same share of first edits, and the p95 is no longer one session's sixth-slowest sample.
 */
const SESSIONS = 3;

/** Where the bench types in a generated procedure: the middle step's description, before "and pass the result on". */
function middleStep(text: string): At {
  return positionAt(text, text.indexOf('and pass the result on', Math.floor(text.length / 2)));
}

/** One keystroke (see `keystroke`), timed from didChange to its pulled diagnostics. */
async function timedKeystroke(
  session: ServerSession,
  doc: { uri: string; at: At; version: number },
  round: number,
): Promise<number> {
  const start = performance.now();
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri: doc.uri, version: ++doc.version },
    contentChanges: [keystroke(doc.at, round)],
  });
  await session.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
  return since(start);
}

/**
 * One server with three procedures open (10, 300 and 1,000 steps); a
 * character typed into, then removed from, a step description in the
 * middle of each, round-robin, each edit timed to its pulled diagnostics.
 * SESSIONS such servers, one after another.
 */
export async function benchEditScaling(root: string): Promise<EditScaling[]> {
  const skills = [10, 300, 1000].map((steps) => writeAipSkill(path.join(root, 'scaling'), `procedure-${steps}`, steps));
  const sessions: number[][][] = [];
  for (let index = 0; index < SESSIONS; index++) {
    const session = await startServer({ root: path.join(root, 'scaling'), pull: true });
    const open = skills.map((skill) => ({
      uri: pathToFileURL(skill.file).href,
      at: middleStep(skill.text),
      version: 1,
      times: [] as number[],
    }));
    for (const [at, doc] of open.entries()) {
      await session.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: doc.uri, languageId: 'markdown', version: 1, text: skills[at].text },
      });
      await session.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const doc of open) {
        doc.times.push(await timedKeystroke(session, doc, round));
      }
    }
    await session.close();
    sessions.push(open.map((doc) => doc.times));
  }
  return skills.map((skill, at) => ({
    steps: skill.steps,
    pull: summarize(sessions.flatMap((times) => times[at])),
    p95PerSession: sessions.map((times) => round(percentile(times[at], 95))),
    documentUpdate: documentUpdate(EditorDocument, skill.text, middleStep(skill.text), SESSIONS * ROUNDS),
    libraryUpdate: documentUpdate(TextDocument, skill.text, middleStep(skill.text), SESSIONS * ROUNDS),
  }));
}

/** What both documents offer: made from a text, updated by a change, read whole. */
interface DocumentKind<T extends { getText(): string }> {
  create(uri: string, languageId: string, version: number, text: string): T;
  update(document: T, changes: ReturnType<typeof keystroke>[], version: number): T;
}

/**
 * `rounds` keystrokes applied to `text` by one kind of document, as the
 * server's document manager applies each didChange, each timed alone. V8
 * cannot keep a string of over 128 KB in its ordinary heap pages, so a
 * document that makes each new text of a large procedure one flat string
 * makes a large object, mapped afresh, per keystroke.
 */
function documentUpdate<T extends { getText(): string }>(
  kind: DocumentKind<T>,
  text: string,
  at: At,
  rounds: number,
): Summary {
  let document = kind.create('file:///bench/SKILL.md', 'markdown', 1, text);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    document = kind.update(document, [keystroke(at, round)], round + 2);
    times.push(since(start));
  }
  // The keystrokes leave the text as it was (an even number of them): a check that they applied where the server's do.
  if (rounds % 2 !== 0 || document.getText() !== text)
    throw new Error('the document update bench did not leave the text as it found it');
  return summarize(times);
}

export interface Typing {
  steps: number;
  /** Milliseconds between keystrokes, and for how long they came. */
  everyMs: number;
  forMs: number;
  pull: Summary & { p99: number; max: number };
  /** The server's resident memory after the open and after the typing (MiB), where /proc tells it. */
  rssOpenMiB?: number;
  rssEndMiB?: number;
}

/** The server's resident set, from /proc (Linux); undefined elsewhere. */
function residentMiB(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? round(Number(kb[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Typing as a person types: one server, the 1,000-step procedure alone, a
 * keystroke every 60 ms for 15 s (the same edit as above), each timed to
 * its pulled diagnostics. Unlike the back-to-back rounds above, the server
 * idles between keystrokes and the typing outlasts the two seconds its view
 * of the skill folder is trusted for; its memory is read before and after.
 */
export async function benchTyping(root: string): Promise<Typing> {
  const everyMs = 60;
  const forMs = 15_000;
  const skill = writeAipSkill(path.join(root, 'typing'), 'procedure-1000', 1000);
  const session = await startServer({ root: path.join(root, 'typing'), pull: true });
  const doc = { uri: pathToFileURL(skill.file).href, at: middleStep(skill.text), version: 1 };
  await session.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: doc.uri, languageId: 'markdown', version: doc.version, text: skill.text },
  });
  await session.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
  const rssOpenMiB = residentMiB(session.process.pid);
  const times: number[] = [];
  const end = performance.now() + forMs;
  for (let round = 0; performance.now() < end; round++) {
    times.push(await timedKeystroke(session, doc, round));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  const rssEndMiB = residentMiB(session.process.pid);
  await session.close();
  return {
    steps: 1000,
    everyMs,
    forMs,
    pull: { ...summarize(times), p99: round(percentile(times, 99)), max: round(Math.max(...times)) },
    ...(rssOpenMiB !== undefined ? { rssOpenMiB } : {}),
    ...(rssEndMiB !== undefined ? { rssEndMiB } : {}),
  };
}
