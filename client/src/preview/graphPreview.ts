import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  GraphChangesRequest,
  GraphRequest,
  type GraphChanges,
  type GraphJson,
  type SkillInfo,
} from '../../../server/src/protocol';
import { previewHtml } from '../../webview/html';
import type { DirectionChoice, HostMessage, WebviewMessage } from '../../webview/protocol';
import { nodeAtCursor } from './nodeAtCursor';
import { keepFocusAfterReveal } from './keepFocus';
import { revisionUri } from './revisions';
import { openPagePanel } from './webviewPanel';

const DIRECTION_KEY = 'skillgraph.preview.direction';
/** Typing pauses this long before the graph is rebuilt. */
const UPDATE_DELAY_MS = 250;

/**
 * One graph preview per skill, beside it; the server computes the graph,
 * the webview only draws it. A skill+ package has one preview, opened from
 * any of its files, following edits in all of them.
 */
export class GraphPreviews implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The last graph shown per file, to find the node under the cursor without asking the server. */
  private readonly lastGraph = new Map<string, GraphJson>();
  /** The revision each preview shows the changes since, while it shows them. */
  private readonly changesSince = new Map<string, string>();
  /** The revision each preview last showed the changes since: the Changes button shows them again. */
  private readonly lastRevision = new Map<string, string>();
  private readonly lastChanges = new Map<string, GraphChanges>();
  /** The last reveal's hold on the focus for its editor, given up when the panel opens something else. */
  private keepingFocus: vscode.Disposable | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly client: () => LanguageClient | undefined,
    private readonly skillInfo: (uri: vscode.Uri) => Promise<SkillInfo | null>,
  ) {
    this.disposables.push(
      // A save changes a document's dirty state and comes here too, with no change to its text: nothing to redraw.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.scheduleUpdates(event.document.uri);
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => this.highlight(event.textEditor)),
    );
  }

  /**
   * The skill of the preview the user is looking at (the active one, else a visible one): commands run from it act on
   * that skill.
   */
  shownSkill(): vscode.Uri | undefined {
    const panels = [...this.panels];
    const [key] = panels.find(([, panel]) => panel.active) ?? panels.find(([, panel]) => panel.visible) ?? [];
    return key ? vscode.Uri.parse(key) : undefined;
  }

  /** Opens (or shows) the preview of the skill a file belongs to (a SKILL.md, or any file of a skill+ package). */
  async open(from: vscode.Uri | undefined, toSide: boolean): Promise<vscode.Uri | undefined> {
    const info = from && path.basename(from.fsPath) !== 'SKILL.md' ? await this.skillInfo(from) : null;
    const target =
      from && path.basename(from.fsPath) === 'SKILL.md' ? from : info ? vscode.Uri.parse(info.skillFile) : undefined;
    if (!target) {
      void vscode.window.showInformationMessage(
        'Skillgraph: open a SKILL.md (or a file of a skill+ package) to preview its graph.',
      );
      return undefined;
    }
    const key = target.toString();
    const existing = this.panels.get(key);
    if (existing) {
      existing.reveal(undefined, true);
      return target;
    }
    const panel = openPagePanel(
      this.context.extensionUri,
      {
        viewType: 'skillgraph.preview',
        title: `Graph: ${path.basename(path.dirname(target.fsPath))}`,
        show: { viewColumn: toSide ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, preserveFocus: true },
      },
      { html: previewHtml, script: 'webview.js', style: 'webview-style.css' },
    );
    this.panels.set(key, panel);
    panel.onDidDispose(() => {
      for (const map of [this.panels, this.lastGraph, this.changesSince, this.lastRevision, this.lastChanges])
        map.delete(key);
    });
    panel.webview.onDidReceiveMessage((message: WebviewMessage) => void this.receive(target, panel, message));
    return target;
  }

  /** Opens the preview of the skill a file belongs to beside it, showing the changes since `revision`. */
  async showChanges(from: vscode.Uri | undefined, revision: string): Promise<void> {
    const before = new Set(this.panels.keys());
    const target = await this.open(from, true);
    if (!target) return;
    this.changesSince.set(target.toString(), revision);
    this.lastRevision.set(target.toString(), revision);
    // A new preview asks for its graph once it is ready; one already open is told now.
    if (before.has(target.toString())) await this.update(target);
  }

  private async receive(uri: vscode.Uri, panel: vscode.WebviewPanel, message: WebviewMessage): Promise<void> {
    if (message.type === 'reveal' || message.type === 'showRemoved' || message.type === 'openSkill')
      this.keepingFocus?.dispose();
    switch (message.type) {
      case 'ready':
        await this.update(uri);
        return;
      case 'reveal': {
        // A skill+ node lives in the flow file; only files the drawn graph names are opened.
        const graph = this.lastGraph.get(uri.toString());
        const named =
          !message.file ||
          message.file === uri.fsPath ||
          (!!graph && [...graph.nodes, ...(graph.groups ?? [])].some((item) => item.file === message.file));
        if (!named) return;
        const document = await vscode.workspace.openTextDocument(message.file ? vscode.Uri.file(message.file) : uri);
        const editor = await vscode.window.showTextDocument(document, {
          viewColumn: this.editorColumn(document.uri, panel),
          preserveFocus: false,
        });
        const range = new vscode.Range(
          message.range.start.line,
          message.range.start.character,
          message.range.end.line,
          message.range.end.character,
        );
        editor.selection = new vscode.Selection(range.start, range.end);
        editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        this.keepingFocus = keepFocusAfterReveal(panel, editor);
        return;
      }
      case 'openSkill': {
        // Only a skill the drawn graph names is opened.
        const graph = this.lastGraph.get(uri.toString());
        const named = graph?.nodes.some(
          (node) => node.skillFile === message.file || node.routes?.some((route) => route.skillFile === message.file),
        );
        if (named)
          await vscode.window.showTextDocument(vscode.Uri.file(message.file), {
            viewColumn: this.editorColumn(uri, panel),
          });
        return;
      }
      case 'context':
        // The selected node, else the context view asks which.
        await vscode.commands.executeCommand('skillgraph.showContext', uri, message.nodeId ?? undefined);
        return;
      case 'changes': {
        const key = uri.toString();
        if (message.on) this.changesSince.set(key, this.lastRevision.get(key) ?? 'HEAD');
        else this.changesSince.delete(key);
        await this.update(uri);
        return;
      }
      case 'showRemoved':
        await this.showRemoved(uri, panel, message.nodeId);
        return;
      case 'direction':
        await this.context.workspaceState.update(DIRECTION_KEY, message.direction);
        return;
      case 'export':
        await this.export(uri, message.format, message.data);
        return;
    }
  }

  /** The column of an editor already showing the file, else the one next to the preview. */
  private editorColumn(uri: vscode.Uri, panel: vscode.WebviewPanel): vscode.ViewColumn {
    const shown = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri.toString());
    return (
      shown?.viewColumn ?? (panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One)
    );
  }

  /** An edit in a skill's folder (its SKILL.md, or any file of a skill+ package) redraws that skill's preview. */
  private scheduleUpdates(changed: vscode.Uri): void {
    for (const key of this.panels.keys()) {
      const skill = vscode.Uri.parse(key);
      const relative = path.relative(path.dirname(skill.fsPath), changed.fsPath);
      if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
      clearTimeout(this.timers.get(key));
      this.timers.set(
        key,
        setTimeout(() => {
          this.timers.delete(key);
          void this.update(skill);
        }, UPDATE_DELAY_MS),
      );
    }
  }

  private async update(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const panel = this.panels.get(key);
    const client = this.client();
    if (!panel || !client) return;
    // The server only analyses open documents.
    await vscode.workspace.openTextDocument(uri);
    const revision = this.changesSince.get(key);
    const answer = revision
      ? await client
          .sendRequest(GraphChangesRequest, { uri: key, revision })
          .catch((error: Error) => ({ error: error.message }))
      : undefined;
    const changes = answer && 'commit' in answer ? answer : undefined;
    const [graph, info] = await Promise.all([
      changes?.graph ?? client.sendRequest(GraphRequest, { uri: key }).catch(() => null),
      this.skillInfo(uri).catch(() => null),
    ]);
    if (!graph) return;
    if (changes) this.lastChanges.set(key, changes);
    else this.lastChanges.delete(key);
    // The steps the change removed are drawn, but are not in the text: the cursor is never in one.
    this.lastGraph.set(key, {
      ...graph,
      nodes: graph.nodes.filter((node) => changes?.nodes[node.id]?.change !== 'removed'),
    });
    const direction = this.context.workspaceState.get<DirectionChoice>(DIRECTION_KEY, 'auto');
    await panel.webview.postMessage({
      type: 'graph',
      graph,
      context: info?.context === true,
      direction,
      ...(revision ? { changes: { revision, answer: answer ?? { error: 'the server did not answer' } } } : {}),
    } satisfies HostMessage);
    const editor = vscode.window.activeTextEditor;
    if (editor) await this.highlight(editor);
  }

  /** Highlights the node whose step holds the cursor, in the preview of the skill the editor's file belongs to. */
  private async highlight(editor: vscode.TextEditor): Promise<void> {
    const file = editor.document.uri.fsPath;
    for (const [key, graph] of this.lastGraph) {
      const panel = this.panels.get(key);
      if (!panel || ![graph.skill.file, ...graph.nodes.map((node) => node.file)].includes(file)) continue;
      const node = nodeAtCursor(graph, file, editor.selection.active);
      await panel.webview.postMessage({ type: 'highlight', nodeId: node?.id ?? null } satisfies HostMessage);
    }
  }

  /**
   * Shows where a step the change removed was: the diff of its file between the revision and now (its text at the
   * revision alone when the file is gone).
   */
  private async showRemoved(uri: vscode.Uri, panel: vscode.WebviewPanel, nodeId: string): Promise<void> {
    const changes = this.lastChanges.get(uri.toString());
    const node = changes?.graph.nodes.find((item) => item.id === nodeId);
    if (!changes || !node || changes.nodes[nodeId]?.change !== 'removed') return;
    const before = revisionUri(uri, node.file, changes.commit);
    const viewColumn = this.editorColumn(vscode.Uri.file(node.file), panel);
    if (!fs.existsSync(node.file)) {
      await vscode.window.showTextDocument(before, { viewColumn });
      return;
    }
    const title = `${path.basename(node.file)} (${changes.revision}) ↔ now`;
    await vscode.commands.executeCommand('vscode.diff', before, vscode.Uri.file(node.file), title, { viewColumn });
  }

  /** Saves an export where the user chooses; the dialog asks before replacing, and the write is atomic. */
  private async export(uri: vscode.Uri, format: 'svg' | 'png', data: string): Promise<void> {
    const suggested = vscode.Uri.file(
      path.join(path.dirname(uri.fsPath), `${path.basename(path.dirname(uri.fsPath))}-graph.${format}`),
    );
    const target = await vscode.window.showSaveDialog({
      defaultUri: suggested,
      filters: format === 'svg' ? { SVG: ['svg'] } : { PNG: ['png'] },
    });
    if (!target) return;
    const bytes =
      format === 'svg'
        ? Buffer.from(data, 'utf8')
        : Buffer.from(data.replace(/^data:image\/png;base64,/, ''), 'base64');
    const temporary = `${target.fsPath}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temporary, bytes);
      fs.renameSync(temporary, target.fsPath);
      void vscode.window.showInformationMessage(
        `Skillgraph: graph saved to ${vscode.workspace.asRelativePath(target)}.`,
      );
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      void vscode.window.showErrorMessage(`Skillgraph: could not save the graph: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
