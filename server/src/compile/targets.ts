import * as path from 'node:path';
import type { CompileTarget } from '../analysis/format';
import type { AnalysisBase } from '../analysis/skillAnalysis';
import { FORMAT_TARGETS, formatOf } from '../formats';
import { agentSkillName } from '../forms/compiled';

/** The forms of its graph every skill compiles to, whatever its format. */
const IR: CompileTarget = { id: 'ir', title: 'Graph IR (JSON)', singleFile: 'skill.ir.json' };
const MERMAID: CompileTarget = { id: 'mermaid', title: 'Mermaid diagram', singleFile: 'graph.mmd' };
const DOT: CompileTarget = { id: 'dot', title: 'Graphviz DOT diagram', singleFile: 'graph.dot' };
export const GRAPH_TARGETS = { ir: IR, mermaid: MERMAID, dot: DOT };

/** What `skillgraph compile --to` can make: the graph IR, a form of a skill (a format's target), a diagram. */
export const COMPILE_TARGETS: readonly CompileTarget[] = [IR, ...FORMAT_TARGETS, MERMAID, DOT];

/** Every version a target is written in (`--aip-version`). */
export const TARGET_VERSIONS: readonly string[] = [
  ...new Set(COMPILE_TARGETS.flatMap((target) => (target.versions ?? []).map((item) => item.version))),
];

/** The target a name given by a user stands for (its own name, or a former one), if any. */
export function compileTargetNamed(name: string): CompileTarget | undefined {
  return COMPILE_TARGETS.find((target) => target.id === name || target.formerNames?.includes(name));
}

/** The targets that fit a skill (a skill is never compiled to its own form; AIP 0.3 migrates to 0.5). */
export function targetsFor(analysis: AnalysisBase): CompileTarget[] {
  const own = (formatOf(analysis).compile ?? []).flatMap((compiler) => compileTargetNamed(compiler.to) ?? []);
  return [IR, ...own, MERMAID, DOT];
}

/** The versions of a target a skill compiles to (its compiler's, when it writes fewer than the target has). */
export function versionsFor(
  analysis: AnalysisBase,
  target: CompileTarget,
): readonly { version: string; title: string }[] {
  const compiler = formatOf(analysis).compile?.find((candidate) => candidate.to === target.id);
  return compiler?.versions ?? target.versions ?? [];
}

/**
 * Where a compiled skill goes unless the user says otherwise: beside the
 * skill's folder, in `compiled-<target>/<name>/`. A result that is an Agent
 * Skill gets a name valid there; a MetaSkill keeps its own.
 */
export function defaultOutDir(skillDir: string, name: string | undefined, targetName: string): string {
  const target = compileTargetNamed(targetName);
  const own = name && /^[\w.-]+$/.test(name) && name !== '.' && name !== '..' ? name : path.basename(skillDir);
  return path.join(
    path.dirname(skillDir),
    `compiled-${target?.id ?? targetName}`,
    target?.agentSkill ? agentSkillName(own) : own,
  );
}
