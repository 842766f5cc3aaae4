import * as vscode from 'vscode';

/**
 * How long after a reveal a focus report of the webview is taken to be a
 * late one. VS Code learns that a webview has focus by polling it (every
 * 50 ms, later on a busy machine), so a report of the focus a click in the
 * panel gave it can arrive after the reveal has moved focus to the editor,
 * and take it back: the selection is made, but typing goes to the panel.
 */
const LATE_FOCUS_MS = 1000;

/**
 * Gives focus back to `editor` once if `panel` takes it again shortly after a click in the panel revealed something
 * there; disposing the result gives that up.
 */
export function keepFocusAfterReveal(panel: vscode.WebviewPanel, editor: vscode.TextEditor): vscode.Disposable {
  const until = Date.now() + LATE_FOCUS_MS;
  const listener = panel.onDidChangeViewState(() => {
    if (!panel.active) return;
    listener.dispose();
    if (Date.now() <= until)
      void vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  });
  setTimeout(() => listener.dispose(), LATE_FOCUS_MS);
  // The next click in the panel opens something else: this reveal no longer holds the focus for its editor.
  return listener;
}
