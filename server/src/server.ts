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
import { EditorDocument } from './workspace/editorDocument';
import { isProfileId, PROFILES, type ProfileId } from './checks/profiles';
import { isRuleCode } from './checks/rules';
import { toGraphJson } from './compile/graphJson';
import { modelContext, type ContextRequest } from './compile/modelContext';
import { codeActions } from './features/codeActions';
import { completion } from './features/completion';
import { definition } from './features/definition';
import { documentDiagnostics, shownDiagnostics, type SeverityOverrides } from './features/diagnostics';
import { rangeOf, type DocumentView } from './features/documentView';
import { hover } from './features/hover';
import { references } from './features/references';
import { prepareRename, rename, RenameError } from './features/rename';
import {
  codeLenses,
  frontmatterLensRange,
  foldingRanges,
  previewLensRange,
  selectionRanges,
} from './features/structure';
import { documentSymbols } from './features/symbols';
import { packageCodeActions } from './features/skillplus/packageActions';
import { packageCompletion } from './features/skillplus/packageCompletion';
import { packageHover } from './features/skillplus/packageHover';
import {
  packageDefinition,
  packagePrepareRename,
  packageReferences,
  packageRename,
} from './features/skillplus/packageNavigation';
import { packageOutline } from './features/skillplus/packageOutline';
import { AnalysisCache, type OpenDocument } from './workspace/analysisCache';
import { NodeFileSystem } from './workspace/fileSystem';
import { checkRevision, CompileRefused, compileSkill } from './compile/compileSkill';
import {
  COMPILE_TARGETS,
  defaultOutDir,
  isPackagePath,
  resultLines,
  SINGLE_FILE,
  TARGET_TITLES,
  targetsFor,
  type CompileAnswer,
  type CompileResult,
  type CompileTarget,
  type WireFile,
} from './compile/compiled';
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
const documents = new TextDocuments({ create: EditorDocument.create, update: EditorDocument.update });
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
    if (
      isRuleCode(code) &&
      typeof severity === 'string' &&
      ['error', 'warning', 'information', 'hint', 'off'].includes(severity)
    )
      rules[code] = severity as SeverityOverrides[typeof code];
  }
  // Relative roots are read from the first workspace folder, as VS Code settings usually are.
  const catalogRoots = (Array.isArray(value.catalogRoots) ? value.catalogRoots : [])
    .filter((root): root is string => typeof root === 'string' && root !== '')
    .map((root) => path.resolve(workspaceRoots[0] ?? process.cwd(), root));
  return {
    profile: typeof value.profile === 'string' && isProfileId(value.profile) ? value.profile : 'agentskills',
    rules,
    catalogRoots,
  };
}

/** Open documents on disk inside `dir`, as the analysis overlays them. */
function openIn(dir: string): OpenDocument[] {
  return documents.all().flatMap((document) => {
    if (!document.uri.startsWith('file:')) return [];
    const file = fileURLToPath(document.uri);
    const relative = path.relative(dir, file);
    return relative.startsWith('..') || path.isAbsolute(relative)
      ? []
      : [{ uri: document.uri, file, version: document.version, text: document.text }];
  });
}

/**
 * The analysed view of an open document: a SKILL.md, or a file of a skill+
 * package (its SKILL.md in the same folder or the one above, as for
 * `references/` and `rules/`). Any other document gets no view, so ordinary
 * Python and Markdown are left to their own extensions.
 */
function viewOf(uri: string): DocumentView | undefined {
  const document = documents.get(uri);
  if (!document || !uri.startsWith('file:')) return undefined;
  const file = fileURLToPath(uri);
  const open: OpenDocument = { uri, file, version: document.version, text: document.text };
  if (path.basename(file) === 'SKILL.md') return cache.view(open, file, openIn(path.dirname(file)), settings.profile);
  for (const dir of [path.dirname(file), path.dirname(path.dirname(file))]) {
    const skillFile = path.join(dir, 'SKILL.md');
    if (!documents.get(pathToFileURL(skillFile).href) && fs.stat(skillFile)?.kind !== 'file') continue;
    const view = cache.view(open, skillFile, openIn(dir), settings.profile);
    if (view.analysis.skillplus && view.analysis.sources.has(file)) return view;
  }
  return undefined;
}

/** A file of a skill+ package other than its SKILL.md: the package features answer there. */
function isPackageDocument(view: DocumentView): boolean {
  return view.file !== view.analysis.file;
}

/**
 * The view the SKILL.md features work on: for a skill+ package, without the flow's nodes, which live in other files.
 */
function skillFileView(view: DocumentView): DocumentView {
  if (!view.analysis.skillplus) return view;
  const model = { ...view.analysis.model, nodes: [], edges: [], externalInputs: [] };
  return { ...view, analysis: { ...view.analysis, model } };
}

function offsetOf(view: DocumentView, position: { line: number; character: number }): number {
  return view.lines.offsetAt(position);
}

/**
 * Runs a feature on an open skill, honouring cancellation and never letting an exception reach the client as a crash.
 */
async function withView<T>(
  uri: string,
  token: CancellationToken | undefined,
  empty: T,
  run: (view: DocumentView) => T,
): Promise<T> {
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
      completionProvider: { triggerCharacters: [' ', '[', ',', '/', ':', '-', '.', '|', "'", '=', '{', '"'] },
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
    await connection.client
      .register(DidChangeConfigurationNotification.type, { section: 'skillgraph' })
      .catch(() => undefined);
    await settingsLoaded;
  }
  connection.console.log(
    `skillgraph: ready (${pullDiagnostics ? 'pull' : 'push'} diagnostics, profile ${settings.profile})`,
  );
});

async function refreshSettings(): Promise<void> {
  if (configurationRequests)
    settings = readSettings(await connection.workspace.getConfiguration('skillgraph').catch(() => undefined));
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
        void connection.sendDiagnostics({
          uri,
          version: view.version ?? undefined,
          diagnostics: documentDiagnostics(view, settings.rules, docsBase),
        });
      });
    }),
  );
}

function rediagnose(uris: string[]): void {
  if (pullDiagnostics) connection.languages.diagnostics.refresh().catch(() => undefined);
  else for (const uri of uris) schedulePublish(uri);
}

/** An open document changed: every open document of its skill may have new findings (a skill+ package spans files). */
function documentChanged(uri: string): void {
  const view = viewOf(uri);
  if (!view) return;
  const uris = cache.urisOfSkill(view.analysis.file);
  if (pullDiagnostics) {
    if (uris.length > 1) connection.languages.diagnostics.refresh().catch(() => undefined);
  } else for (const other of uris) schedulePublish(other);
}

documents.onDidOpen((event) => documentChanged(event.document.uri));
documents.onDidChangeContent((event) => documentChanged(event.document.uri));
documents.onDidClose((event) => {
  clearImmediate(pending.get(event.document.uri));
  const skillFile = cache.skillOf(event.document.uri);
  cache.close(event.document.uri);
  if (!skillFile) return;
  if (!pullDiagnostics) void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  // Its unsaved text no longer counts: the rest of the package is checked against the file on disk.
  const others = cache.urisOfSkill(skillFile);
  if (others.length > 0) rediagnose(others);
});

connection.onDidChangeWatchedFiles((params) => {
  const affected = new Set<string>();
  for (const change of params.changes) {
    if (!change.uri.startsWith('file:')) continue;
    const file = fileURLToPath(change.uri);
    if (path.basename(file) === 'SKILL.md' || change.type !== FileChangeType.Changed) {
      index.invalidate();
      // A skill created, renamed, changed or deleted may be one a MetaSkill composes.
      catalog.invalidate(
        file,
        change.type === FileChangeType.Changed
          ? 'changed'
          : change.type === FileChangeType.Created
            ? 'created'
            : 'deleted',
      );
      for (const uri of cache.invalidateMetaSkills()) affected.add(uri);
    }
    for (const uri of cache.invalidateFolderOf(file)) affected.add(uri);
  }
  if (affected.size > 0) rediagnose([...affected]);
});

connection.languages.diagnostics.on(async (params, token) => {
  const items = await withView(params.textDocument.uri, token, [], (view) =>
    documentDiagnostics(view, settings.rules, docsBase),
  );
  return { kind: DocumentDiagnosticReportKind.Full, items };
});

connection.onDefinition((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    isPackageDocument(view)
      ? packageDefinition(view, offsetOf(view, params.position))
      : definition(skillFileView(view), offsetOf(view, params.position)),
  ),
);
connection.onReferences((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    isPackageDocument(view)
      ? packageReferences(view, offsetOf(view, params.position), params.context.includeDeclaration)
      : references(skillFileView(view), offsetOf(view, params.position), params.context.includeDeclaration),
  ),
);
connection.onHover((params, token) =>
  withView(params.textDocument.uri, token, null, (view) =>
    isPackageDocument(view)
      ? packageHover(view, offsetOf(view, params.position))
      : hover(skillFileView(view), offsetOf(view, params.position)),
  ),
);
connection.onCompletion((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    isPackageDocument(view)
      ? packageCompletion(view, offsetOf(view, params.position))
      : completion({
          view: skillFileView(view),
          offset: offsetOf(view, params.position),
          profile: PROFILES[settings.profile],
          lastGoodModel: view.analysis.skillplus ? undefined : cache.lastGoodModel(params.textDocument.uri),
          catalog: catalog.forSkill(view.analysis.dir),
        }),
  ),
);
connection.onCodeAction((params, token) =>
  withView(params.textDocument.uri, token, [], (view) => {
    const span = { start: offsetOf(view, params.range.start), end: offsetOf(view, params.range.end) };
    return isPackageDocument(view)
      ? packageCodeActions(view, span)
      : [...codeActions(skillFileView(view), span), ...packageCodeActions(view, span)];
  }),
);
connection.onDocumentSymbol((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    isPackageDocument(view) ? packageOutline(view) : documentSymbols(skillFileView(view)),
  ),
);
connection.onPrepareRename((params, token) =>
  withView(params.textDocument.uri, token, null, (view) =>
    isPackageDocument(view)
      ? packagePrepareRename(view, offsetOf(view, params.position))
      : prepareRename(skillFileView(view), offsetOf(view, params.position)),
  ),
);
connection.onRenameRequest((params, token) =>
  withView(params.textDocument.uri, token, null, (view) =>
    isPackageDocument(view)
      ? packageRename(view, offsetOf(view, params.position), params.newName)
      : rename(skillFileView(view), offsetOf(view, params.position), params.newName),
  ),
);
connection.onFoldingRanges((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    isPackageDocument(view) ? [] : foldingRanges(skillFileView(view)),
  ),
);
connection.onSelectionRanges((params, token) =>
  withView(params.textDocument.uri, token, [], (view) =>
    isPackageDocument(view)
      ? []
      : selectionRanges(
          skillFileView(view),
          params.positions.map((position) => offsetOf(view, position)),
        ),
  ),
);
connection.onCodeLens((params, token) =>
  withView(params.textDocument.uri, token, [], (view) => {
    const uri = params.textDocument.uri;
    const flow = view.analysis.skillplus?.flow;
    if (isPackageDocument(view)) {
      // The flow file opens the package's graph from its first stage.
      const first = flow?.file === view.file ? flow.stages[0] : undefined;
      return first
        ? [
            {
              range: rangeOf(view, first.idSpan),
              command: { title: 'Open graph preview', command: 'skillgraph.openPreviewToSide', arguments: [uri] },
            },
          ]
        : [];
    }
    const top = previewLensRange(view);
    const preview = top
      ? [
          {
            range: top,
            command: { title: 'Open graph preview', command: 'skillgraph.openPreviewToSide', arguments: [uri] },
          },
        ]
      : [];
    const first = frontmatterLensRange(view);
    const compile = first
      ? [{ range: first, command: { title: 'Compile…', command: 'skillgraph.compileSkill', arguments: [uri] } }]
      : [];
    return [
      ...preview,
      ...compile,
      ...codeLenses(skillFileView(view)).map((lens) => ({
        ...lens,
        command: { ...lens.command!, command: 'skillgraph.showReferences', arguments: [uri, lens.range.start] },
      })),
    ];
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
connection.onRequest('skillgraph/graph', (params: { uri: string }) =>
  withView(params.uri, undefined, null, (view) => toGraphJson(view.analysis)),
);

/** What a skill+ runtime puts in front of the model at a node for a State (the context view). */
connection.onRequest('skillgraph/context', (params: { uri: string } & ContextRequest) =>
  withView(params.uri, undefined, null, (view) => {
    const pkg = view.analysis.skillplus;
    if (!pkg) return { error: 'Not a skill+ package.' };
    const { syntax, text } = view.analysis;
    const { uri: _uri, ...request } = params;
    return modelContext(
      pkg,
      syntax ? text.slice(syntax.body.start, syntax.body.end) : '',
      view.analysis.name ?? path.basename(view.analysis.dir),
      request,
    );
  }),
);

/** A compile result for the client: its files and its findings with their file's URI and range. */
function compileAnswer(result: CompileResult): CompileAnswer {
  const files = result.files.map((file) =>
    typeof file.content === 'string'
      ? { path: file.path, text: file.content }
      : { path: file.path, base64: Buffer.from(file.content).toString('base64') },
  );
  const lines = resultLines(result);
  const diagnostics = result.diagnostics.map((item) => ({
    uri: pathToFileURL(item.file).href,
    range: lines.of(item.file).rangeOf(item.span),
    severity: item.severity,
    code: item.code,
    message: item.message,
  }));
  return { outDir: result.outDir, files, diagnostics };
}

/**
 * The compile targets that fit an open skill, each with its title and default output folder (the Compile Skill
 * command).
 */
connection.onRequest('skillgraph/compileTargets', (params: { uri: string }) =>
  withView(params.uri, undefined, null, (view) => ({
    skillFile: pathToFileURL(view.analysis.file).href,
    targets: targetsFor(view.analysis.format).map((id) => ({
      id,
      title: TARGET_TITLES[id],
      outDir: defaultOutDir(view.analysis.dir, view.analysis.name, id),
      singleFile: SINGLE_FILE[id] ?? null,
    })),
  })),
);

/**
 * A compile of an open skill into `outDir`, written by nobody: the client
 * shows the files as an edit to confirm. Texts travel as text, other files
 * as base64; findings carry their file's URI and range.
 */
connection.onRequest('skillgraph/compile', (params: { uri: string; target: CompileTarget; outDir: string }) =>
  withView(params.uri, undefined, null, (view) => {
    if (!(COMPILE_TARGETS as readonly string[]).includes(params.target) || !path.isAbsolute(params.outDir))
      return { error: 'Unknown target or output folder.' };
    let result;
    try {
      result = compileSkill(fs, view.analysis, params.target, params.outDir, settings.catalogRoots);
    } catch (error) {
      if (error instanceof CompileRefused) return { error: error.message };
      throw error;
    }
    return compileAnswer(result);
  }),
);

/**
 * A revision of a compile's files (the client's language model refining an
 * `aip` scaffold), checked as the compile checks its own result. Paths
 * that would leave the package are refused.
 */
connection.onRequest(
  'skillgraph/checkCompiled',
  (params: { uri: string; target: CompileTarget; outDir: string; files: WireFile[] }) =>
    withView(params.uri, undefined, null, (view) => {
      if (
        !(COMPILE_TARGETS as readonly string[]).includes(params.target) ||
        !path.isAbsolute(params.outDir) ||
        !params.files.every((file) => isPackagePath(file.path))
      )
        return { error: 'Unknown target, output folder or file name.' };
      const files = params.files.map((file) => ({
        path: file.path,
        content: 'text' in file ? file.text : new Uint8Array(Buffer.from(file.base64, 'base64')),
      }));
      return compileAnswer(
        checkRevision(fs, view.analysis, params.target, params.outDir, files, settings.catalogRoots),
      );
    }),
);

/** Format and problem counts of an open skill, for the status bar. */
connection.onRequest('skillgraph/skillInfo', (params: { uri: string }) =>
  withView(params.uri, undefined, null, (view) => {
    // The whole skill's findings: for a skill+ package, every file's.
    const shown = shownDiagnostics(view.analysis.diagnostics, settings.rules);
    return {
      format: view.analysis.format,
      name: view.analysis.name ?? null,
      skillFile: pathToFileURL(view.analysis.file).href,
      errors: shown.filter((item) => item.severity === 'error').length,
      warnings: shown.filter((item) => item.severity === 'warning').length,
    };
  }),
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
