import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ContextViewRequest, GraphRequest, type GraphJson, type SkillInfo } from '../../../server/src/protocol';
import { contextHtml } from '../../webview/html';
import type { ContextHostMessage, ContextNode, ContextPageMessage } from '../../webview/protocol';
import { skillEditor } from '../skillEditor';
import { nodeAtCursor } from './nodeAtCursor';
import { keepFocusAfterReveal } from './keepFocus';
import { openPagePanel } from './webviewPanel';

interface Shown {
  panel: vscode.WebviewPanel;
  node: string;
  state: Record<string, unknown>;
  event?: string;
  round?: number;
}

/**
 * "What the model sees here" for skill+ packages: one panel per package,
 * showing the runtime's per-turn context at a node for a State the author
 * edits. The server builds the context; the panel only draws it.
 */
export class ContextViews implements vscode.Disposable {
  private readonly shown = new Map<string, Shown>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly client: () => LanguageClient | undefined,
    private readonly skillInfo: (uri: vscode.Uri) => Promise<SkillInfo | null>,
  ) {}

  /**
   * Opens the context of the skill+ package `from` belongs to, at `node` (else the node under the cursor, else a pick).
   */
  async open(from: vscode.Uri | undefined, node: string | undefined): Promise<void> {
    // The editor, for the node under its cursor when it shows that file.
    const editor = skillEditor();
    const info = from ? await this.skillInfo(from) : null;
    if (!from || !info || !info.context) {
      void vscode.window.showInformationMessage(
        'Skillgraph: "what the model sees" is for skill+ packages; open a file of one.',
      );
      return;
    }
    const skill = vscode.Uri.parse(info.skillFile);
    const graph = await this.graph(skill);
    if (!graph) return;
    const nodes = nodesOf(graph);
    const chosen =
      node ??
      (editor && editor.document.uri.toString() === from.toString()
        ? nodeAtCursor(graph, editor.document.uri.fsPath, editor.selection.active)?.id
        : undefined) ??
      (await pick(nodes));
    if (!chosen) return;
    const key = skill.toString();
    const existing = this.shown.get(key);
    if (existing) {
      existing.node = chosen;
      existing.panel.reveal(undefined, true);
      await this.update(skill, existing);
      return;
    }
    const panel = openPagePanel(
      this.context.extensionUri,
      {
        viewType: 'skillgraph.context',
        title: `Model context: ${info.name ?? path.basename(path.dirname(skill.fsPath))}`,
        show: { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      },
      { html: contextHtml, script: 'context.js', style: 'context-style.css' },
    );
    const shown: Shown = { panel, node: chosen, state: {} };
    this.shown.set(key, shown);
    panel.onDidDispose(() => this.shown.delete(key));
    panel.webview.onDidReceiveMessage((message: ContextPageMessage) => void this.receive(skill, shown, message));
  }

  private async receive(skill: vscode.Uri, shown: Shown, message: ContextPageMessage): Promise<void> {
    if (message.type === 'ready') return this.update(skill, shown);
    if (message.type === 'compute') {
      Object.assign(shown, { node: message.node, state: message.state, event: message.event, round: message.round });
      return this.update(skill, shown);
    }
    // Only a file of this package, named relative to its folder.
    const file = path.resolve(path.dirname(skill.fsPath), message.file);
    if (path.relative(path.dirname(skill.fsPath), file).startsWith('..')) return;
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.One });
    keepFocusAfterReveal(shown.panel, editor);
  }

  private async graph(skill: vscode.Uri): Promise<GraphJson | null> {
    // The server analyses open documents.
    await vscode.workspace.openTextDocument(skill);
    return (
      (await this.client()
        ?.sendRequest(GraphRequest, { uri: skill.toString() })
        .catch(() => null)) ?? null
    );
  }

  private async update(skill: vscode.Uri, shown: Shown): Promise<void> {
    const client = this.client();
    const graph = await this.graph(skill);
    if (!client || !graph) return;
    const nodes = nodesOf(graph);
    const result = await client
      .sendRequest(ContextViewRequest, {
        uri: skill.toString(),
        node: shown.node,
        state: shown.state,
        ...(shown.event ? { event: shown.event } : {}),
        ...(shown.round ? { round: shown.round } : {}),
      })
      .catch((error: Error) => ({ error: error.message }));
    const message: ContextHostMessage = !result
      ? { type: 'error', message: 'The package could not be read.', nodes, node: shown.node }
      : 'error' in result
        ? { type: 'error', message: result.error, nodes, node: shown.node }
        : { type: 'context', context: result, nodes };
    await shown.panel.webview.postMessage(message);
  }

  dispose(): void {
    for (const shown of this.shown.values()) shown.panel.dispose();
  }
}

function nodesOf(graph: GraphJson): ContextNode[] {
  return graph.nodes
    .filter((node) => node.kind !== 'external-input' && node.kind !== 'missing')
    .map((node) => ({ id: node.id, kind: node.kind, ...(node.group ? { stage: node.group } : {}) }));
}

async function pick(nodes: ContextNode[]): Promise<string | undefined> {
  const chosen = await vscode.window.showQuickPick(
    nodes.map((node) => ({ label: node.id, description: `${node.kind}${node.stage ? ` in ${node.stage}` : ''}` })),
    { placeHolder: 'At which node? (what the model sees there)' },
  );
  return chosen?.label;
}
