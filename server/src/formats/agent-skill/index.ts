// The plain Agent Skill format (`agent-skill`): what every SKILL.md is checked for, and the loader of a skill with
// no structured form (its body's links only).
export { checkBody } from './bodyRules';
export { checkSkillFile } from './profileRules';
export { checkCodexMetadata, CODEX_METADATA_FILE, isCodexMetadata } from './codexMetadata';
export { checkEvalFiles, isEvalFile } from './evalFiles';
export { EVALS_FILE } from './evalCases';
export { readFrontmatter, unquotedColon } from './readFrontmatter';
export { loadAgentSkill } from './loadAgentSkill';
export { placeholderCollision } from './placeholderCollisions';
export { nameMismatch, portableValue } from './frontmatterRules';
export { unknownFrontmatterKey } from './frontmatterKeys';

export { agentSkillFormat, type AgentSkillAnalysis } from './format';
