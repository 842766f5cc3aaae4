// The slash commands each client answers itself, before any skill or command file: `/clear` in an instruction is the
// client's command, not a skill missing from the library. Kept per client with where the list comes from, so a client
// adding a command is one edit here. A name a client has retired stays: skills written for an older version still
// say it.

export interface ClientCommands {
  client: string;
  /** The page that lists them (checked against it; clients add commands often, so the list may lag). */
  source: string;
  commands: readonly string[];
}

export const CLIENT_BUILT_IN_COMMANDS: readonly ClientCommands[] = [
  {
    client: 'Claude Code',
    source:
      'https://docs.anthropic.com/en/docs/claude-code/slash-commands (built-in slash commands, bundled skills); ' +
      'https://code.claude.com/docs/en/plugins/cli-reference (/plugin, /reload-plugins)',
    commands: [
      'add-dir',
      'agents',
      'bashes',
      'batch',
      'branch',
      'bug',
      'clear',
      'compact',
      'config',
      'context',
      'continue',
      'cost',
      'debug',
      'doctor',
      'exit',
      'export',
      'fork',
      'help',
      'hooks',
      'ide',
      'init',
      'install-github-app',
      'login',
      'logout',
      'loop',
      'mcp',
      'memory',
      'model',
      'output-style',
      'permissions',
      'plan',
      'plugin',
      'pr-comments',
      'release-notes',
      'reload-plugins',
      'rename',
      'resume',
      'review',
      'rewind',
      'security-review',
      'simplify',
      'skills',
      'status',
      'statusline',
      'terminal-setup',
      'todos',
      'usage',
      'vim',
    ],
  },
  {
    client: 'Codex',
    source: 'https://developers.openai.com/codex/cli/slash-commands (built-in slash commands)',
    commands: [
      'apps',
      'approvals',
      'clear',
      'compact',
      'diff',
      'exit',
      'feedback',
      'fork',
      'init',
      'logout',
      'mcp',
      'mention',
      'model',
      'new',
      'permissions',
      'personality',
      'quit',
      'resume',
      'review',
      'skills',
      'status',
      'undo',
      'use',
    ],
  },
  {
    client: 'GitHub Copilot Chat (VS Code and github.com)',
    source: 'https://docs.github.com/copilot/reference/github-copilot-chat-cheat-sheet (slash commands)',
    commands: [
      'clear',
      'delete',
      'explain',
      'file',
      'fix',
      'fixtestfailure',
      'help',
      'new',
      'rename',
      'search',
      'tests',
    ],
  },
];

/** Every client's built-in commands, by name. */
export const BUILT_IN_COMMANDS: ReadonlySet<string> = new Set(
  CLIENT_BUILT_IN_COMMANDS.flatMap((client) => client.commands),
);
