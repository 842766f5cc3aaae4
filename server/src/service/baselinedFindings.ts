import { sourceOf, type AnalysisBase } from '../analysis/skillAnalysis';
import type { Diagnostic } from '../checks/engine/diagnostic';
import { fingerprintOf, ownText } from '../rules/fingerprint';
import { BaselineMatch } from '../config/baseline';
import type { RunSettings } from '../config/runSettings';

/** The findings of an analysis its configuration's baseline accepts: the editor shows what is new, as CI does. */
export function baselinedFindings(settings: RunSettings, analysis: AnalysisBase): ReadonlySet<Diagnostic> {
  const baseline = settings.baselineFor(analysis.file);
  if (!baseline || baseline.entries.length === 0) return new Set();
  const match = new BaselineMatch(baseline);
  return new Set(
    analysis.diagnostics.filter((item) =>
      match.accepts(item.file, fingerprintOf(item, ownText(sourceOf(analysis, item.file), item.span))),
    ),
  );
}
