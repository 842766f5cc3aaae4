import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { analyzeSkill } from '../../server/src/analyze';
import { toGraphJson } from '../../server/src/forms/graphJson';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { NODE_MAX_WIDTH } from '../../client/webview/nodeMetrics';
import { openBrowser } from '../support/browser';
import { writeAipSkill } from '../support/generate';
import { servePreview } from '../support/previewPage';
import { measureDrawing, type Drawing } from './drawingGeometry';
import type { GraphJson } from '../../server/src/protocol';

// The drawing's geometry, measured in the real browser on every example and two generated procedures, in both
// layouts: what the reader sees is whole, uncovered and followable.

const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'webview-geometry');
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
/** The panel beside a file (top-down) and a wide editor (left-to-right). */
const VIEWS = [
  { direction: 'DOWN', width: 560, height: 900 },
  { direction: 'RIGHT', width: 1600, height: 1000 },
] as const;
/**
 * How much longer than the way between its ends (across and along, as an orthogonal route goes) an edge may run: a
 * back edge leaves its node, turns and comes back, which costs about two node spacings.
 */
const DETOUR_RATIO = 1.5;
const DETOUR_ALLOWANCE = 260;

let served: Awaited<ReturnType<typeof servePreview>>;
let context: BrowserContext;
let page: Page;
const graphs = new Map<string, GraphJson>();

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Every example with a graph (release-notes and skipped-skill are plain Agent Skills: nothing to draw).
  for (const skill of [
    'csv-report',
    'ticket-triage',
    'release-digest',
    'weekly-digest',
    'trip-planner',
    'mistakes/broken-procedure',
    'mistakes/broken-composition',
    'mistakes/broken-flow',
  ])
    graphs.set(skill, toGraphJson(analyzeSkill(new NodeFileSystem(), path.join(EXAMPLES, skill, 'SKILL.md'))));
  const root = mkdtempSync(path.join(tmpdir(), 'sg-geometry-'));
  for (const steps of [12, 40]) {
    const skill = writeAipSkill(root, `generated-${steps}`, steps);
    graphs.set(`generated-${steps}`, toGraphJson(analyzeSkill(new NodeFileSystem(), skill.file)));
  }
  served = await servePreview();
  ({ context, page } = await openBrowser(served.url));
  await page.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
  );
});
after(async () => {
  await context?.close();
  await served?.close();
});

/** Shows `graph` laid out in `direction` in a page of the view's size, fitted as a new preview is. */
async function drawn(name: string, view: (typeof VIEWS)[number]): Promise<Drawing> {
  const graph = graphs.get(name)!;
  await page.setViewportSize({ width: view.width, height: view.height });
  await page.evaluate(([message]) => (window as unknown as { __send: (m: unknown) => void }).__send(message), [
    { type: 'graph', graph, direction: view.direction },
  ] as const);
  const steps = graph.nodes.filter((node) => node.kind !== 'external-input' && node.kind !== 'missing').length;
  await page.locator('#status', { hasText: `${steps} step` }).waitFor();
  const first = graph.nodes.find((node) => node.kind !== 'external-input')!;
  await page.locator(`#graph .node[data-id="${first.id}"]`).waitFor();
  await page.locator('#fit').click();
  // The fit's resize (the overview's lane) settles within a frame or two.
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name.replace('/', '-')}-${view.direction}.png`) });
  return (await page.evaluate(measureDrawing)) as Drawing;
}

const results: Record<string, Drawing> = {};

for (const view of VIEWS)
  test(`${view.direction === 'DOWN' ? 'top-down' : 'left-to-right'}: nothing cut while its node could grow, nothing covered, edges a reader can follow`, async () => {
    const found: string[] = [];
    for (const name of graphs.keys()) {
      const drawing = await drawn(name, view);
      results[`${name} ${view.direction}`] = drawing;
      const at = (what: string) => found.push(`${name} (${view.direction}): ${what}`);
      for (const text of drawing.cutTexts)
        if (text.nodeWidth < NODE_MAX_WIDTH - 1)
          at(
            `"${text.shown}" is cut in ${text.node} (${text.nodeWidth.toFixed(0)} wide, may grow to ${NODE_MAX_WIDTH})`,
          );
      for (const item of drawing.violations.textsOutside) at(`text drawn past its box: ${item}`);
      for (const item of drawing.violations.labelsOverNodes) at(`edge label over a node: ${item}`);
      for (const item of drawing.violations.labelsOutside) at(`edge label outside the drawing: ${item}`);
      for (const item of drawing.violations.labelsOverLabels) at(`edge labels over each other: ${item}`);
      for (const item of drawing.violations.overviewOverNodes) at(`the overview covers ${item}`);
      for (const item of drawing.violations.clusterTextsCut) at(`a stage's title or goal cut: ${item}`);
      for (const edge of drawing.edges)
        if (edge.length > DETOUR_RATIO * edge.direct + DETOUR_ALLOWANCE)
          at(`edge ${edge.id} runs ${edge.length.toFixed(0)} for ${edge.direct.toFixed(0)} between its ends`);
      for (const edge of drawing.unlabelledData) at(`data edge ${edge} carries no label`);
    }
    writeFileSync(path.join(ARTIFACTS, 'geometry.json'), JSON.stringify(results, null, 2));
    assert.deepEqual(found, []);
  });
