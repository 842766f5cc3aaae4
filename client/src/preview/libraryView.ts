import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LibraryViewRequest, type LibraryViewJson } from '../../../server/src/protocol';
import { libraryHtml } from '../../webview/html';
import type { LibraryHostMessage, LibraryPageMessage } from '../../webview/protocol';
import { openPagePanel } from './webviewPanel';

/** Edits to skills pause this long before the library is asked for again. */
const UPDATE_DELAY_MS = 400;

/**
 * The library view: one panel for the workspace's skills, drawn by the webview from what the server gives
 * (`skillgraph/library`). It follows edits to any SKILL.md and skills created, moved or deleted.
 */
export class LibraryView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The library last shown: only its skills are opened from the view. */
  private shown: LibraryViewJson | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly client: () => LanguageClient | undefined,
  ) {
    const isSkillFile = (uri: vscode.Uri) => uri.scheme === 'file' && path.basename(uri.fsPath) === 'SKILL.md';
    // A folder moved or deleted in the explorer may hold skills: any such move redraws the view.
    const moved = (uris: readonly vscode.Uri[]) => {
      if (uris.some((uri) => isSkillFile(uri) || (uri.scheme === 'file' && !path.extname(uri.fsPath)))) this.schedule();
    };
    const watcher = vscode.workspace.createFileSystemWatcher('**/SKILL.md');
    this.disposables.push(
      watcher,
      watcher.onDidCreate(() => this.schedule()),
      watcher.onDidChange(() => this.schedule()),
      watcher.onDidDelete(() => this.schedule()),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (isSkillFile(event.document.uri)) this.schedule();
      }),
      vscode.workspace.onDidRenameFiles((event) => moved(event.files.flatMap((file) => [file.oldUri, file.newUri]))),
      vscode.workspace.onDidDeleteFiles((event) => moved(event.files)),
    );
  }

  /** Opens (or shows) the library view. */
  open(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    const panel = openPagePanel(
      this.context.extensionUri,
      {
        viewType: 'skillgraph.library',
        title: 'Skill Library',
        show: { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      },
      { html: libraryHtml, script: 'library.js', style: 'library-style.css' },
    );
    this.panel = panel;
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.shown = undefined;
    });
    panel.webview.onDidReceiveMessage((message: LibraryPageMessage) => void this.receive(message));
  }

  private async receive(message: LibraryPageMessage): Promise<void> {
    if (message.type === 'ready') {
      await this.update();
      return;
    }
    // Only a skill of the library shown is opened: the page names files, and is not trusted to name any other.
    if (!this.shown?.skills.some((skill) => skill.file === message.file)) return;
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(message.file), {
      viewColumn: this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One,
    });
    const { start, end } = message.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private schedule(): void {
    if (!this.panel) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), UPDATE_DELAY_MS);
  }

  private async update(): Promise<void> {
    const client = this.client();
    if (!this.panel || !client) return;
    const library = await client.sendRequest(LibraryViewRequest, {}).catch(() => null);
    if (!library || !this.panel) return;
    this.shown = library;
    await this.panel.webview.postMessage({ type: 'library', library } satisfies LibraryHostMessage);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
