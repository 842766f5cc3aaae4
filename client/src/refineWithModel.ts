import * as vscode from 'vscode';
import type { CompileAnswer, WireFile } from '../../server/src/protocol';

type Finding = CompileAnswer['diagnostics'][number];

/** At most this many answers are asked for: each is checked and, with errors, sent back with them. */
export const MAX_ROUNDS = 3;

const FILE_BLOCK = /^=== FILE: (.+?) ===\n([\s\S]*?)\n=== END ===$/gm;

/**
 * The scaffold's files the model may revise: SKILL.md, the scripts and (AIP 0.5) the step templates; source/ is the
 * compile's record and stays.
 */
const revisable = (file: WireFile): file is { path: string; text: string } =>
  'text' in file && (file.path === 'SKILL.md' || file.path.startsWith('scripts/') || file.path.startsWith('assets/'));

/** What to tell the model about the package's AIP version, read from the scaffold's own SKILL.md. */
function versionRules(scaffold: CompileAnswer): string[] {
  const skillMd = scaffold.files.find((file) => file.path === 'SKILL.md');
  const current = skillMd && 'text' in skillMd && /\n {2}aip-version: /.test(skillMd.text);
  return current
    ? [
        'You refine an AIP 0.5a1 skill package that Skillgraph compiled, deterministically, from a prose skill.',
        'Improve, where the prose supports it: step boundaries and names (kebab-case), step kinds (a client_task does the work with its template in assets/; an execution step only for a script that reads the state as JSON on stdin and prints JSON; a decision and a router for a choice between paths), input names and types (string, integer, float, boolean, object, list[*]), and the templates.',
        'Never make a script of commands the prose offers as alternatives or examples, and keep the approval before any command that deploys, publishes, pushes, installs globally or deletes.',
        'Replace every TODO. Keep the frontmatter (name, description, metadata.aip-version) as it is, and the body as the runtime block, word for word, then exactly one ```yaml block holding the procedure.',
      ]
    : [
        'You refine an AIP 0.3 skill package that Skillgraph compiled, deterministically, from a prose skill.',
        'Improve, where the prose supports it: step boundaries, step names (kebab-case), input and output names and types (string, integer, float, boolean, object, list[string], list[object]), and the scripts.',
        'Replace every TODO. Keep the frontmatter (name, description, metadata.aip) as it is, and the body as exactly one ```yaml block holding the procedure.',
      ];
}

function filesBlock(files: { path: string; text: string }[]): string {
  return files.map((file) => `=== FILE: ${file.path} ===\n${file.text.replace(/\n$/, '')}\n=== END ===`).join('\n\n');
}

function instructions(source: string, scaffold: CompileAnswer): string {
  return [
    ...versionRules(scaffold),
    'Answer only with the files you change, each written whole as:',
    '=== FILE: <path> ===',
    '<content>',
    '=== END ===',
    '',
    'The prose skill (source/original-SKILL.md):',
    '=== FILE: source/original-SKILL.md ===',
    source.replace(/\n$/, ''),
    '=== END ===',
    '',
    'The compiled package:',
    filesBlock(scaffold.files.filter(revisable)),
    '',
    scaffold.diagnostics.length > 0
      ? `Skillgraph's notes on it:\n${scaffold.diagnostics.map(findingLine).join('\n')}`
      : '',
  ].join('\n');
}

export function findingLine(item: Finding): string {
  return `${vscode.Uri.parse(item.uri).fsPath}:${item.range.start.line + 1}:${item.range.start.character + 1}: ${item.severity}: ${item.message} [${item.code}]`;
}

/** The files an answer gives, over the scaffold's; an answer's file the model may not revise is not taken. */
function revised(scaffold: WireFile[], answer: string): WireFile[] | undefined {
  const changed = new Map<string, string>();
  for (const match of answer.replace(/\r\n/g, '\n').matchAll(FILE_BLOCK)) {
    const file = { path: match[1].trim(), text: `${match[2]}\n` };
    if (revisable(file)) changed.set(file.path, file.text);
  }
  if (changed.size === 0) return undefined;
  const kept = scaffold.filter((file) => !changed.has(file.path));
  return [...kept, ...[...changed].map(([path, text]) => ({ path, text }))];
}

export interface Refinement {
  /** The revised files and their findings, when an answer checked without errors. */
  accepted?: CompileAnswer;
  rounds: number;
  /** Why the scaffold was kept, when it was. */
  reason?: string;
}

/**
 * Asks a language model to refine a compile's scaffold: the source and the
 * scaffold go to the model; each answer is checked by Skillgraph (`check`,
 * the language server) and, while it has errors, sent back with them — at
 * most MAX_ROUNDS answers. The first answer without errors is accepted;
 * otherwise the scaffold is kept.
 */
export async function refineWithModel(
  model: vscode.LanguageModelChat,
  source: string,
  scaffold: CompileAnswer,
  check: (files: WireFile[]) => Promise<CompileAnswer | undefined>,
  onRound: (round: number) => void,
  token: vscode.CancellationToken,
): Promise<Refinement> {
  const messages = [vscode.LanguageModelChatMessage.User(instructions(source, scaffold))];
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    if (token.isCancellationRequested) return { rounds: round - 1, reason: 'cancelled' };
    onRound(round);
    let answer = '';
    try {
      const response = await model.sendRequest(
        messages,
        { justification: 'Skillgraph refines the AIP package it compiled from your skill.' },
        token,
      );
      for await (const part of response.text) answer += part;
    } catch (error) {
      return {
        rounds: round,
        reason: `the model did not answer (${error instanceof Error ? error.message : String(error)})`,
      };
    }
    messages.push(vscode.LanguageModelChatMessage.Assistant(answer));
    const files = revised(scaffold.files, answer);
    if (!files) {
      messages.push(
        vscode.LanguageModelChatMessage.User(
          'Your answer holds no `=== FILE: <path> ===` … `=== END ===` block for SKILL.md or scripts/. Answer again in that form.',
        ),
      );
      continue;
    }
    const checked = await check(files);
    if (!checked) return { rounds: round, reason: 'Skillgraph could not check the answer' };
    const errors = checked.diagnostics.filter((item) => item.severity === 'error');
    if (errors.length === 0) return { accepted: checked, rounds: round };
    messages.push(
      vscode.LanguageModelChatMessage.User(
        `Skillgraph found ${errors.length} error${errors.length === 1 ? '' : 's'} in your answer. Fix ${errors.length === 1 ? 'it' : 'them'} and answer again with the changed files:\n${errors.map(findingLine).join('\n')}`,
      ),
    );
  }
  return { rounds: MAX_ROUNDS, reason: `the model's answers still had errors after ${MAX_ROUNDS} rounds` };
}
