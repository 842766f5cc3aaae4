import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser } from '../test/support/browser';
import { positionOf, startServer } from '../test/support/lspClient';
import { servePreview } from '../test/support/previewPage';
import { writeSkillplusPackage } from '../test/support/generate';
import { keystroke } from './lib/keystroke';
import { percentile, round, since, summarize, type Summary } from './lib/stats';
import type { GraphJson } from '../server/src/protocol';

const EDITS = 120;
const REQUESTS = 120;
const SESSIONS = 3;
const PREVIEW_ROUNDS = 12;
const WARMUP = 20;

export interface SkillplusResult {
  nodes: number;
  tips: number;
  rules: number;
  sessions: number;
  /** An edit in flow.py → the diagnostics of flow.py and of an open tip (the package re-checked across files). */
  editToPackageDiagnostics: Summary;
  /** The same, leaving out each session's first WARMUP edits, made while V8 still compiles the per-edit code. */
  editToPackageDiagnosticsWarm: Summary;
  /** Completion in a tip's `when` predicate (after `level=`), the package unchanged. */
  predicateCompletion: Summary;
  /** The same completion right after an edit in flow.py: the package is read again first. */
  predicateCompletionAfterEdit: Summary;
  p95PerSession: number[];
  /** `skillgraph/graph` request → the preview laid out (stages as ELK clusters) and drawn in Chromium. */
  preview: { request: Summary; render: Summary; total: Summary };
}

/**
 * A generated skill+ package of 300 flow nodes with 50 tips and rules,
 * through the real stdio server with flow.py, state.py, a tip and SKILL.md
 * open (pull diagnostics, as VS Code asks), then drawn by the preview page.
 */
export async function benchSkillplus(root: string): Promise<SkillplusResult> {
  const pkg = writeSkillplusPackage(path.join(root, 'skillplus'), 'generated-flow', 300, 25, 25);
  const uri = (file: string) => pathToFileURL(file).href;
  const flowUri = uri(pkg.flow);
  const tipUri = uri(pkg.tip);
  const middle = positionOf(pkg.flowText, 'step 8 of stage 5', 0);
  const predicate = positionOf(pkg.tipText, 'level=', 'level='.length);
  const edits: number[] = [];
  const warm: number[] = [];
  const completion: number[] = [];
  const completionAfterEdit: number[] = [];
  const perSession: number[] = [];
  let nodes = 0;
  for (let session = 0; session < SESSIONS; session++) {
    const server = await startServer({ root: path.dirname(pkg.dir), pull: true });
    for (const file of [pkg.flow, path.join(pkg.dir, 'state.py'), pkg.tip, path.join(pkg.dir, 'SKILL.md')])
      await server.open(file);
    const diagnose = async () => {
      await server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: flowUri } });
      await server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: tipUri } });
    };
    await diagnose();
    const times: number[] = [];
    for (let round = 0; round < EDITS + EDITS / 2; round++) {
      const start = performance.now();
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: flowUri, version: round + 2 },
        contentChanges: [keystroke(middle, round)],
      });
      if (round < EDITS) {
        await diagnose();
        times.push(since(start));
      } else {
        await server.connection.sendRequest('textDocument/completion', {
          textDocument: { uri: tipUri },
          position: predicate,
        });
        completionAfterEdit.push(since(start));
      }
    }
    edits.push(...times);
    warm.push(...times.slice(WARMUP));
    perSession.push(round(percentile(times, 95)));
    for (let i = 0; i < REQUESTS; i++) {
      const start = performance.now();
      const items = await server.connection.sendRequest<unknown[]>('textDocument/completion', {
        textDocument: { uri: tipUri },
        position: predicate,
      });
      completion.push(since(start));
      if (items.length !== 3)
        throw new Error(`completion after level= gave ${items.length} items, not the three values`);
    }
    const graph = await server.connection.sendRequest<GraphJson>('skillgraph/graph', { uri: flowUri });
    nodes = graph.nodes.filter((node) => node.kind !== 'external-input').length;
    await server.close();
  }
  return {
    nodes,
    tips: 25,
    rules: 25,
    sessions: SESSIONS,
    editToPackageDiagnostics: summarize(edits),
    editToPackageDiagnosticsWarm: summarize(warm),
    predicateCompletion: summarize(completion),
    predicateCompletionAfterEdit: summarize(completionAfterEdit),
    p95PerSession: perSession,
    preview: await benchFlowPreview(pkg.flow, flowUri, path.dirname(pkg.dir)),
  };
}

async function benchFlowPreview(flow: string, flowUri: string, root: string): Promise<SkillplusResult['preview']> {
  const served = await servePreview();
  const { context, page } = await openBrowser(served.url);
  const server = await startServer({ root, pull: true });
  try {
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
    );
    await server.open(flow);
    const request: number[] = [];
    const render: number[] = [];
    for (let round = 0; round < PREVIEW_ROUNDS + 2; round++) {
      const start = performance.now();
      const graph = await server.connection.sendRequest<GraphJson>('skillgraph/graph', { uri: flowUri });
      const requested = since(start);
      const steps = graph.nodes.filter((node) => node.kind !== 'external-input' && node.kind !== 'missing').length;
      // A new direction each round forces a fresh layout (the page reuses positions for an unchanged structure).
      const drawn = await page.evaluate(
        async ([message, expected]) => {
          const started = performance.now();
          (window as unknown as { __send: (m: unknown) => void }).__send(message);
          const status = document.getElementById('status')!;
          document.getElementById('graph')!.replaceChildren();
          while (!(
            status.textContent!.startsWith(`${expected} steps`) &&
            document.querySelectorAll('#graph .cluster').length > 0
          ))
            await new Promise((resolve) => requestAnimationFrame(resolve));
          return performance.now() - started;
        },
        [{ type: 'graph', graph, direction: round % 2 === 0 ? 'DOWN' : 'RIGHT' }, steps] as const,
      );
      if (round >= 2) {
        request.push(requested);
        render.push(drawn);
      }
    }
    return {
      request: summarize(request),
      render: summarize(render),
      total: summarize(request.map((value, i) => value + render[i])),
    };
  } finally {
    await server.close();
    await context.close();
    await served.close();
  }
}
