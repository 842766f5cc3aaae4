import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ModelQuestionsRequest, ModelVerdictsRequest, type ModelQuestionWire } from '../../server/src/protocol';

// "Skillgraph: Ask a language model about this skill": the paragraphs `check --model` asks about (the server picks
// them and writes each message), asked of the editor's own language model (vscode.lm), and the verdicts the server
// reads from its answers shown in a diagnostic collection of their own: the server's findings are left as they are,
// and asking again replaces the verdicts.

/** Questions in flight at once, as `check --model` asks them. */
const IN_FLIGHT = 4;

const SEVERITIES = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
} as const;

/** One answer's text, or '' when the model did not answer (the server then reads it as having no verdict). */
async function answerOf(
  model: vscode.LanguageModelChat,
  system: string,
  question: ModelQuestionWire,
  token: vscode.CancellationToken,
): Promise<string> {
  try {
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(system), vscode.LanguageModelChatMessage.User(question.prompt)],
      { justification: 'Skillgraph asks for a second opinion on paragraphs of this skill its security rules flagged.' },
      token,
    );
    let text = '';
    for await (const part of response.text) text += part;
    return text;
  } catch {
    return '';
  }
}

/** Asks the editor's model about the skill of `target`, and shows the verdicts in `collection`. */
export async function askModelAboutSkill(
  client: LanguageClient | undefined,
  target: vscode.Uri | undefined,
  collection: vscode.DiagnosticCollection,
): Promise<void> {
  const [model] = await vscode.lm.selectChatModels().then(
    (found) => found,
    () => [],
  );
  if (!model) {
    void vscode.window.showInformationMessage(
      'Skillgraph: no language model is available in this editor (one comes with an extension such as GitHub Copilot Chat).',
    );
    return;
  }
  const asked =
    client && target
      ? await client.sendRequest(ModelQuestionsRequest, { uri: target.toString() }).catch(() => null)
      : null;
  if (!asked) {
    void vscode.window.showInformationMessage('Skillgraph: open a skill file to ask a language model about it.');
    return;
  }
  if (asked.questions.length === 0) {
    void vscode.window.showInformationMessage('Skillgraph: no paragraph of this skill calls for a second opinion.');
    return;
  }
  const answers = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Skillgraph: asking ${model.name} about ${asked.questions.length} paragraphs`,
      cancellable: true,
    },
    async (_progress, token) => {
      const texts: string[] = new Array(asked.questions.length).fill('');
      let next = 0;
      const worker = async () => {
        for (let at = next++; at < asked.questions.length && !token.isCancellationRequested; at = next++)
          texts[at] = await answerOf(model, asked.system, asked.questions[at], token);
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, asked.questions.length) }, worker));
      return texts;
    },
  );
  const verdicts = await client!.sendRequest(ModelVerdictsRequest, { model: model.name, answers }).catch(() => []);
  const byUri = new Map<string, vscode.Diagnostic[]>();
  let failed = 0;
  asked.questions.forEach((question, at) => {
    const verdict = verdicts[at];
    if (!verdict || 'problem' in verdict) failed++;
    if (!verdict || !('message' in verdict)) return;
    const { start, end } = question.range;
    const item = new vscode.Diagnostic(
      new vscode.Range(start.line, start.character, end.line, end.character),
      verdict.message,
      SEVERITIES[verdict.severity],
    );
    item.source = 'Skillgraph (language model)';
    item.code = 'model_opinion';
    byUri.set(question.uri, [...(byUri.get(question.uri) ?? []), item]);
  });
  collection.clear();
  for (const [uri, items] of byUri) collection.set(vscode.Uri.parse(uri), items);
  const found = [...byUri.values()].reduce((sum, items) => sum + items.length, 0);
  void vscode.window.showInformationMessage(
    `Skillgraph: ${model.name} judged ${found} of ${asked.questions.length} paragraphs malicious or suspicious (shown in Problems)${failed > 0 ? `; ${failed} got no verdict` : ''}.`,
  );
}
