import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { LensCommands, SkillInfoRequest, type SkillInfo } from '../../server/src/protocol';
import { askModelAboutSkill } from './askModelCommand';
import { compileSkill } from './compileCommand';
import { nativeFingerprint, shownByVsCode } from './nativeFindings';
import { CONFIG_SELECTOR, DOCUMENT_SELECTOR, skillEditor } from './skillEditor';
import { ContextViews } from './preview/contextView';
import { GraphPreviews } from './preview/graphPreview';
import { LibraryView } from './preview/libraryView';
import { diffEditorRevision, RevisionContent, REVISION_SCHEME } from './preview/revisions';

let client: LanguageClient | undefined;
let statusItem: vscode.StatusBarItem;
let output: vscode.LogOutputChannel;

/** Whether Skillgraph shows its findings that VS Code's own skill checks already show (docs/vscode.md). */
function repeatVsCodeFindings(): boolean {
  return vscode.workspace.getConfiguration('skillgraph').get<boolean>('diagnostics.repeatVSCodeFindings', false);
}

/** Skillgraph's diagnostics of a document without those VS Code already shows there. */
function withoutRepeats(uri: vscode.Uri, items: vscode.Diagnostic[]): vscode.Diagnostic[] {
  if (repeatVsCodeFindings() || path.basename(uri.fsPath) !== 'SKILL.md') return items;
  const native = vscode.languages.getDiagnostics(uri).filter((item) => item.source === undefined);
  return native.length === 0 ? items : items.filter((item) => !shownByVsCode(item, native));
}

function createClient(context: vscode.ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [...DOCUMENT_SELECTOR, ...CONFIG_SELECTOR],
    outputChannel: output,
    synchronize: {
      configurationSection: 'skillgraph',
      // Scripts, references and assets of skill folders: creating or deleting one re-checks the skills naming it.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*'),
    },
    middleware: {
      // VS Code's client pulls diagnostics (the server pushes only to clients that cannot), so the pull is where they
      // are filtered.
      async provideDiagnostics(document, previousResultId, token, next) {
        const report = await next(document, previousResultId, token);
        const uri = document instanceof vscode.Uri ? document : document.uri;
        return report && report.kind === 'full' ? { ...report, items: withoutRepeats(uri, report.items) } : report;
      },
    },
  };
  return new LanguageClient('skillgraph', 'Skillgraph', serverOptions, clientOptions);
}

/** What the server knows of the skill a document belongs to; null for documents that are not part of one. */
async function skillInfo(uri: vscode.Uri): Promise<SkillInfo | null> {
  return client ? client.sendRequest(SkillInfoRequest, { uri: uri.toString() }).catch(() => null) : null;
}

/** Where a skill's profile came from, in words. */
const PROFILE_SOURCES: Record<SkillInfo['profile']['source'], string> = {
  default: 'the default',
  setting: 'the skillgraph.profile setting',
  config: 'the configuration file',
  location: 'the client folder the skill is in',
  metaskill: "a MetaSkill is OpenSquilla's",
};

function statusTooltip(info: SkillInfo): string {
  const config = info.configFile ? vscode.workspace.asRelativePath(vscode.Uri.parse(info.configFile)) : undefined;
  return [
    `${info.name ?? 'This skill'} is read as ${info.format}, checked for ${info.profile.id} (${PROFILE_SOURCES[info.profile.source]})${info.strict ? " with the reference validator's verdict (strict)" : ''}.`,
    ...(config ? [`Configuration: ${config}.`] : []),
    ...(info.ignored ? ['The configuration ignores this skill: nothing is reported.'] : []),
    ...(info.baselined > 0
      ? [`${info.baselined} finding${info.baselined === 1 ? ' is' : 's are'} in the baseline, not shown.`]
      : []),
    'Click for the Problems panel.',
  ].join('\n');
}

async function updateStatus(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor || vscode.languages.match(DOCUMENT_SELECTOR, editor.document) === 0) {
    statusItem.hide();
    return;
  }
  const info = await skillInfo(editor.document.uri);
  if (!info) {
    statusItem.hide();
    return;
  }
  const problems = info.ignored
    ? '$(circle-slash)'
    : info.errors + info.warnings === 0
      ? '$(check)'
      : `$(error) ${info.errors} $(warning) ${info.warnings}`;
  statusItem.text = `Skillgraph: ${info.format} · ${info.profile.id}${info.strict ? ' (strict)' : ''} ${problems}`;
  statusItem.tooltip = statusTooltip(info);
  statusItem.show();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Skillgraph', { log: true });
  statusItem = vscode.window.createStatusBarItem('skillgraph.status', vscode.StatusBarAlignment.Left, 10);
  statusItem.name = 'Skillgraph';
  statusItem.command = 'workbench.actions.view.problems';
  client = createClient(context);
  const previews = new GraphPreviews(context, () => client, skillInfo);
  const contexts = new ContextViews(context, () => client, skillInfo);
  const libraryView = new LibraryView(context, () => client);
  /** A language model's verdicts (the askModel command), apart from the server's findings. */
  const modelOpinions = vscode.languages.createDiagnosticCollection('skillgraph-model');
  /**
   * What a command acts on: the file it was given, else the skill file in view, else (from the palette with a preview
   * in front) the preview's skill.
   */
  const commandTarget = (uri?: vscode.Uri | string) =>
    (typeof uri === 'string' ? vscode.Uri.parse(uri) : uri) ?? skillEditor()?.document.uri ?? previews.shownSkill();
  context.subscriptions.push(
    previews,
    contexts,
    libraryView,
    vscode.commands.registerCommand('skillgraph.showLibrary', () => libraryView.open()),
    vscode.commands.registerCommand('skillgraph.showContext', (uri?: vscode.Uri | string, node?: string) =>
      contexts.open(commandTarget(uri), node),
    ),
    vscode.commands.registerCommand('skillgraph.openPreview', (uri?: vscode.Uri | string) =>
      previews.open(commandTarget(uri), false),
    ),
    vscode.commands.registerCommand(LensCommands.openPreviewToSide, (uri?: vscode.Uri | string) =>
      previews.open(commandTarget(uri), true),
    ),
    vscode.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, new RevisionContent(() => client)),
    vscode.commands.registerCommand(
      'skillgraph.showChanges',
      async (from?: vscode.Uri | { resourceUri: vscode.Uri }, asked?: unknown) => {
        // A title-bar action is given the editor group as its second argument; a revision is only ever a string.
        const revision = typeof asked === 'string' ? asked : undefined;
        // From a diff editor's title: its two sides; from the Source Control view: a changed file, against HEAD; from
        // the palette: the skill in view, against the revision the user names.
        const given = from instanceof vscode.Uri ? from : from?.resourceUri;
        const diff = diffEditorRevision(given);
        const target = diff?.file ?? given ?? commandTarget();
        const since =
          revision ??
          diff?.revision ??
          (from
            ? 'HEAD'
            : await vscode.window.showInputBox({
                title: 'Skillgraph: Show Graph Changes',
                prompt: 'Show what changed since which git revision (a branch, a tag, a commit)?',
                value: 'HEAD',
              }));
        if (since) await previews.showChanges(target, since);
      },
    ),
    output,
    statusItem,
    vscode.commands.registerCommand('skillgraph.restartServer', async () => {
      await client?.restart();
      vscode.window.showInformationMessage('Skillgraph: language server restarted.');
    }),
    vscode.commands.registerCommand('skillgraph.showOutput', () => output.show()),
    vscode.commands.registerCommand('skillgraph.openExample', () => openExample(context)),
    vscode.commands.registerCommand(LensCommands.compileSkill, (uri?: vscode.Uri | string) =>
      compileSkill(client, output, commandTarget(uri)),
    ),
    modelOpinions,
    vscode.commands.registerCommand('skillgraph.askModel', (uri?: vscode.Uri | string) =>
      askModelAboutSkill(client, commandTarget(uri), modelOpinions),
    ),
    vscode.commands.registerCommand(
      LensCommands.showReferences,
      async (uri: string, position: { line: number; character: number }) => {
        const target = vscode.Uri.parse(uri);
        const at = new vscode.Position(position.line, position.character);
        const locations =
          (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', target, at)) ??
          [];
        await vscode.commands.executeCommand('editor.action.showReferences', target, at, locations);
      },
    ),
    vscode.window.onDidChangeActiveTextEditor(() => void updateStatus()),
    vscode.languages.onDidChangeDiagnostics((event) => {
      void updateStatus();
      refreshWhenVsCodeFindingsChange(event.uris);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('skillgraph.diagnostics.repeatVSCodeFindings'))
        client?.getFeature('textDocument/diagnostic').refresh();
    }),
  );
  await client.start();
  await updateStatus();
}

/**
 * Opens the example skill the walkthrough starts from: a copy in the
 * extension's own storage (made once, then reused with whatever the user
 * changed), never a file of the user's workspace.
 */
async function openExample(context: vscode.ExtensionContext): Promise<void> {
  const target = vscode.Uri.joinPath(context.globalStorageUri, 'examples', 'csv-report');
  const skill = vscode.Uri.joinPath(target, 'SKILL.md');
  const exists = await vscode.workspace.fs.stat(skill).then(
    () => true,
    () => false,
  );
  if (!exists) {
    try {
      await vscode.workspace.fs.copy(vscode.Uri.joinPath(context.extensionUri, 'examples', 'csv-report'), target, {
        overwrite: false,
      });
    } catch (error) {
      // A folder left there without its SKILL.md is the user's to remove: it is never replaced.
      void vscode.window.showErrorMessage(
        `Skillgraph: could not copy the example to ${target.fsPath}: ${(error as Error).message}`,
      );
      return;
    }
  }
  // Beside the walkthrough, so its next steps (the preview, compile) find the skill in a visible editor.
  await vscode.window.showTextDocument(skill, { viewColumn: vscode.ViewColumn.Beside });
}

/**
 * VS Code's own findings of each SKILL.md, as last seen: Skillgraph's are pulled again (and filtered again) when they
 * change.
 */
const nativeSeen = new Map<string, string>();

function refreshWhenVsCodeFindingsChange(uris: readonly vscode.Uri[]): void {
  let changed = false;
  for (const uri of uris) {
    if (path.basename(uri.fsPath) !== 'SKILL.md') continue;
    const fingerprint = nativeFingerprint(vscode.languages.getDiagnostics(uri));
    if (nativeSeen.get(uri.toString()) === fingerprint) continue;
    nativeSeen.set(uri.toString(), fingerprint);
    changed = true;
  }
  if (changed && !repeatVsCodeFindings()) client?.getFeature('textDocument/diagnostic').refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
