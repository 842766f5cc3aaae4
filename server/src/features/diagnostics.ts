import { DiagnosticSeverity, DiagnosticTag, type Diagnostic as LspDiagnostic } from 'vscode-languageserver-types';
import type { Diagnostic, Severity } from '../checks/diagnostic';
import type { RuleCode } from '../checks/rules';
import { rangeOf, type DocumentView } from './documentView';

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Per-rule severity overrides from the settings; `off` drops the rule. */
export type SeverityOverrides = Partial<Record<RuleCode, Severity | 'off'>>;

/** Converts one diagnostic to LSP, with a link to its docs page. */
export function toLspDiagnostic(view: DocumentView, item: Diagnostic, docsBase?: string): LspDiagnostic {
  return {
    range: rangeOf(view, item.span),
    severity: SEVERITIES[item.severity],
    code: item.code,
    ...(docsBase ? { codeDescription: { href: `${docsBase}/${item.code}.md` } } : {}),
    source: 'skillgraph',
    message: item.message,
    ...(item.code === 'unreachable_step' ? { tags: [DiagnosticTag.Unnecessary] } : {}),
    ...(item.data ? { data: item.data } : {}),
  };
}

/** Diagnostics after the user's severity overrides (`off` drops them). */
export function shownDiagnostics(diagnostics: Diagnostic[], overrides: SeverityOverrides): Diagnostic[] {
  return diagnostics.flatMap((item) => {
    const override = overrides[item.code];
    if (override === 'off') return [];
    return [override ? { ...item, severity: override } : item];
  });
}

/** The document's diagnostics for the editor: those in its own file (a skill+ package spreads them over several). */
export function documentDiagnostics(
  view: DocumentView,
  overrides: SeverityOverrides,
  docsBase?: string,
): LspDiagnostic[] {
  return shownDiagnostics(
    view.analysis.diagnostics.filter((item) => item.file === view.file),
    overrides,
  ).map((item) => toLspDiagnostic(view, item, docsBase));
}
