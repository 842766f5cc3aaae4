import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createConnection,
  DidChangeConfigurationNotification,
  DocumentDiagnosticReportKind,
  FileChangeType,
  MessageType,
  ProposedFeatures,
  ResponseError,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
  CodeActionKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { RenameError } from './document/renameError';
import { FIX_ALL_KIND, SETTINGS_SECTION } from './protocol';
import { listenToCustomRequests } from './service/customRequests';
import { EditorDocument } from './service/editorDocument';
import { LanguageService } from './service/languageService';
import { editorSettings } from './service/settings';
import { NodeFileSystem } from './workspace/fileSystem';
import { loadShellGrammar } from './parse/shell/shellGrammar';

// The language server: LSP wiring over stdio. Everything it answers comes from the language service.

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments({ create: EditorDocument.create, update: EditorDocument.update });
const docsBase = pathToFileURL(path.join(__dirname, '..', 'docs', 'rules')).href;
const service = new LanguageService(
  new NodeFileSystem(),
  documents,
  (message) => connection.console.error(message),
  docsBase,
);
let workspaceRoots: string[] = [];
let pullDiagnostics = false;
/** The client answers `workspace/configuration`, and lets the server register for configuration changes. */
let configurationRequests = false;
let configurationRegistration = false;
/** Resolves once the client's settings are known; requests wait for it so the first answers use them. */
let settingsLoaded: Promise<void> = Promise.resolve();
/** What the editor gave at start, and the `skillgraph` section it gives now (each unchecked, maybe nothing). */
let initializationOptions: unknown;
let section: unknown;
/** The settings in effect, in words, as the last `applySettings` made them. */
let settingsDescription = '';

/** The settings refused, as last shown to the user: each set of them is shown once, not on every change. */
let shownIgnored = '';

/** The settings from both places, the section winning key by key; returns them in words for the log. */
function applySettings(): string {
  const { settings, description, ignored } = editorSettings(
    [
      { source: 'initializationOptions', raw: initializationOptions },
      { source: 'workspace configuration', raw: section },
    ],
    workspaceRoots[0] ?? process.cwd(),
  );
  service.configure(settings);
  settingsDescription = description;
  // A refused setting is shown where the user looks, not only logged (Neovim hides the log's levels by default, and
  // few Emacs users open eglot's events buffer): once for each set of them.
  const refused = ignored.join('; ');
  if (refused !== '' && refused !== shownIgnored)
    void connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Warning,
      message: `Skillgraph did not use these settings: ${refused}.`,
    });
  shownIgnored = refused;
  return description;
}

/** The section as the editor has it now, or, when it has none to answer with, what it pushed (`pushed`). */
async function pulledSection(pushed?: unknown): Promise<unknown> {
  const answer: unknown = await connection.workspace.getConfiguration(SETTINGS_SECTION).catch(() => undefined);
  return answer ?? pushed;
}

/** New settings: logged, so a user can see what took effect, and every open document's findings made again. */
function configure(given: unknown): void {
  section = given;
  connection.console.log(`skillgraph: settings: ${applySettings()}`);
  rediagnose(documents.all().map((document) => document.uri));
}

/** A request's answer once the settings are known; a refused rename is an LSP error the editor shows. */
async function answer<T>(run: () => T): Promise<T> {
  await settingsLoaded;
  try {
    return run();
  } catch (error) {
    if (error instanceof RenameError) throw new ResponseError(-32803, error.message);
    throw error;
  }
}

// The shell's grammar (WebAssembly) loads while the client starts; the first analysis waits for it (onInitialize).
const shellGrammarLoaded = loadShellGrammar();

connection.onInitialize(async (params): Promise<InitializeResult> => {
  await shellGrammarLoaded;
  pullDiagnostics = !!params.capabilities.textDocument?.diagnostic;
  configurationRequests = !!params.capabilities.workspace?.configuration;
  configurationRegistration = !!params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration;
  const roots = (params.workspaceFolders ?? []).map((folder) => fileURLToPath(folder.uri));
  if (roots.length === 0 && params.rootUri) roots.push(fileURLToPath(params.rootUri));
  workspaceRoots = roots;
  service.setWorkspaceFolders(roots);
  initializationOptions = params.initializationOptions;
  applySettings();
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      ...(pullDiagnostics ? { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false } } : {}),
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      completionProvider: { triggerCharacters: [' ', '[', ',', '/', ':', '-', '.', '|', "'", '=', '{', '"'] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      renameProvider: { prepareProvider: true },
      // A skill's folder renamed in the editor: its name, the mentions of it and the links into it follow.
      workspace: {
        fileOperations: { willRename: { filters: [{ scheme: 'file', pattern: { glob: '**/*', matches: 'folder' } }] } },
      },
      foldingRangeProvider: true,
      selectionRangeProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: 'skillgraph', version: '0.1.0' },
  };
});

connection.onInitialized(async () => {
  // A client that cannot take the registration still notifies changes (eglot, Neovim): registering anyway makes
  // it warn on every connect.
  if (configurationRegistration)
    await connection.client
      .register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION })
      .catch(() => undefined);
  // The options given at start are applied already (onInitialize); only a section the editor answers changes them.
  if (configurationRequests) {
    settingsLoaded = pulledSection().then((given) => {
      section = given;
      applySettings();
    });
    await settingsLoaded;
  }
  connection.console.log(
    `skillgraph: ready (${pullDiagnostics ? 'pull' : 'push'} diagnostics); settings: ${settingsDescription}`,
  );
});

connection.onDidChangeConfiguration((change) => {
  const pushed = (change.settings as Record<string, unknown> | null | undefined)?.[SETTINGS_SECTION];
  if (configurationRequests) settingsLoaded = pulledSection(pushed).then(configure);
  else configure(pushed);
});

/**
 * Push mode: one pending publish per document, run once the messages
 * already read have been handled (setImmediate: a zero timeout would add a
 * millisecond's clamp); changes queued behind it replace it, so stale work
 * never runs and a lone change is not delayed.
 */
const pending = new Map<string, NodeJS.Immediate>();
function schedulePublish(uri: string): void {
  clearImmediate(pending.get(uri));
  pending.set(
    uri,
    setImmediate(() => {
      pending.delete(uri);
      void settingsLoaded.then(() => {
        const report = service.diagnostics(uri);
        if (!report) return;
        void connection.sendDiagnostics({ uri, version: report.version ?? undefined, diagnostics: report.items });
        if (report.libraryUnread) readLibraryBetweenMessages();
        // The library's findings in other open skills may have changed with this one (a collision made or ended).
        for (const other of service.libraryChangedElsewhere(uri)) schedulePublish(other);
      });
    }),
  );
}

function rediagnose(uris: string[]): void {
  if (pullDiagnostics) connection.languages.diagnostics.refresh().catch(() => undefined);
  else for (const uri of uris) schedulePublish(uri);
}

/** Skills of a large library read per turn of the event loop: about 30 ms, so a keystroke waits for no more. */
const LIBRARY_SLICE = 100;
let readingLibrary = false;

/**
 * A library too large to read before a document's findings (thousands of skills take seconds) is read a slice at a
 * time, the editor's messages handled between slices; once it is read, the open skills get its findings.
 */
function readLibraryBetweenMessages(): void {
  if (readingLibrary) return;
  readingLibrary = true;
  const slice = () => {
    const read = service.readLibrary(LIBRARY_SLICE);
    if (!read) {
      setImmediate(slice);
      return;
    }
    readingLibrary = false;
    rediagnose(read);
  };
  setImmediate(slice);
}

/** An open document changed: every open document of its skill may have new findings (a skill+ package spans files). */
function documentChanged(uri: string): void {
  const uris = service.documentChanged(uri);
  if (!pullDiagnostics) for (const other of uris) schedulePublish(other);
  else if (uris.length > 1) connection.languages.diagnostics.refresh().catch(() => undefined);
}

documents.onDidOpen((event) => documentChanged(event.document.uri));
documents.onDidChangeContent((event) => documentChanged(event.document.uri));
documents.onDidClose((event) => {
  clearImmediate(pending.get(event.document.uri));
  const closed = service.documentClosed(event.document.uri);
  if (!closed.belonged) return;
  if (!pullDiagnostics) void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  if (closed.others.length > 0) rediagnose(closed.others);
});

const CHANGE_KINDS = {
  [FileChangeType.Created]: 'created',
  [FileChangeType.Changed]: 'changed',
  [FileChangeType.Deleted]: 'deleted',
} as const;

connection.onDidChangeWatchedFiles((params) => {
  const changes = params.changes
    .filter((change) => change.uri.startsWith('file:'))
    .map((change) => ({ file: fileURLToPath(change.uri), kind: CHANGE_KINDS[change.type] }));
  const affected = service.filesChanged(changes);
  if (affected.length > 0) rediagnose(affected);
});

connection.languages.diagnostics.on(async (params, token) => {
  const report = await answer(() => service.diagnostics(params.textDocument.uri, token));
  if (report?.libraryUnread) readLibraryBetweenMessages();
  return { kind: DocumentDiagnosticReportKind.Full, items: report?.items ?? [] };
});

connection.onDefinition((params, token) =>
  answer(() => service.definition(params.textDocument.uri, params.position, token)),
);
connection.onReferences((params, token) =>
  answer(() => service.references(params.textDocument.uri, params.position, params.context.includeDeclaration, token)),
);
connection.onHover((params, token) => answer(() => service.hover(params.textDocument.uri, params.position, token)));
connection.onCompletion((params, token) =>
  answer(() => service.completion(params.textDocument.uri, params.position, token)),
);
connection.onCodeAction((params, token) =>
  answer(() => service.codeActions(params.textDocument.uri, params.range, params.context.only, token)),
);
connection.onDocumentSymbol((params, token) => answer(() => service.documentSymbols(params.textDocument.uri, token)));
connection.onPrepareRename((params, token) =>
  answer(() => service.prepareRename(params.textDocument.uri, params.position, token)),
);
connection.workspace.onWillRenameFiles((params) => answer(() => service.willRenameFiles(params.files)));
connection.onRenameRequest((params, token) =>
  answer(() => service.rename(params.textDocument.uri, params.position, params.newName, token)),
);
connection.onFoldingRanges((params, token) => answer(() => service.foldingRanges(params.textDocument.uri, token)));
connection.onSelectionRanges((params, token) =>
  answer(() => service.selectionRanges(params.textDocument.uri, params.positions, token)),
);
connection.onCodeLens((params, token) => answer(() => service.codeLenses(params.textDocument.uri, token)));
connection.onWorkspaceSymbol((params, token) => answer(() => service.workspaceSymbols(params.query, token)));

// Each typed by the protocol where it is answered (customRequests.ts): here, by its method.
listenToCustomRequests(
  (type, respond) => connection.onRequest(type.method, (params) => answer(() => respond(params))),
  service.requests,
);

documents.listen(connection);
connection.listen();

// The server must survive any document: log what escaped a handler and keep serving.
process.on('uncaughtException', (error) =>
  connection.console.error(`skillgraph: uncaught ${error.stack ?? String(error)}`),
);
process.on('unhandledRejection', (reason) =>
  connection.console.error(`skillgraph: unhandled rejection ${String(reason)}`),
);
