// A test-only extension for the code-server harness: on start-up it runs the
// in-editor suite and writes the results where the harness waits for them.
import { renameSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { runAll } from './suite';

export async function activate(): Promise<void> {
  const target = process.env.SKILLGRAPH_E2E_RESULTS;
  if (!target) return;
  const started = Date.now();
  const results = await runAll();
  writeFileSync(
    `${target}.tmp`,
    JSON.stringify({ vscode: vscode.version, node: process.version, ms: Date.now() - started, results }, null, 2),
  );
  renameSync(`${target}.tmp`, target);
}
