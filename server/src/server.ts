import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createConnection,
  DidChangeConfigurationNotification,
  DocumentDiagnosticReportKind,
  FileChangeType,
  ProposedFeatures,
  ResponseError,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isProfileId, PROFILES, type ProfileId } from './checks/profiles';
import { isRuleCode } from './checks/rules';
import { toGraphJson } from './compile/graphJson';
import { codeActions } from './features/codeActions';
import { completion } from './features/completion';
import { definition } from './features/definition';
import { documentDiagnostics, type SeverityOverrides } from './features/diagnostics';
import type { DocumentView } from './features/documentView';
import { hover } from './features/hover';
import { references } from './features/references';
import { prepareRename, rename, RenameError } from './features/rename';
import { codeLenses, foldingRanges, previewLensRange, selectionRanges } from './features/structure';
import { documentSymbols } from './features/symbols';
import { AnalysisCache } from './workspace/analysisCache';
import { NodeFileSystem } from './workspace/fileSystem';
import { SkillCatalog } from './workspace/skillCatalog';
import { SkillIndex } from './workspace/skillIndex';

/** Settings under `skillgraph.*` (VS Code) or in `initializationOptions` (other clients). */
interface Settings {
  profile: ProfileId;
  rules: SeverityOverrides;
  /** Folders of skill folders MetaSkills may compose, besides the skills next to each MetaSkill. */
  catalogRoots: string[];
}

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const fs = new NodeFileSystem();
const catalog = new SkillCatalog(fs);
const cache = new AnalysisCache(fs, catalog);
const index = new SkillIndex(fs);
let workspaceRoots: string[] = [];
const docsBase = pathToFileURL(path.join(__dirname, '..', 'docs', 'rules')).href;
let settings: Settings = { profile: 'agentskills', rules: {}, catalogRoots: [] };
let pullDiagnostics = false;
let configurationRequests = false;
/** Resolves once the client's settings are known; requests wait for it so the first answers use them. */
let settingsLoaded: Promise<void> = Promise.resolve();

function readSettings(raw: unknown): Settings {
  const value = (raw ?? {}) as { profile?: unknown; rules?: Record<string, unknown>; catalogRoots?: unknown };
  const rules: SeverityOverrides = {};
  for (const [code, severity] of Object.entries(value.rules ?? {})) {
    if (isRuleCode(code) && typeof severity === 'string' && ['error', 'warning', 'information', 'hint', 'off'].includes(severity)) rules[code] = severity as SeverityOverrides[typeof code];
  }
  // Relative roots are read from the first workspace folder, as VS Code settings usually are.
  const catalogRoots = (Array.isArray(value.catalogRoots) ? value.catalogRoots : []).filter((root): root is string => typeof root === 'string' && root !== '').map((root) => path.resolve(workspaceRoots[0] ?? process.cwd(), root));
  return { profile: typeof value.profile === 'string' && isProfileId(value.profile) ? value.profile : 'agentskills', rules, catalogRoots };
}

function isSkillFile(uri: string): boolean {
  return uri.startsWith('file:') && path.basename(fileURLToPath(uri)) === 'SKILL.md';
}

/** The analysed view of an open SKILL.md, or undefined for other documents. */
function viewOf(uri: string): DocumentView | undefined {
  const document = documents.get(uri);
  if (!document || !isSkillFile(uri)) return undefined;
  return cache.view(uri, document.version, document.getText(), settings.profile);
}

function offsetOf(view: DocumentView, position: { line: number; character: number }): number {
  return view.lines.offsetAt(position);
}

/** Runs a feature on an open skill, honouring cancellation and never letting an exception reach the client as a crash. */
async function withView<T>(uri: string, token: CancellationToken | undefined, empty: T, run: (view: DocumentView) => T): Promise<T> {
  await settingsLoaded;
  if (token?.isCancellationRequested) return empty;
  const view = viewOf(uri);
  if (!view) return empty;
  try {
    return run(view);
  } catch (error) {
    if (error instanceof RenameError) throw new ResponseError(-32803, error.message);
    connection.console.error(`skillgraph: ${(error as Error).stack ?? String(error)}`);
    return empty;
  }
}

connection.onInitialize((params): InitializeResult => {
  pullDiagnostics = !!params.capabilities.textDocument?.diagnostic;
  configurationRequests = !!params.capabilities.workspace?.configuration;
  const roots = (params.workspaceFolders ?? []).map((folder) => fileURLToPath(folder.uri));
  if (roots.length === 0 && params.rootUri) roots.push(fileURLToPath(params.rootUri));
  workspaceRoots = roots;
  settings = readSettings(params.initializationOptions);
  catalog.setRoots(settings.catalogRoots);
  index.setRoots(roots);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      ...(pullDiagnostics ? { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false } } : {}),
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      completionProvider: { triggerCharacters: [' ', '[', ',', '/', ':', '-', '.', '|', "'"] },
      codeActionProvider: { codeActionKinds: ['quickfix'] },
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      renameProvider: { prepareProvider: true },
      foldingRangeProvider: true,
      selectionRangeProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: 'skillgraph', version: '0.1.0' },
  };
});

connection.onInitialized(async () => {
  if (configurationRequests) {
    settingsLoaded = refreshSettings();
    await connection.client.register(DidChangeConfigurationNotification.type, { section: 'skillgraph' }).catch(() => undefined);
    await settingsLoaded;
  }
  connection.console.log(`skillgraph: ready (${pullDiagnostics ? 'pull' : 'push'} diagnostics, profile ${settings.profile})`);
});

async function refreshSettings(): Promise<void> {
  if (configurationRequests) settings = readSettings(await connection.workspace.getConfiguration('skillgraph').catch(() => undefined));
  catalog.setRoots(settings.catalogRoots);
  cache.clear();
  index.invalidate();
  rediagnose(documents.all().map((document) => document.uri));
}

connection.onDidChangeConfiguration((change) => {
  if (!configurationRequests) {
    settings = readSettings((change.settings as { skillgraph?: unknown } | undefined)?.skillgraph);
    catalog.setRoots(settings.catalogRoots);
  }
  settingsLoaded = refreshSettings();
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
      void withView(uri, undefined, undefined, (view) => {
        void connection.sendDiagnostics({ uri, version: view.version ?? undefined, diagnostics: documentDiagnostics(view, settings.rules, docsBase) });
      });
    }),
  );
}

function rediagnose(uris: string[]): void {
  if (pullDiagnostics) connection.languages.diagnostics.refresh().catch(() => undefined);
  else for (const uri of uris) schedulePublish(uri);
}

documents.onDidOpen((event) => {
  if (!pullDiagnostics && isSkillFile(event.document.uri)) schedulePublish(event.document.uri);
});
documents.onDidChangeContent((event) => {
  if (!pullDiagnostics && isSkillFile(event.document.uri)) schedulePublish(event.document.uri);
});
documents.onDidClose((event) => {
  clearImmediate(pending.get(event.document.uri));
  cache.close(event.document.uri);
  if (!pullDiagnostics && isSkillFile(event.document.uri)) void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
});

connection.onDidChangeWatchedFiles((params) => {
  const affected = new Set<string>();
  for (const change of params.changes) {
    if (!change.uri.startsWith('file:')) continue;
    const file = fileURLToPath(change.uri);
    if (path.basename(file) === 'SKILL.md' || change.type !== FileChangeType.Changed) {
      index.invalidate();
      // A skill created, renamed, changed or deleted may be one a MetaSkill composes.
      catalog.invalidate(file, change.type === FileChangeType.Changed ? 'changed' : change.type === FileChangeType.Created ? 'created' : 'deleted');
      for (const uri of cache.invalidateMetaSkills()) affected.add(uri);
    }
    for (const uri of cache.invalidateFolderOf(file)) affected.add(uri);
  }
  if (affected.size > 0) rediagnose([...affected]);
});

connection.languages.diagnostics.on(async (params, token) => {
  const items = await withView(params.textDocument.uri, token, [], (view) => documentDiagnostics(view, settings.rules, docsBase));
  return { kind: DocumentDiagnosticReportKind.Full, items };
});

connection.onDefinition((params, token) => withView(params.textDocument.uri, token, [], (view) => definition(view, offsetOf(view, params.position))));
connection.onReferences((params, token) => withView(params.textDocument.uri, token, [], (view) => references(view, offsetOf(view, params.position), params.context.includeDeclaration)));
connection.onHover((params, token) => withView(params.textDocument.uri, token, null, (view) => hover(view, offsetOf(view, params.position))));
connection.onCompletion((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    completion({
      view,
      offset: offsetOf(view, params.position),
      profile: PROFILES[settings.profile],
      lastGoodModel: cache.lastGoodModel(params.textDocument.uri),
      catalog: catalog.forSkill(view.analysis.dir),
    }),
  ),
);
connection.onCodeAction((params, token) =>
  withView(params.textDocument.uri, token, [], (view) => codeActions(view, { start: offsetOf(view, params.range.start), end: offsetOf(view, params.range.end) })),
);
connection.onDocumentSymbol((params, token) => withView(params.textDocument.uri, token, [], (view) => documentSymbols(view)));
connection.onPrepareRename((params, token) => withView(params.textDocument.uri, token, null, (view) => prepareRename(view, offsetOf(view, params.position))));
connection.onRenameRequest((params, token) => withView(params.textDocument.uri, token, null, (view) => rename(view, offsetOf(view, params.position), params.newName)));
connection.onFoldingRanges((params, token) => withView(params.textDocument.uri, token, [], (view) => foldingRanges(view)));
connection.onSelectionRanges((params, token) => withView(params.textDocument.uri, token, [], (view) => selectionRanges(view, params.positions.map((position) => offsetOf(view, position)))));
connection.onCodeLens((params, token) =>
  withView(params.textDocument.uri, token, [], (view) => {
    const uri = params.textDocument.uri;
    const top = previewLensRange(view);
    const preview = top ? [{ range: top, command: { title: 'Open graph preview', command: 'skillgraph.openPreviewToSide', arguments: [uri] } }] : [];
    return [...preview, ...codeLenses(view).map((lens) => ({ ...lens, command: { ...lens.command!, command: 'skillgraph.showReferences', arguments: [uri, lens.range.start] } }))];
  }),
);
connection.onWorkspaceSymbol(async (params, token) => {
  await settingsLoaded;
  if (token.isCancellationRequested) return [];
  return index.search(params.query, settings.profile).map((symbol) => ({
    name: symbol.name,
    kind: symbol.kind === 'skill' ? SymbolKind.Module : SymbolKind.Function,
    location: { uri: pathToFileURL(symbol.file).href, range: symbol.range },
    ...(symbol.container ? { containerName: symbol.container } : {}),
  }));
});

/** The graph of an open skill, as `skillgraph graph --format json` prints it (for the graph preview). */
connection.onRequest('skillgraph/graph', (params: { uri: string }) => withView(params.uri, undefined, null, (view) => toGraphJson(view.analysis)));

/** Format and problem counts of an open skill, for the status bar. */
connection.onRequest('skillgraph/skillInfo', (params: { uri: string }) =>
  withView(params.uri, undefined, null, (view) => {
    const shown = documentDiagnostics(view, settings.rules);
    return { format: view.analysis.format, name: view.analysis.name ?? null, errors: shown.filter((item) => item.severity === 1).length, warnings: shown.filter((item) => item.severity === 2).length };
  }),
);

documents.listen(connection);
connection.listen();

// The server must survive any document: log what escaped a handler and keep serving.
process.on('uncaughtException', (error) => connection.console.error(`skillgraph: uncaught ${error.stack ?? String(error)}`));
process.on('unhandledRejection', (reason) => connection.console.error(`skillgraph: unhandled rejection ${String(reason)}`));
