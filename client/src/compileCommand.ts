import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  CheckCompiledRequest,
  CompileRequest,
  CompileTargetsRequest,
  type CompileAnswer,
  type CompileTargetInfo,
} from '../../server/src/protocol';
import { findingLine, MAX_ROUNDS, refineWithModel } from './refineWithModel';

const encoder = new TextEncoder();

/** The files a compile offers, and how they were made when a language model had a say (for the one notification). */
interface Offered {
  answer: CompileAnswer;
  made?: string;
}

/**
 * Offers to refine an `aip` scaffold with a language model of the editor
 * (vscode.lm). Returns the files to offer: the model's when an answer
 * checked without errors, else the scaffold; undefined when the author
 * dismissed the choice.
 */
async function refined(
  client: LanguageClient,
  output: vscode.LogOutputChannel,
  skillFile: string,
  target: CompileTargetInfo,
  scaffold: CompileAnswer,
): Promise<Offered | undefined> {
  const models = await vscode.lm.selectChatModels().then(
    (found) => found,
    () => [],
  );
  if (models.length === 0) {
    output.appendLine('No language model is available in this editor: the package is the deterministic scaffold.');
    return { answer: scaffold, made: 'the deterministic scaffold (no language model is available in this editor)' };
  }
  const choice = await vscode.window.showQuickPick(
    [
      {
        label: 'Use the scaffold as it is',
        description: 'deterministic',
        model: undefined as vscode.LanguageModelChat | undefined,
      },
      ...models.map((model) => ({ label: `Refine with ${model.name}`, description: model.vendor, model })),
    ],
    {
      title: 'Refine the AIP package with a language model?',
      placeHolder: `Each answer is checked by Skillgraph and sent back with its errors, at most ${MAX_ROUNDS} times`,
    },
  );
  if (!choice) return undefined;
  const model = choice.model;
  if (!model) return { answer: scaffold };
  const source = scaffold.files.find((file) => file.path === 'source/original-SKILL.md');
  const refinement = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Skillgraph: refining with ${model.name}`,
      cancellable: true,
    },
    (progress, token) =>
      refineWithModel(
        model,
        source && 'text' in source ? source.text : '',
        scaffold,
        (files) =>
          client
            .sendRequest(
              CheckCompiledRequest,
              { uri: skillFile, target: target.id, outDir: scaffold.outDir, files },
              token,
            )
            .then(
              (answer) => (answer && !('error' in answer) ? answer : undefined),
              () => undefined,
            ),
        (round) => progress.report({ message: `answer ${round} of at most ${MAX_ROUNDS}` }),
        token,
      ),
  );
  if (refinement.accepted) {
    output.appendLine(
      `${model.name} refined the package in ${refinement.rounds} answer${refinement.rounds === 1 ? '' : 's'}.`,
    );
    for (const item of refinement.accepted.diagnostics) output.appendLine(findingLine(item));
    return {
      answer: refinement.accepted,
      made: `${model.name} refined the package; its answer ${refinement.rounds} checked without errors`,
    };
  }
  output.appendLine(`Kept the scaffold: ${refinement.reason}.`);
  return { answer: scaffold, made: `kept the deterministic scaffold: ${refinement.reason}` };
}

/**
 * Skillgraph: Compile Skill… — picks a target that fits the skill, compiles
 * it in the language server (which writes nothing), and shows the files
 * as a refactoring preview the author confirms; VS Code then writes them,
 * and Undo takes them back. An `aip` scaffold can first be refined by a
 * language model of the editor. An existing file is replaced only after
 * the author says so. A result with errors is not offered: its findings go to
 * the output channel.
 */
export async function compileSkill(
  client: LanguageClient | undefined,
  output: vscode.LogOutputChannel,
  document: vscode.Uri | undefined,
): Promise<void> {
  if (!client || !document) {
    vscode.window.showInformationMessage('Skillgraph: open a SKILL.md (or a file of a skill+ package) to compile it.');
    return;
  }
  const info = await client.sendRequest(CompileTargetsRequest, { uri: document.toString() });
  if (!info) {
    vscode.window.showInformationMessage('Skillgraph: this file is not part of a skill.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    info.targets.map((target) => ({
      label: target.title,
      description: target.id,
      detail: target.singleFile ? path.join(target.outDir, target.singleFile) : `${target.outDir}${path.sep}`,
      target,
    })),
    { title: 'Compile skill to…', placeHolder: 'The targets that fit this skill' },
  );
  if (!picked) return;
  const target = picked.target;
  const answer = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Skillgraph: compiling to ${target.title}…`,
      cancellable: true,
    },
    (_progress, token) =>
      client
        .sendRequest(
          CompileRequest,
          { uri: info.skillFile, target: target.id, outDir: target.outDir, aipVersion: target.aipVersion },
          token,
        )
        .catch(() => null),
  );
  if (!answer) return;
  if ('error' in answer) {
    vscode.window.showErrorMessage(`Skillgraph: ${answer.error}`);
    return;
  }
  for (const item of answer.diagnostics) output.appendLine(findingLine(item));
  const errors = answer.diagnostics.filter((item) => item.severity === 'error');
  if (errors.length > 0) {
    const show = await vscode.window.showErrorMessage(
      `Skillgraph: the ${target.title} has ${errors.length} error${errors.length === 1 ? '' : 's'}, so nothing was compiled. ${errors[0].message}`,
      'Show all',
    );
    if (show) output.show();
    return;
  }
  // An AIP scaffold may be refined by the editor's language model first.
  const chosen = target.id === 'aip' ? await refined(client, output, info.skillFile, target, answer) : { answer };
  if (!chosen) return;
  const offered = chosen.answer;
  const files = offered.files.map((file) => ({
    file,
    uri: vscode.Uri.file(path.join(answer.outDir, ...file.path.split('/'))),
  }));
  const existing: vscode.Uri[] = [];
  for (const { uri: fileUri } of files) {
    if (
      await vscode.workspace.fs.stat(fileUri).then(
        () => true,
        () => false,
      )
    )
      existing.push(fileUri);
  }
  if (existing.length > 0) {
    const replace = await vscode.window.showWarningMessage(
      `${existing.length} of the files to write already ${existing.length === 1 ? 'exists' : 'exist'} in ${answer.outDir} (${existing
        .map((item) => path.basename(item.fsPath))
        .slice(0, 3)
        .join(', ')}${existing.length > 3 ? ', …' : ''}).`,
      { modal: true },
      'Replace',
    );
    if (replace !== 'Replace') return;
  }
  const edit = new vscode.WorkspaceEdit();
  const todos = offered.diagnostics.filter((item) => item.severity === 'warning').length;
  for (const { file, uri: fileUri } of files) {
    const contents = 'text' in file ? encoder.encode(file.text) : Uint8Array.from(Buffer.from(file.base64, 'base64'));
    edit.createFile(
      fileUri,
      { overwrite: existing.some((item) => item.fsPath === fileUri.fsPath), contents },
      { needsConfirmation: true, label: file.path, description: target.title },
    );
  }
  // Confirmation makes VS Code show the Refactor Preview with each file unticked; nothing is written until the author
  // ticks and applies. The hint stays in the status bar for as long as the preview waits.
  const applying = vscode.workspace.applyEdit(edit, { isRefactoring: true });
  vscode.window.setStatusBarMessage(
    `$(checklist) Skillgraph: tick the files to write into ${path.basename(answer.outDir)} in the Refactor Preview, then Apply`,
    applying,
  );
  const applied = await applying;
  if (!applied) return;
  const main = files.find(({ file }) => file.path === 'SKILL.md' || file.path === target.singleFile);
  if (
    main &&
    (await vscode.workspace.fs.stat(main.uri).then(
      () => true,
      () => false,
    ))
  )
    await vscode.window.showTextDocument(main.uri, { preview: false });
  // The compile's outcome in one notification: where it went, what is left to review, how the files were made.
  const outcome = [
    `Skillgraph: compiled to ${answer.outDir}`,
    ...(todos > 0 ? [`${todos} TODO${todos === 1 ? '' : 's'} to review`] : []),
    ...(chosen.made ? [chosen.made] : []),
  ].join('; ');
  const show =
    todos > 0
      ? await vscode.window.showWarningMessage(`${outcome}.`, 'Show')
      : await vscode.window.showInformationMessage(`${outcome}.`);
  if (show) output.show();
}
