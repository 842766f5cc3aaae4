import type { FormatContext, FormatResult } from '../../../analysis/formatContext';
import { checkBody } from '../../agent-skill';
import { checkBindings } from './bindings';
import { buildFlowGraph } from './flowModel';
import { checkFlowShape } from './flowRules';
import { readPackage, type SkillPlusPackage, invalidState } from './readPackage';
import { checkTipsAndRules, invalidRuleDecorator } from './tipsRulesRules';
import { dynamicFlow } from './flow';
import { diagnostic } from '../../../checks/engine/diagnostic';

/**
 * A skill+ package: its flow (either front end), State, tips, rules and
 * spec, read from their files and checked across them; the model spans
 * those files. The SKILL.md body is the brief: its links are checked as
 * any skill's.
 */
export function loadSkillplus(context: FormatContext): FormatResult & { skillplus: SkillPlusPackage } {
  const pkg = readPackage(context);
  const diagnostics = [...pkg.diagnostics, ...checkBody(context)];
  if (pkg.flow) diagnostics.push(...checkFlowShape(pkg.flow, pkg.state), ...checkBindings(pkg.flow, pkg.state));
  const { diagnostics: crossFile, attachments } = checkTipsAndRules(pkg, context.fs, context.file);
  diagnostics.push(...crossFile);
  pkg.attachments = attachments;
  for (const py of pkg.python.values()) {
    // flow.py's own reader says what is not static; a state or rule file that is not Python is worth a word at its
    // first error.
    if (py.file === pkg.flow?.file || py.errors.length === 0) continue;
    diagnostics.push(
      diagnostic(
        py.file === pkg.state?.file ? invalidState : invalidRuleDecorator,
        py.file,
        py.errors[0],
        `${py.file.split('/').pop()} is not valid Python here; what follows is read as far as it goes.`,
      ),
    );
  }
  if (pkg.flow && pkg.flow.front === 'py') {
    const errors = pkg.python.get(pkg.flow.file)?.errors ?? [];
    if (errors.length > 0)
      diagnostics.push(
        diagnostic(
          dynamicFlow,
          pkg.flow.file,
          errors[0],
          'flow.py is not valid Python here; the flow is read as far as it goes.',
        ),
      );
  }
  const graph = pkg.flow
    ? buildFlowGraph(pkg.flow, pkg.state, attachments)
    : { nodes: [], edges: [], externalInputs: [], groups: [] };
  return { ...graph, diagnostics, sources: pkg.sources, skillplus: pkg };
}
