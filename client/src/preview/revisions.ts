import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { FileAtRevisionRequest } from '../../../server/src/protocol';

// A skill's files as a git revision has them, for the diff editor a removed step opens, and the revision a diff
// editor compares with, for the graph changes opened from it. The server reads git; this only names what to read.

export const REVISION_SCHEME = 'skillgraph-revision';

/** `file` (of the skill whose SKILL.md is `skill`) at `revision`, as a read-only document. */
export function revisionUri(skill: vscode.Uri, file: string, revision: string): vscode.Uri {
  return vscode.Uri.file(file).with({
    scheme: REVISION_SCHEME,
    query: JSON.stringify({ skill: skill.toString(), revision }),
  });
}

/** The text of a `revisionUri` document, from the server (which reads it from git). */
export class RevisionContent implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: () => LanguageClient | undefined) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { skill, revision } = JSON.parse(uri.query) as { skill: string; revision: string };
    const answer = await this.client()?.sendRequest(FileAtRevisionRequest, { uri: skill, file: uri.fsPath, revision });
    if (!answer) throw new Error(`Skillgraph could not read ${uri.fsPath} at ${revision}`);
    if ('error' in answer) throw new Error(answer.error);
    return answer.text;
  }
}

/** A document's revision from its URI: VS Code's git documents (`ref` `~` or none is the index) and ours. */
function revisionOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'git' && uri.scheme !== REVISION_SCHEME) return undefined;
  try {
    const query = JSON.parse(uri.query) as { ref?: string; revision?: string };
    const ref = query.revision ?? query.ref;
    // The index has no revision to read a tree from: its changes are shown against HEAD, which it was taken from.
    return ref && ref !== '~' ? ref : 'HEAD';
  } catch {
    return undefined;
  }
}

/**
 * The file and revision a diff editor showing `file` compares: its modified side's file, and the revision of its
 * original side; undefined when the active editor is not such a diff.
 */
export function diffEditorRevision(file: vscode.Uri | undefined): { file: vscode.Uri; revision: string } | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
  const revision = revisionOf(input.original);
  if (!revision || (file && file.fsPath !== input.modified.fsPath)) return undefined;
  return { file: vscode.Uri.file(input.modified.fsPath), revision };
}
