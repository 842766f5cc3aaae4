import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PageOptions } from '../../webview/html';

/**
 * A webview panel showing one of the extension's pages: scripts on, only the bundled `dist/` readable, the page's
 * script and stylesheet from there under a fresh nonce.
 */
export function openPagePanel(
  extensionUri: vscode.Uri,
  panel: { viewType: string; title: string; show: { viewColumn: vscode.ViewColumn; preserveFocus: boolean } },
  page: { html: (options: PageOptions) => string; script: string; style: string },
): vscode.WebviewPanel {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const created = vscode.window.createWebviewPanel(panel.viewType, panel.title, panel.show, {
    enableScripts: true,
    localResourceRoots: [dist],
  });
  created.webview.html = page.html({
    scriptUri: created.webview.asWebviewUri(vscode.Uri.joinPath(dist, page.script)).toString(),
    styleUri: created.webview.asWebviewUri(vscode.Uri.joinPath(dist, page.style)).toString(),
    cspSource: created.webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
  });
  return created;
}
