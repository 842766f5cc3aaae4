import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../test/support/lspClient';
import { openBrowser } from '../test/support/browser';
import { servePreview } from '../test/support/previewPage';
import { writeAipSkill } from '../test/support/generate';
import { since, summarize, type Summary } from './lib/stats';
import type { GraphJson } from '../server/src/protocol';

export interface PreviewResult {
  steps: number;
  request: Summary;
  render: Summary;
  total: Summary;
}

const ROUNDS = 12;

/**
 * Request → rendered graph: the `skillgraph/graph` request to the real
 * server, then the preview page (headless Chromium) laying it out with ELK
 * and drawing it, until the status line reports the new graph.
 */
export async function benchPreview(root: string): Promise<PreviewResult[]> {
  const served = await servePreview();
  const { context, page } = await openBrowser(served.url);
  await page.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
  );
  const results: PreviewResult[] = [];
  try {
    for (const steps of [10, 100, 300]) {
      const skill = writeAipSkill(path.join(root, 'preview'), `procedure-${steps}`, steps);
      const session = await startServer({ root: path.dirname(skill.dir), pull: true });
      const uri = pathToFileURL(skill.file).href;
      await session.open(skill.file);
      const request: number[] = [];
      const render: number[] = [];
      for (let round = 0; round < ROUNDS + 2; round++) {
        const start = performance.now();
        const graph = await session.connection.sendRequest<GraphJson>('skillgraph/graph', { uri });
        const requested = since(start);
        // A new direction each round forces a fresh layout (the page reuses positions for an unchanged structure).
        const direction = round % 2 === 0 ? 'DOWN' : 'RIGHT';
        const drawn = await page.evaluate(
          async ([message, expected]) => {
            const started = performance.now();
            (window as unknown as { __send: (m: unknown) => void }).__send(message);
            const status = document.getElementById('status')!;
            const marker = `${expected} steps`;
            document.getElementById('graph')!.replaceChildren();
            while (
              !(status.textContent === ''
                ? false
                : status.textContent!.startsWith(marker) && document.querySelectorAll('#graph .node').length > 0)
            )
              await new Promise((resolve) => requestAnimationFrame(resolve));
            return performance.now() - started;
          },
          [{ type: 'graph', graph, direction }, steps] as const,
        );
        if (round >= 2) {
          request.push(requested);
          render.push(drawn);
        }
      }
      await session.close();
      results.push({
        steps,
        request: summarize(request),
        render: summarize(render),
        total: summarize(request.map((value, i) => value + render[i])),
      });
    }
  } finally {
    await context.close();
    await served.close();
  }
  return results;
}
