import type { Diagnostic, Severity } from './diagnostic';

/** A severity for each rule that differs from its default; `off` drops the rule's findings. */
export type SeverityMap = Partial<Record<string, Severity | 'off'>>;

export const SEVERITY_CHOICES: readonly (Severity | 'off')[] = ['error', 'warning', 'information', 'hint', 'off'];

export function isSeverityChoice(value: unknown): value is Severity | 'off' {
  return typeof value === 'string' && (SEVERITY_CHOICES as string[]).includes(value);
}

/**
 * The findings with each severity map applied in turn (a profile's, then the user's): the last map that names a
 * rule decides its severity, and `off` drops the finding. Applied once, when an analysis is made.
 */
export function applySeverities(diagnostics: Diagnostic[], ...maps: (SeverityMap | undefined)[]): Diagnostic[] {
  const given = maps.filter((map): map is SeverityMap => map !== undefined && Object.keys(map).length > 0);
  if (given.length === 0) return diagnostics;
  return diagnostics.flatMap((item) => {
    let severity: Severity | 'off' = item.severity;
    for (const map of given) severity = map[item.code] ?? severity;
    if (severity === 'off') return [];
    return severity === item.severity ? [item] : [{ ...item, severity }];
  });
}
