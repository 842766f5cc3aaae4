/** Which consumer the author targets. Profiles change severities and accepted keys, never parsing. */
export type ProfileId = 'agentskills' | 'claude-code' | 'claude-api' | 'codex' | 'vscode' | 'cursor' | 'opensquilla';

export const PROFILE_IDS: ProfileId[] = [
  'agentskills',
  'claude-code',
  'claude-api',
  'codex',
  'vscode',
  'cursor',
  'opensquilla',
];

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
const VSCODE_KEYS = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'argument-hint',
  'user-invocable',
  'disable-model-invocation',
  'context',
];
/** What Cursor documents for a skill: the spec's keys, and when and where it is offered. */
const CURSOR_KEYS = [...SPEC_KEYS, 'disable-model-invocation', 'paths'];
/** What OpenSquilla's skill loader reads (its `SkillSpec` fields); it ignores any other key. */
export const OPENSQUILLA_KEYS = [
  ...SPEC_KEYS,
  'description_zh',
  'description_en',
  'kind',
  'meta_priority',
  'always',
  'triggers',
  'final_text_mode',
  'composition',
  'provenance',
  'request_template',
  'output_contract',
  'eval_prompts',
  'preference_keys',
  'policy_tags',
  'user-invocable',
  'disable-model-invocation',
  'homepage',
  'entrypoint',
];

/**
 * A client that reads a key beyond the specification: its name, and the profile that checks its skills (none for a
 * client Skillgraph has no profile of).
 */
export interface KeyReader {
  client: string;
  profile?: ProfileId;
}

/**
 * Microsoft 365 Copilot's Cowork reads `cowork` (`category`, `icon`: the card it shows for the skill), as the skills
 * written for it say; it is read nowhere else, and Skillgraph has no profile of it.
 */
const COWORK_KEYS = ['cowork'];

/**
 * Each key a client reads beyond the specification, and the clients that read it (`argument-hint`: Claude Code and VS
 * Code). A skill for every client may carry them: the clients that do not read a key ignore it.
 */
export const CLIENT_KEYS: ReadonlyMap<string, readonly KeyReader[]> = (() => {
  const readers = new Map<string, KeyReader[]>();
  const clients: [KeyReader, string[]][] = [
    [{ client: 'Claude Code', profile: 'claude-code' }, CLAUDE_CODE_KEYS],
    [{ client: 'VS Code', profile: 'vscode' }, VSCODE_KEYS],
    [{ client: 'Cursor', profile: 'cursor' }, CURSOR_KEYS],
    [{ client: 'OpenSquilla', profile: 'opensquilla' }, OPENSQUILLA_KEYS],
    [{ client: 'Microsoft 365 Copilot Cowork' }, COWORK_KEYS],
  ];
  for (const [reader, keys] of clients)
    for (const key of keys) if (!SPEC_KEYS.includes(key)) readers.set(key, [...(readers.get(key) ?? []), reader]);
  return readers;
})();

export interface Profile {
  id: ProfileId;
  /** Who the profile stands for, for messages ("Claude Code ignores …"). */
  consumer: string;
  knownKeys: ReadonlySet<string>;
  /**
   * What a key another client reads (`CLIENT_KEYS`) is when this consumer does not: a note, once per skill, where the
   * consumer is every client (the specification: each client reads its own keys and ignores the others'), or an unknown
   * key like any other, where the consumer is one client or a validator that rejects what it does not know.
   */
  clientKeys: 'noted' | 'unknown';
  /**
   * What the consumer does with a skill without `name`: rejects it, warns and loads it (VS Code 1.139: "Skill should
   * provide a name."), or names it after its folder (Claude Code, Codex).
   */
  missingName: 'error' | 'warning' | 'allowed';
  /**
   * What the consumer does with a description over the specification's 1,024 characters: rejects the skill, or (Claude
   * Code) lists it cut at its own limit, which `description_truncated` reports.
   */
  longDescription: 'rejected' | 'truncated';
  /** The consumer reads `metadata` as nested maps of its own (OpenSquilla's namespaces), not as strings. */
  nestedMetadata: boolean;
}

export const PROFILES: Record<ProfileId, Profile> = {
  agentskills: {
    id: 'agentskills',
    consumer: 'the Agent Skills specification',
    knownKeys: new Set(SPEC_KEYS),
    clientKeys: 'noted',
    missingName: 'error',
    longDescription: 'rejected',
    nestedMetadata: false,
  },
  'claude-code': {
    id: 'claude-code',
    consumer: 'Claude Code',
    knownKeys: new Set(CLAUDE_CODE_KEYS),
    clientKeys: 'unknown',
    missingName: 'allowed',
    longDescription: 'truncated',
    nestedMetadata: false,
  },
  // The upload validator is strict: it rejects unknown keys and values that are not strings where the spec asks for
  // strings.
  'claude-api': {
    id: 'claude-api',
    consumer: 'the Claude API upload',
    knownKeys: new Set(SPEC_KEYS),
    clientKeys: 'unknown',
    missingName: 'error',
    longDescription: 'rejected',
    nestedMetadata: false,
  },
  // Codex's loader names a skill without `name` after its folder, as Claude Code does.
  codex: {
    id: 'codex',
    consumer: 'Codex',
    knownKeys: new Set(SPEC_KEYS),
    clientKeys: 'unknown',
    missingName: 'allowed',
    longDescription: 'rejected',
    nestedMetadata: false,
  },
  // VS Code (1.139) warns, rather than fails, when the name and the folder differ and when there is no `name`.
  vscode: {
    id: 'vscode',
    consumer: "VS Code's skill validator",
    knownKeys: new Set(VSCODE_KEYS),
    clientKeys: 'unknown',
    missingName: 'warning',
    longDescription: 'rejected',
    nestedMetadata: false,
  },
  cursor: {
    id: 'cursor',
    consumer: 'Cursor',
    knownKeys: new Set(CURSOR_KEYS),
    clientKeys: 'unknown',
    missingName: 'error',
    longDescription: 'rejected',
    nestedMetadata: false,
  },
  // OpenSquilla skips a skill only when its frontmatter does not load or has no string `name` (and over 256,000 bytes):
  // the spec's naming and length rules are portability advice there.
  opensquilla: {
    id: 'opensquilla',
    consumer: 'OpenSquilla',
    knownKeys: new Set(OPENSQUILLA_KEYS),
    clientKeys: 'unknown',
    missingName: 'error',
    longDescription: 'rejected',
    nestedMetadata: true,
  },
};

export function isProfileId(value: string): value is ProfileId {
  return (PROFILE_IDS as string[]).includes(value);
}

/**
 * Why an analysis uses its profile: the user chose it (`setting`: the
 * editor's `skillgraph.profile` or the CLI's `--profile`), the configuration
 * file did (`config`), the folder the skill is in is a client's
 * (`location`: `.claude/skills/` is Claude Code's), the skill is a
 * MetaSkill, which only OpenSquilla reads (`metaskill`, whatever was
 * chosen), or nothing chose one (`default`).
 */
export type ProfileSource = 'default' | 'setting' | 'config' | 'location' | 'metaskill';

/** The profile an analysis was made with, and why. */
export interface ProfileChoice {
  id: ProfileId;
  source: ProfileSource;
}
