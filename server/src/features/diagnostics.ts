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

/** The document's diagnostics for the editor, after the user's severity overrides. */
export function documentDiagnostics(view: DocumentView, overrides: SeverityOverrides, docsBase?: string): LspDiagnostic[] {
  return view.analysis.diagnostics.flatMap((item) => {
    const override = overrides[item.code];
    if (override === 'off') return [];
    return [toLspDiagnostic(view, override ? { ...item, severity: override } : item, docsBase)];
  });
}
