import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type {
  CompletionItem,
  CompletionList,
  Diagnostic,
  DocumentDiagnosticReport,
  Hover,
  InitializeResult,
  PublishDiagnosticsParams,
  TextEdit,
} from 'vscode-languageserver-protocol';

export const REPO = path.join(__dirname, '..', '..');
export const SERVER = path.join(REPO, 'dist', 'server.js');

/** A copy of `examples/` in a temporary folder, so tests may create and change files. */
export function copyExamples(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-lsp-'));
  cpSync(path.join(REPO, 'examples'), dir, { recursive: true });
  return dir;
}

export function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

export interface ServerSession {
  connection: MessageConnection;
  process: ChildProcess;
  initialize: InitializeResult;
  /** The last diagnostics pushed per URI. */
  pushed: Map<string, Diagnostic[]>;
  /** The document version the last push per URI was for. */
  pushedVersions: Map<string, number | undefined>;
  /** How many pushes there were per URI. */
  pushCounts: Map<string, number>;
  /** Messages the server logged (`window/logMessage`), with their type (1 = error). */
  logs: { type: number; message: string }[];
  /** Messages the server showed the user (`window/showMessage`), with their type (2 = warning). */
  shown: { type: number; message: string }[];
  /** The methods the server registered for (`client/registerCapability`). */
  registrations: string[];
  /** How many `workspace/diagnostic/refresh` requests the server sent. */
  refreshes: () => number;
  stderr: () => string;
  /** The first message the server logs that matches. */
  waitForLog(predicate: (message: string) => boolean, timeoutMs?: number): Promise<string>;
  waitForPush(
    uri: string,
    predicate?: (diagnostics: Diagnostic[]) => boolean,
    timeoutMs?: number,
  ): Promise<Diagnostic[]>;
  /** A request about a position in a document (definition, hover, completion, …). */
  requestAt<T>(method: string, uri: string, position: { line: number; character: number }, extra?: object): Promise<T>;
  /** A document's diagnostics, pulled (the server must have been started with `pull`). */
  pullDiagnostics(uri: string): Promise<Diagnostic[]>;
  open(file: string, text?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The server the tests of a file share, on `root`: started before them, closed after them with `root` removed. The
 * getter is read inside a test (the server starts in the `before` hook).
 */
export function sharedServer(root: string): () => ServerSession {
  let session: ServerSession | undefined;
  before(async () => {
    session = await startServer({ root });
  });
  after(async () => {
    await session?.close();
    rmSync(root, { recursive: true, force: true });
  });
  return () => session!;
}

/**
 * Starts the built server over stdio and speaks JSON-RPC to it, as an
 * editor does. `pull` decides whether the client announces pull diagnostics.
 */
export async function startServer(options: {
  root: string;
  pull?: boolean;
  initializationOptions?: unknown;
  /** Settings answered to `workspace/configuration`, by section (default section: `skillgraph`). */
  configuration?: unknown;
  configurationSections?: Record<string, unknown>;
  /** The client lets the server register for `workspace/didChangeConfiguration` (VS Code does; eglot does not). */
  configurationRegistration?: boolean;
  /** Another language server to start instead (benchmarks compare peers); default: the built Skillgraph server. */
  command?: string[];
  /** Variables set for the server besides this process's (a `HOME` of the test's own). */
  env?: Record<string, string>;
}): Promise<ServerSession> {
  const [program, ...args] = options.command ?? [process.execPath, SERVER, '--stdio'];
  const child = spawn(program, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const pushed = new Map<string, Diagnostic[]>();
  const pushedVersions = new Map<string, number | undefined>();
  const pushCounts = new Map<string, number>();
  const waiters: (() => void)[] = [];
  let refreshes = 0;
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    pushed.set(params.uri, params.diagnostics);
    pushedVersions.set(params.uri, params.version);
    pushCounts.set(params.uri, (pushCounts.get(params.uri) ?? 0) + 1);
    for (const wake of waiters.splice(0)) wake();
  });
  const logs: { type: number; message: string }[] = [];
  connection.onNotification('window/logMessage', (params: { type: number; message: string }) => {
    logs.push(params);
    for (const wake of waiters.splice(0)) wake();
  });
  const shown: { type: number; message: string }[] = [];
  connection.onNotification('window/showMessage', (params: { type: number; message: string }) => {
    shown.push(params);
    for (const wake of waiters.splice(0)) wake();
  });
  connection.onRequest('workspace/diagnostic/refresh', () => {
    refreshes++;
    for (const wake of waiters.splice(0)) wake();
    return null;
  });
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
    params.items.map((item) =>
      options.configurationSections
        ? (options.configurationSections[item.section ?? ''] ?? null)
        : (options.configuration ?? {}),
    ),
  );
  const registrations: string[] = [];
  connection.onRequest('client/registerCapability', (params: { registrations: { method: string }[] }) => {
    registrations.push(...params.registrations.map((registration) => registration.method));
    return null;
  });
  connection.listen();
  const initialize: InitializeResult = await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: uriOf(options.root),
    workspaceFolders: [{ uri: uriOf(options.root), name: 'root' }],
    capabilities: {
      workspace: {
        configuration: options.configuration !== undefined || options.configurationSections !== undefined,
        didChangeConfiguration: { dynamicRegistration: options.configurationRegistration ?? false },
        didChangeWatchedFiles: { dynamicRegistration: false },
        diagnostics: { refreshSupport: true },
      },
      textDocument: {
        ...(options.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
        publishDiagnostics: {},
        rename: { prepareSupport: true },
        completion: { completionItem: { snippetSupport: true } },
      },
    },
    initializationOptions: options.initializationOptions,
  });
  await connection.sendNotification('initialized', {});
  /** Until the server's next message, or a tenth of a second. */
  const nextMessage = () =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 100);
    });
  const session: ServerSession = {
    connection,
    process: child,
    initialize,
    pushed,
    pushedVersions,
    pushCounts,
    logs,
    shown,
    registrations,
    refreshes: () => refreshes,
    stderr: () => stderr,
    async waitForLog(predicate, timeoutMs = 10000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = logs.find((log) => predicate(log.message));
        if (found) return found.message;
        if (Date.now() > deadline) throw new Error(`no matching log; logged: ${JSON.stringify(logs)}`);
        await nextMessage();
      }
    },
    async waitForPush(uri, predicate = () => true, timeoutMs = 10000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = pushed.get(uri);
        if (current && predicate(current)) return current;
        if (Date.now() > deadline)
          throw new Error(`no matching diagnostics for ${uri}; last: ${JSON.stringify(current)}`);
        await nextMessage();
      }
    },
    requestAt(method, uri, position, extra = {}) {
      return connection.sendRequest(method, { textDocument: { uri }, position, ...extra });
    },
    async pullDiagnostics(uri) {
      const report: DocumentDiagnosticReport = await connection.sendRequest('textDocument/diagnostic', {
        textDocument: { uri },
      });
      return report.kind === 'full' ? report.items : [];
    },
    async open(file, text) {
      const { readFileSync } = await import('node:fs');
      const uri = uriOf(file);
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'markdown', version: 1, text: text ?? readFileSync(file, 'utf8') },
      });
      return uri;
    },
    async close() {
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      connection.dispose();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        child.once('exit', () => resolve());
        setTimeout(() => {
          child.kill();
          resolve();
        }, 2000);
      });
    },
  };
  return session;
}

/** The position of the n-th occurrence of `needle` in `text` (plus `shift` characters). */
export function positionOf(
  text: string,
  needle: string,
  shift = 0,
  occurrence = 1,
): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`"${needle}" not found`);
  }
  return positionAt(text, at + shift);
}

/** The position of `offset` in `text`. */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

/** The labels of a completion answer, in order. */
export function completionLabels(items: CompletionItem[] | CompletionList | null): string[] {
  return (items ? (Array.isArray(items) ? items : items.items) : []).map((item) => item.label);
}

/** The Markdown of a hover answer, or '' for none. */
export function hoverText(hover: Hover | null): string {
  return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
}

/** Applies LSP text edits to `text` (LF line breaks), as an editor would. */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (position: { line: number; character: number }) =>
    lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce(
      (result, edit) => result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end)),
      text,
    );
}
