import type { FormatContext, FormatResult } from '../../analysis/formatContext';
import { checkBody } from './bodyRules';

/** A plain Agent Skill: no graph, only its body's links. */
export function loadAgentSkill(context: FormatContext): FormatResult {
  return { nodes: [], edges: [], diagnostics: checkBody(context) };
}
