import { pathToFileURL } from 'node:url';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic as LspDiagnostic } from 'vscode-languageserver-types';
import type { Diagnostic, Severity } from '../checks/engine/diagnostic';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { ruleOf } from '../rules';
import type { LspRange } from '../protocol';

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Converts one diagnostic to LSP, with a link to its docs page. */
export function toLspDiagnostic(view: DocumentView, item: Diagnostic, docsBase?: string): LspDiagnostic {
  return lspDiagnosticAt(rangeOf(view, item.span), item, docsBase);
}

/** One diagnostic as LSP, at `range` (its span's lines and characters in its file). */
export function lspDiagnosticAt(range: LspRange, item: Diagnostic, docsBase?: string): LspDiagnostic {
  return {
    range,
    severity: SEVERITIES[item.severity],
    code: item.code,
    ...(docsBase ? { codeDescription: { href: `${docsBase}/${item.code}.md` } } : {}),
    source: 'skillgraph',
    message: item.message,
    // What never runs, the editor fades.
    ...(ruleOf(item.code)?.unnecessary ? { tags: [DiagnosticTag.Unnecessary] } : {}),
    ...(item.data ? { data: item.data } : {}),
    // The other skill of a pair: the editor links to it from the finding.
    ...(item.related
      ? {
          relatedInformation: item.related.map((place) => ({
            location: { uri: pathToFileURL(place.file).href, range: place.range },
            message: place.message,
          })),
        }
      : {}),
  };
}

/**
 * The document's diagnostics for the editor: those in its own file (a skill+ package spreads them over several), with
 * the severities the analysis gave them (the profile's, then the user's), without those `hidden` (a baseline's).
 */
export function documentDiagnostics(
  view: DocumentView,
  docsBase?: string,
  hidden: ReadonlySet<Diagnostic> = new Set(),
): LspDiagnostic[] {
  return view.analysis.diagnostics
    .filter((item) => item.file === view.file && !hidden.has(item))
    .map((item) => toLspDiagnostic(view, item, docsBase));
}
