import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { GraphPreviews } from './preview/graphPreview';

let client: LanguageClient | undefined;
let statusItem: vscode.StatusBarItem;
let output: vscode.LogOutputChannel;

interface SkillInfo {
  format: string;
  name: string | null;
  errors: number;
  warnings: number;
}

function createClient(context: vscode.ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Only SKILL.md files: Markdown elsewhere stays with VS Code's own Markdown support.
    documentSelector: [{ scheme: 'file', pattern: '**/SKILL.md' }],
    outputChannel: output,
    synchronize: {
      configurationSection: 'skillgraph',
      // Scripts, references and assets of skill folders: creating or deleting one re-checks the skills naming it.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*'),
    },
  };
  return new LanguageClient('skillgraph', 'Skillgraph', serverOptions, clientOptions);
}

async function updateStatus(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor || path.basename(editor.document.uri.fsPath) !== 'SKILL.md') {
    statusItem.hide();
    return;
  }
  const info = await client.sendRequest<SkillInfo | null>('skillgraph/skillInfo', { uri: editor.document.uri.toString() }).catch(() => null);
  if (!info) {
    statusItem.hide();
    return;
  }
  const problems = info.errors + info.warnings === 0 ? '$(check)' : `$(error) ${info.errors} $(warning) ${info.warnings}`;
  statusItem.text = `Skillgraph: ${info.format} ${problems}`;
  statusItem.tooltip = `${info.name ?? 'This skill'} is read as ${info.format}. Click for the Problems panel.`;
  statusItem.show();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Skillgraph', { log: true });
  statusItem = vscode.window.createStatusBarItem('skillgraph.status', vscode.StatusBarAlignment.Left, 10);
  statusItem.name = 'Skillgraph';
  statusItem.command = 'workbench.actions.view.problems';
  client = createClient(context);
  const previews = new GraphPreviews(context, () => client);
  context.subscriptions.push(
    previews,
    vscode.commands.registerCommand('skillgraph.openPreview', (uri?: vscode.Uri | string) => previews.open(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri, false)),
    vscode.commands.registerCommand('skillgraph.openPreviewToSide', (uri?: vscode.Uri | string) => previews.open(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri, true)),
    output,
    statusItem,
    vscode.commands.registerCommand('skillgraph.restartServer', async () => {
      await client?.restart();
      vscode.window.showInformationMessage('Skillgraph: language server restarted.');
    }),
    vscode.commands.registerCommand('skillgraph.showOutput', () => output.show()),
    vscode.commands.registerCommand('skillgraph.showReferences', async (uri: string, position: { line: number; character: number }) => {
      const target = vscode.Uri.parse(uri);
      const at = new vscode.Position(position.line, position.character);
      const locations = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', target, at)) ?? [];
      await vscode.commands.executeCommand('editor.action.showReferences', target, at, locations);
    }),
    vscode.window.onDidChangeActiveTextEditor(() => void updateStatus()),
    vscode.languages.onDidChangeDiagnostics(() => void updateStatus()),
  );
  await client.start();
  await updateStatus();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
