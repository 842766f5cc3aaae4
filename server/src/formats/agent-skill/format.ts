import type { Format } from '../../analysis/format';
import type { AnalysisBase } from '../../analysis/skillAnalysis';
import { PROSE_TO_AIP } from '../aip';
import { loadAgentSkill } from './loadAgentSkill';

/** The analysis of a plain Agent Skill: nothing beyond what every analysis has. */
export type AgentSkillAnalysis = AnalysisBase & { format: 'agent-skill' };

/** A plain Agent Skill: any skill no other format claims. A prose skill compiles to an AIP package. */
export const agentSkillFormat: Format<AgentSkillAnalysis> = {
  id: 'agent-skill',
  title: 'plain Agent Skill',
  marked: () => false,
  load: (context) => ({ ...loadAgentSkill(context), part: {} }),
  compile: [PROSE_TO_AIP],
  targets: [{ id: 'agent-skill', title: 'Plain Agent Skill', formerNames: ['plain'], agentSkill: true }],
};
