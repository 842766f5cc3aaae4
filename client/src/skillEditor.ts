import * as vscode from 'vscode';

/**
 * SKILL.md files, and the files a skill+ package is made of. The server
 * answers for the latter only in folders whose SKILL.md is skill+, so
 * ordinary Python and Markdown stay with their own extensions.
 */
export const DOCUMENT_SELECTOR = [
  { scheme: 'file', pattern: '**/SKILL.md' },
  { scheme: 'file', pattern: '**/{flow.py,flow.yaml,state.py,spec.md}' },
  { scheme: 'file', pattern: '**/references/*.md' },
  { scheme: 'file', pattern: '**/rules/*.{md,py}' },
  // Codex's metadata and the evals beside a skill.
  { scheme: 'file', pattern: '**/agents/openai.yaml' },
  { scheme: 'file', pattern: '**/evals/{evals,*quer*}.json' },
];

/** Skillgraph's configuration files: the server reports their mistakes. */
export const CONFIG_SELECTOR = [{ scheme: 'file', pattern: '**/.skillgraph.{yaml,yml,json}' }];

/**
 * The editor a command acts on: the active text editor, else — when a
 * walkthrough, a preview or another editor that is not text has the focus —
 * a visible editor showing a skill file.
 */
export function skillEditor(): vscode.TextEditor | undefined {
  return (
    vscode.window.activeTextEditor ??
    vscode.window.visibleTextEditors.find((editor) => vscode.languages.match(DOCUMENT_SELECTOR, editor.document) > 0)
  );
}
