import { pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  type CodeAction,
  type TextDocumentEdit,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { chosenFix, compatibleFixes } from '../fixes/chooseFixes';
import type { Fix, FileEdit } from '../checks/engine/fix';
import { fixesFor } from '../fixes/skillFixes';
import { suppressionEdit } from '../fixes/suppressionFixes';
import { FILE_START_RANGE, type Span } from '../parse/text/lineIndex';
import { toLspDiagnostic } from './lspDiagnostics';
import type { DocumentView } from '../analysis/documentView';
import { appendTo } from '../listMap';
import { unusedSuppression } from '../checks/engine/suppressions';
import { FIX_ALL_KIND } from '../protocol';

/** Whether an action of `kind` answers a request for the kinds `only` (none: every kind). */
function wanted(kind: string, only: readonly string[] | undefined): boolean {
  return !only || only.some((asked) => kind === asked || kind.startsWith(`${asked}.`));
}

/**
 * The code actions of a document: for each finding overlapping `span`, its
 * fixes (computed in fixes/, the same `skillgraph fix` applies) and a
 * comment that suppresses it; "fix all" when more than one safe fix waits;
 * and the source action that applies every safe fix of the document.
 */
export function codeActions(view: DocumentView, span: Span, only?: readonly string[]): CodeAction[] {
  const mine = view.analysis.diagnostics.filter((item) => item.file === view.file);
  const actions: CodeAction[] = [];
  const safe = wanted(FIX_ALL_KIND, only) || wanted(CodeActionKind.QuickFix, only) ? safeFixes(view, mine) : [];
  if (wanted(CodeActionKind.QuickFix, only)) {
    const here = mine.filter((candidate) => candidate.span.start <= span.end && span.start <= candidate.span.end);
    for (const item of here) {
      for (const fix of fixesFor(view.analysis, item).filter((candidate) => !candidate.diskOnly))
        actions.push(action(view, fix.title, CodeActionKind.QuickFix, [item], fix.edits, fix.preferred));
      const suppress = item.code === unusedSuppression.code ? undefined : suppressionEdit(view.analysis, item);
      if (suppress)
        actions.push(
          action(view, `Suppress ${item.code} on this line`, CodeActionKind.QuickFix, [item], [suppress], false),
        );
    }
    // Where one safe fix is offered, the others of the document come along in one action.
    if (safe.length > 1 && safe.some((fix) => here.includes(fix.diagnostic)))
      actions.push(fixAll(view, safe, CodeActionKind.QuickFix));
  }
  if (wanted(FIX_ALL_KIND, only) && safe.length > 0) actions.push(fixAll(view, safe, FIX_ALL_KIND));
  return actions;
}

/** The safe fixes of the document's findings that can be applied together. */
function safeFixes(view: DocumentView, findings: Diagnostic[]): Fix[] {
  const choice = { unsafe: false, onDisk: false };
  return compatibleFixes(
    findings.flatMap((item) => {
      const fix = chosenFix(fixesFor(view.analysis, item), choice);
      return fix ? [fix] : [];
    }),
  );
}

function fixAll(view: DocumentView, fixes: Fix[], kind: string): CodeAction {
  return action(
    view,
    `Fix all safe Skillgraph problems (${fixes.length})`,
    kind,
    fixes.map((fix) => fix.diagnostic),
    fixes.flatMap((fix) => fix.edits),
    false,
  );
}

function action(
  view: DocumentView,
  title: string,
  kind: string,
  findings: Diagnostic[],
  edits: FileEdit[],
  preferred: boolean,
): CodeAction {
  return {
    title,
    kind,
    diagnostics: findings.map((item) => toLspDiagnostic(view, item)),
    edit: workspaceEdit(view, edits),
    ...(preferred ? { isPreferred: true } : {}),
  };
}

const uriOf = (view: DocumentView, file: string) => (file === view.file ? view.uri : pathToFileURL(file).href);

/**
 * The edits as the protocol carries them: text edits by document, or, when a file is created, document changes (a new
 * file never replaces one that exists).
 */
function workspaceEdit(view: DocumentView, edits: FileEdit[]): WorkspaceEdit {
  const byUri = new Map<string, TextEdit[]>();
  const created: string[] = [];
  for (const edit of edits) {
    const uri = uriOf(view, edit.file);
    if (edit.kind === 'create') {
      created.push(uri);
      byUri.set(uri, [{ range: FILE_START_RANGE, newText: edit.text }]);
    } else if (edit.kind === 'replace') {
      const range = view.files.rangeOf({ start: edit.start, end: edit.end, file: edit.file });
      appendTo(byUri, uri, { range, newText: edit.newText });
    }
  }
  if (created.length === 0) return { changes: Object.fromEntries(byUri) };
  return {
    documentChanges: [
      ...created.map((uri) => ({ kind: 'create' as const, uri, options: { overwrite: false, ignoreIfExists: true } })),
      ...[...byUri].map(([uri, textEdits]): TextDocumentEdit => ({
        textDocument: { uri, version: uri === view.uri ? view.version : null },
        edits: textEdits,
      })),
    ],
  };
}
