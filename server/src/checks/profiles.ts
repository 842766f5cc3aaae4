import type { Severity } from './diagnostic';
import type { RuleCode } from './rules';

/** Which consumer the author targets. Profiles change severities and accepted keys, never parsing. */
export type ProfileId = 'agentskills' | 'claude-code' | 'claude-api' | 'codex' | 'vscode';

export const PROFILE_IDS: ProfileId[] = ['agentskills', 'claude-code', 'claude-api', 'codex', 'vscode'];

const SPEC_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const CLAUDE_CODE_KEYS = [
  ...SPEC_KEYS,
  'when_to_use',
  'argument-hint',
  'arguments',
  'disable-model-invocation',
  'user-invocable',
  'model',
  'effort',
  'context',
  'agent',
  'hooks',
  'paths',
  'shell',
];
const VSCODE_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'argument-hint', 'user-invocable', 'disable-model-invocation', 'context'];

export interface Profile {
  id: ProfileId;
  /** Who the profile stands for, for messages ("Claude Code ignores …"). */
  consumer: string;
  knownKeys: ReadonlySet<string>;
  /** Claude Code defaults a missing `name` to the folder name. */
  nameRequired: boolean;
  severities: Partial<Record<RuleCode, Severity>>;
}

export const PROFILES: Record<ProfileId, Profile> = {
  agentskills: { id: 'agentskills', consumer: 'the Agent Skills specification', knownKeys: new Set(SPEC_KEYS), nameRequired: true, severities: {} },
  'claude-code': { id: 'claude-code', consumer: 'Claude Code', knownKeys: new Set(CLAUDE_CODE_KEYS), nameRequired: false, severities: { unknown_frontmatter_key: 'information' } },
  'claude-api': { id: 'claude-api', consumer: 'the Claude API upload', knownKeys: new Set(SPEC_KEYS), nameRequired: true, severities: { unknown_frontmatter_key: 'error' } },
  codex: { id: 'codex', consumer: 'Codex', knownKeys: new Set(SPEC_KEYS), nameRequired: true, severities: {} },
  vscode: { id: 'vscode', consumer: "VS Code's skill validator", knownKeys: new Set(VSCODE_KEYS), nameRequired: true, severities: {} },
};

export function isProfileId(value: string): value is ProfileId {
  return (PROFILE_IDS as string[]).includes(value);
}
