import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import { compileTodo } from '../../../forms/compileFindings';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Scaffold } from './proseScaffold';

// What compiling prose to AIP reports about its scaffold: the code blocks no step holds, the whole body read as one
// step, the steps that make no named value; and the order an author reads them in.

/** A finding for each fenced block outside every step: it stays only in `source/original-SKILL.md`. */
export function strayFenceFindings(analysis: AnalysisBase, scaffold: Scaffold): Diagnostic[] {
  return scaffold.strayFences.map((fence) =>
    diagnostic(
      compileTodo,
      analysis.file,
      fence.open,
      'This code block lies outside the steps, so no step runs or cites it; it stays only in source/original-SKILL.md. Move it into the step it belongs to, or refine the steps.',
    ),
  );
}

/** The finding when the prose has no steps to read and the whole skill became one step. */
export function wholeBodyFinding(resultFile: string, at: { start: number; end: number }): Diagnostic {
  return diagnostic(
    compileTodo,
    resultFile,
    at,
    'The prose has no steps to read (no `Step N` headings, numbered list or first/then sentences), so the whole skill is one step. Split it into the steps it describes.',
  );
}

/**
 * The TODOs of each step, at its name in the result: the whole body read as one step, and a step that makes no
 * named value (`advice` says what to do in the version written).
 */
export function stepFindings(scaffold: Scaffold, skillMd: string, resultFile: string, advice: string): Diagnostic[] {
  return scaffold.steps.flatMap((step) => {
    const at = locate(skillMd, `- name: ${step.name}\n`, `- name: ${step.name}`.length);
    return [
      ...(scaffold.outline.source === 'whole body' ? [wholeBodyFinding(resultFile, at)] : []),
      ...(step.outputs.length === 0
        ? [
            diagnostic(
              compileTodo,
              resultFile,
              at,
              `Step \`${step.name}\` produces no named value the prose makes clear. ${advice}`,
            ),
          ]
        : []),
    ];
  });
}

/** Findings in the order an author reads them: those in the source first, then the result's from top to bottom. */
export function inReadingOrder(findings: Diagnostic[], resultFile: string): Diagnostic[] {
  const inResult = (item: Diagnostic) => item.file === resultFile;
  return [
    ...findings.filter((item) => !inResult(item)),
    ...findings.filter(inResult).sort((a, b) => a.span.start - b.span.start),
  ];
}

/** Where a `- name: x` line's `name: x` is in the result (searched from `from`). */
export function locate(text: string, needle: string, length: number, from = 0): { start: number; end: number } {
  const at = text.indexOf(needle, Math.max(0, from));
  const start = at === -1 ? 0 : at + 2;
  return { start, end: at === -1 ? 0 : at + length };
}
