import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';

/**
 * A fake chat model, registered through VS Code's own Language Model Chat
 * Provider API — the one fake the tests allow, standing where a real
 * model would (none can be reached here). It refines the release-notes
 * AIP scaffold in two answers: the first names a step that does not
 * exist (so Skillgraph must send it back with the error), the second
 * gives the TODO step an output and passes it on (AIP 0.3), or names the
 * step for what it makes and hands what it makes to the next (AIP 0.5).
 * Each request's last message is logged to SKILLGRAPH_FAKE_MODEL_LOG for
 * the test to read.
 */

interface RequestMessage {
  role: number;
  content: readonly unknown[];
}

/** The parts of the provider API newer than the @types/vscode the project builds against. */
const api = vscode as unknown as {
  LanguageModelTextPart: new (value: string) => unknown;
  lm: { registerLanguageModelChatProvider(vendor: string, provider: unknown): vscode.Disposable };
};

const textOf = (message: RequestMessage) =>
  message.content
    .map((part) => (typeof (part as { value?: unknown }).value === 'string' ? (part as { value: string }).value : ''))
    .join('');

function scaffoldSkill(prompt: string): string {
  const match = /=== FILE: SKILL\.md ===\n([\s\S]*?)\n=== END ===/.exec(prompt);
  return match ? match[1] : '';
}

/** AIP 0.5: the first answer renames a step but not the edge into it; the second renames both and adds the input. */
function answer05(skill: string, round: number): string {
  const renamed = skill.replace('  - name: group-them\n', '  - name: group-changes\n');
  if (round === 1) return `=== FILE: SKILL.md ===\n${renamed}\n=== END ===\n`;
  const refined = renamed
    .replace('    inputs_to: group-them\n', '    inputs_to: group-changes\n')
    .replace(
      '    description: Write one line per change, in the past tense, naming the user-visible effect.\n    inputs: []\n',
      '    description: Write one line per change, in the past tense, naming the user-visible effect.\n    inputs:\n      - name: grouped-changes\n        type: object\n',
    );
  return `=== FILE: SKILL.md ===\n${refined}\n=== END ===\n`;
}

function answer(messages: readonly RequestMessage[]): string {
  const skill = scaffoldSkill(textOf(messages[0]));
  const round = messages.filter((message) => message.role === vscode.LanguageModelChatMessageRole.User).length;
  if (skill.includes('aip-version:')) return answer05(skill, round);
  const grouped = skill.replace('  - name: group-them\n', '  - name: group-changes\n');
  if (round === 1)
    return `Here is the package.\n\n=== FILE: SKILL.md ===\n${grouped.replace('  - name: write-line\n', '  - name: write-line\n    depends_on: [sort-changes]\n')}\n=== END ===\n`;
  const withOutput = grouped.replace(
    '        type: list[string]\n  - name: write-line\n',
    '        type: list[string]\n    outputs:\n      - name: grouped-changes\n        type: object\n  - name: write-line\n    inputs:\n      - name: grouped-changes\n        type: object\n',
  );
  return `=== FILE: SKILL.md ===\n${withOutput}\n=== END ===\n`;
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    api.lm.registerLanguageModelChatProvider('skillgraph-fake', {
      provideLanguageModelChatInformation: () => [
        {
          id: 'fake-skill-model',
          name: 'Fake Skill Model',
          family: 'fake',
          version: '1',
          maxInputTokens: 100000,
          maxOutputTokens: 10000,
          capabilities: {},
        },
      ],
      async provideLanguageModelChatResponse(
        _model: unknown,
        messages: readonly RequestMessage[],
        _options: unknown,
        progress: vscode.Progress<unknown>,
      ) {
        const log = process.env.SKILLGRAPH_FAKE_MODEL_LOG;
        if (log)
          appendFileSync(
            log,
            `${JSON.stringify({ messages: messages.length, last: textOf(messages[messages.length - 1]) })}\n`,
          );
        progress.report(new api.LanguageModelTextPart(answer(messages)));
      },
      provideTokenCount: (_model: unknown, text: string | RequestMessage) =>
        Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
    }),
  );
}
