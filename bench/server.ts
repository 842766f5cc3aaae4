import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { positionOf, startServer, type ServerSession } from '../test/support/lspClient';
import { writeAipSkill } from '../test/support/generate';
import { keystroke } from './lib/keystroke';
import { percentile, round, since, summarize, type Summary } from './lib/stats';

const EDITS = 120;
const REQUESTS = 120;
const SESSIONS = 3;

export interface ServerResult {
  steps: number;
  /** Sessions pooled in each summary. */
  sessions: number;
  editToDiagnosticsPush: Summary;
  /** Edits after the first EDITS, once V8 has compiled the per-edit paths. */
  editToDiagnosticsPushWarm: Summary;
  editToDiagnosticsPull: Summary;
  completion: Summary;
  completionAfterEdit: Summary;
  hover: Summary;
  definition: Summary;
  /** Edit → diagnostics p95 of each session alone. */
  p95PerSession: { push: number[]; pull: number[] };
}

export interface PeerLatency {
  tool: string;
  how: string;
  editToDiagnostics: Summary;
  /** Diagnostics after adding a key the schema forbids (shows the schema was applied). */
  diagnostics: number;
}

async function timeRequests(count: number, send: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await send();
    times.push(since(start));
  }
  return times;
}

/** Waits for the push of `version` without polling: a busy loop here would take a core from the server. */
async function waitForVersion(session: ServerSession, uri: string, version: number): Promise<void> {
  await session.waitForPush(uri, () => session.pushedVersions.get(uri) === version, 60000);
}

interface SessionTimes {
  push: number[];
  pushWarm: number[];
  pull: number[];
  completion: number[];
  completionAfterEdit: number[];
  hover: number[];
  definition: number[];
}

/** One round of measures, each on a freshly started server: what a user sees after opening the file. */
async function measureSession(skill: { dir: string; text: string }, uri: string): Promise<SessionTimes> {
  // Push: the server publishes after each change; the latency is change sent → diagnostics for that version.
  // The first EDITS edits after opening are the measure; EDITS more show the server once V8 has compiled its per-edit
  // code.
  const push = await startServer({ root: path.dirname(skill.dir) });
  // The first step's description: where the bench types (see `keystroke`).
  const at = positionOf(skill.text, 'and pass the result on', 0);
  await push.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'markdown', version: 1, text: skill.text },
  });
  await waitForVersion(push, uri, 1);
  const pushTimes: number[] = [];
  for (let round = 0; round < 2 * EDITS; round++) {
    const start = performance.now();
    await push.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: round + 2 },
      contentChanges: [keystroke(at, round)],
    });
    await waitForVersion(push, uri, round + 2);
    pushTimes.push(since(start));
  }
  await push.close();

  // Pull: VS Code's way; the latency is change sent → the document diagnostic report back.
  const pull = await startServer({ root: path.dirname(skill.dir), pull: true });
  await pull.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'markdown', version: 1, text: skill.text },
  });
  await pull.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  const pullTimes: number[] = [];
  const completionAfterEdit: number[] = [];
  const dependsOn = positionOf(skill.text, 'depends_on: [', 'depends_on: ['.length);
  // EDITS edits each followed by a pull, then EDITS / 2 each followed by a completion request.
  for (let round = 0; round < EDITS + EDITS / 2; round++) {
    const start = performance.now();
    await pull.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: round + 2 },
      contentChanges: [keystroke(at, round)],
    });
    if (round < EDITS) {
      await pull.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
      pullTimes.push(since(start));
    } else {
      await pull.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: dependsOn });
      completionAfterEdit.push(since(start));
    }
  }
  // An even number of keystrokes: the text is the first one again.
  const input = positionOf(skill.text, '    inputs:\n      - name: ', '    inputs:\n      - name: '.length + 2);
  const completion = await timeRequests(REQUESTS, () =>
    pull.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: dependsOn }),
  );
  const hover = await timeRequests(REQUESTS, () =>
    pull.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: input }),
  );
  const definition = await timeRequests(REQUESTS, () =>
    pull.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: input }),
  );
  await pull.close();
  return {
    push: pushTimes.slice(0, EDITS),
    pushWarm: pushTimes.slice(EDITS),
    pull: pullTimes,
    completion,
    completionAfterEdit,
    hover,
    definition,
  };
}

/**
 * Latencies through the real stdio server, for a generated procedure of
 * `steps` steps: SESSIONS sessions, their samples pooled. Each session starts
 * a new server, so each pool holds the same share of edits made while V8 is
 * still compiling; pooling only steadies the estimate on a noisy machine.
 */
export async function benchServer(root: string, steps: number): Promise<ServerResult> {
  const skill = writeAipSkill(path.join(root, 'server'), `procedure-${steps}`, steps);
  const uri = pathToFileURL(skill.file).href;
  const sessions: SessionTimes[] = [];
  for (let i = 0; i < SESSIONS; i++) sessions.push(await measureSession(skill, uri));
  const pooled = (key: keyof SessionTimes) => summarize(sessions.flatMap((session) => session[key]));
  return {
    steps,
    sessions: SESSIONS,
    editToDiagnosticsPush: pooled('push'),
    editToDiagnosticsPushWarm: pooled('pushWarm'),
    editToDiagnosticsPull: pooled('pull'),
    completion: pooled('completion'),
    completionAfterEdit: pooled('completionAfterEdit'),
    hover: pooled('hover'),
    definition: pooled('definition'),
    p95PerSession: {
      push: sessions.map((session) => round(percentile(session.push, 95))),
      pull: sessions.map((session) => round(percentile(session.pull, 95))),
    },
  };
}

/** yaml-language-server validating the same procedure (as a .yaml file) against the same JSON Schema. */
export async function benchYamlLanguageServer(
  root: string,
  steps: number,
  schemaFile: string,
  peerBin: string,
): Promise<PeerLatency> {
  const skill = writeAipSkill(path.join(root, 'yamlls'), `procedure-${steps}`, steps);
  const file = path.join(skill.dir, 'procedure.yaml');
  writeFileSync(file, skill.procedure);
  const uri = pathToFileURL(file).href;
  const schemaUri = pathToFileURL(schemaFile).href;
  const session = await startServer({
    root: skill.dir,
    command: [process.execPath, peerBin, '--stdio'],
    configurationSections: {
      yaml: { validate: true, schemas: { [schemaUri]: '*.yaml' }, schemaStore: { enable: false } },
      http: {},
      '[yaml]': {},
      editor: {},
    },
  });
  await session.connection.sendNotification('workspace/didChangeConfiguration', {
    settings: { yaml: { validate: true, schemas: { [schemaUri]: '*.yaml' }, schemaStore: { enable: false } } },
  });
  const at = positionOf(skill.procedure, 'and pass the result on', 0);
  await session.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: 1, text: skill.procedure },
  });
  await session.waitForPush(uri, () => true, 60000);
  const times: number[] = [];
  // yaml-language-server publishes without a version: wait for a push after each change.
  for (let round = 0; round < EDITS; round++) {
    session.pushed.delete(uri);
    const start = performance.now();
    await session.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: round + 2 },
      contentChanges: [keystroke(at, round)],
    });
    await session.waitForPush(uri, () => true, 60000);
    times.push(since(start));
  }
  // Proof that the schema is applied: a key the schema forbids must be reported (EDITS is even: the text is the first
  // one again).
  session.pushed.delete(uri);
  await session.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: EDITS + 2 },
    contentChanges: [{ text: `always_remember: x\n${skill.procedure}` }],
  });
  const diagnostics = (await session.waitForPush(uri, (items) => items.length > 0, 60000)).length;
  await session.close();
  return {
    tool: 'yaml-language-server',
    how: `node ${path.relative(process.cwd(), peerBin)} --stdio; yaml.schemas maps schemas/aip-0.3.procedure.schema.json to *.yaml; the procedure block saved as procedure.yaml; ${EDITS} single-character edits to a step description, each timed from didChange to the next publishDiagnostics`,
    editToDiagnostics: summarize(times),
    diagnostics,
  };
}
