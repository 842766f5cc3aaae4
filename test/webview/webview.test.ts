import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { analyzeSkill } from '../../server/src/analyze';
import { toGraphJson } from '../../server/src/forms/graphJson';
import { modelContext } from '../../server/src/formats/skillplus/runtime/modelContext';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { OverlayFileSystem } from '../../server/src/workspace/overlayFileSystem';
import { writeAipSkill } from '../support/generate';
import { aip03, analyzeFixture } from '../support/fixture';
import { asSkillplus } from '../support/formatParts';
import { NODE_MAX_WIDTH } from '../../client/webview/nodeMetrics';
import { openBrowser } from '../support/browser';
import { servePreview } from '../support/previewPage';
import type { GraphJson } from '../../server/src/protocol';

const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'webview');
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
let served: Awaited<ReturnType<typeof servePreview>>;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

function graphOf(relative: string): GraphJson {
  return toGraphJson(analyzeSkill(new NodeFileSystem(), path.join(EXAMPLES, relative, 'SKILL.md')));
}

async function showGraph(graph: GraphJson, direction: 'RIGHT' | 'DOWN' = 'RIGHT'): Promise<void> {
  await page.evaluate(([message]) => (window as unknown as { __send: (m: unknown) => void }).__send(message), [
    { type: 'graph', graph, direction },
  ] as const);
  const steps = graph.nodes.filter((node) => node.kind !== 'external-input' && node.kind !== 'missing').length;
  await page.locator('#status', { hasText: `${steps} step` }).waitFor();
}

/** Whether an element's box lies inside the page's view. */
async function inView(locator: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}

async function posted(): Promise<{ type: string; [key: string]: unknown }[]> {
  return page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted);
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  served = await servePreview();
  ({ context, page } = await openBrowser(served.url));
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
  );
});
after(async () => {
  await context?.close();
  await served?.close();
});

test('renders the AIP 0.3 example: every node, port and edge, script-backed and judgment steps told apart', async () => {
  const graph = graphOf('csv-report');
  await showGraph(graph);
  assert.equal(await page.locator('#graph .node').count(), graph.nodes.length);
  assert.equal(await page.locator('#graph .edge').count(), graph.edges.length);
  assert.equal(
    await page.locator('#graph .edge.data').count(),
    graph.edges.filter((edge) => edge.kind === 'data').length,
  );
  assert.equal(
    await page.locator('#graph .edge.control').count(),
    graph.edges.filter((edge) => edge.kind === 'control').length,
  );
  assert.deepEqual(
    await page
      .locator('#graph .node.scripted')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id'))),
    ['load-table', 'profile-columns', 'write-report'],
  );
  assert.deepEqual(
    await page
      .locator('#graph .node.judgment.kind-step')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id'))),
    ['choose-focus'],
  );
  assert.equal(await page.locator('.node[data-id="load-table"] .subtitle').textContent(), '⚙ scripts/load_table.py');
  assert.ok((await page.locator('#graph .edge-label').allTextContents()).includes('focus-column: string'));
  assert.equal(await page.locator('.node[data-id="input:csv-path"]').count(), 1);
  await page.screenshot({ path: path.join(ARTIFACTS, 'csv-report.png') });
  assert.deepEqual(errors, [], 'the page logged errors (CSP violations included)');
});

test('AIP 0.5 step kinds get their own shapes; branch edges carry their values', async () => {
  const graph = graphOf('ticket-triage');
  await showGraph(graph);
  for (const kind of ['decision', 'router', 'execution', 'client_task', 'end', 'external-input']) {
    assert.equal(await page.locator(`#graph .node.kind-${kind}`).count(), 1, kind);
  }
  assert.equal(await page.locator('.node.kind-router polygon.shape').count(), 1);
  assert.equal(await page.locator('.node.kind-decision polygon.shape').count(), 1);
  assert.deepEqual((await page.locator('#graph .edge.branch .edge-label').allTextContents()).sort(), ['false', 'true']);
  await page.screenshot({ path: path.join(ARTIFACTS, 'ticket-triage.png') });
});

test('problems are marked: error nodes, a broken stub for the dangling input, the cycle, a missing step', async () => {
  const graph = graphOf('mistakes/broken-procedure');
  await showGraph(graph);
  const erroneous = await page
    .locator('#graph .node.has-error')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')));
  assert.deepEqual(erroneous.sort(), ['publish#2']);
  const warned = await page
    .locator('#graph .node.has-warning')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')));
  assert.deepEqual(warned.sort(), ['clean-data', 'fetch-data', 'summarise']);
  assert.equal(await page.locator('#graph .edge.cycle').count(), 2);
  assert.equal(await page.locator('#graph .broken-stub').count(), 1);
  assert.equal(
    await page.locator('.node[data-id="clean-data"] .port.has-warning[data-port="raw_data"] .broken-stub').count(),
    1,
  );
  assert.equal(
    await page.locator('.node[data-id="input:raw_data"]').count(),
    0,
    'a likely typo is not drawn as an external source',
  );
  assert.equal(await page.locator('#graph .node.kind-missing').count(), 1);
  assert.equal(await page.locator('#graph .edge.dangling').count(), 1);
  assert.match((await page.locator('#skill-problems').textContent())!, /error: `name` is "broken-procedur"/);
  await page.locator('.node[data-id="summarise"] .label').hover();
  await page.locator('#tooltip').waitFor();
  assert.match(
    (await page.locator('#tooltip').textContent())!,
    /does not exist in the skill folder\. \[missing_script\]/,
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'broken-procedure.png') });
});

test('broken-procedure: the duplicate draws no self-loop; cycle and dangling edges end in their own heads', async () => {
  const graph = graphOf('mistakes/broken-procedure');
  for (const direction of ['DOWN', 'RIGHT'] as const) {
    await showGraph(graph, direction);
    await page.locator('#fit').click();
    const edges = await page.locator('#graph .edge').evaluateAll((groups) =>
      groups.map((group) => {
        const line = group.querySelector<SVGPathElement>('path.line')!;
        const end = line.getPointAtLength(line.getTotalLength());
        return {
          from: group.getAttribute('data-from'),
          to: group.getAttribute('data-to'),
          classes: group.getAttribute('class'),
          head: line.getAttribute('marker-end'),
          end: { x: end.x, y: end.y },
        };
      }),
    );
    assert.deepEqual(
      edges.filter((edge) => edge.from === edge.to),
      [],
      `${direction}: no edge from a step to itself`,
    );
    const heads = (marker: string) => edges.filter((edge) => edge.head === `url(#${marker})`).map((edge) => edge.to);
    assert.deepEqual(heads('arrow-cycle').sort(), ['publish', 'summarise'], `${direction}: the cycle's heads`);
    assert.deepEqual(heads('arrow-dangling'), ['publish'], `${direction}: the dangling edge's head`);
    // Each marker draws in its own colour: a cycle's head is not its kind's grey.
    const fills = await page.evaluate(() =>
      ['arrow-cycle', 'arrow-dangling', 'arrow-control'].map(
        (id) => getComputedStyle(document.querySelector(`#${id} path`)!).fill,
      ),
    );
    assert.equal(new Set(fills).size, 3, `${direction}: heads ${fills.join(', ')}`);
    // No two arrowheads on one another: ends at least a head's width apart.
    for (const [index, edge] of edges.entries())
      for (const other of edges.slice(index + 1))
        assert.ok(
          Math.hypot(edge.end.x - other.end.x, edge.end.y - other.end.y) >= 10,
          `${direction}: ${edge.from}→${edge.to} and ${other.from}→${other.to} end at one point`,
        );
    await page.screenshot({ path: path.join(ARTIFACTS, `broken-procedure-heads-${direction}.png`) });
  }
});

test('a 40-step procedure draws on first open in a side panel: its first steps are in view, not an empty corner', async () => {
  const skill = writeAipSkill(mkdtempSync(path.join(tmpdir(), 'sg-first-open-')), 'generated-40', 40);
  const graph = toGraphJson(analyzeSkill(new NodeFileSystem(), skill.file));
  const opened = await context.newPage();
  try {
    await opened.setViewportSize({ width: 470, height: 900 });
    await opened.goto(served.url);
    await opened.waitForFunction(() =>
      (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
    );
    await opened.evaluate((message) => (window as unknown as { __send: (m: unknown) => void }).__send(message), {
      type: 'graph',
      graph,
      direction: 'DOWN',
    });
    await opened.locator('#status', { hasText: '40 steps' }).waitFor();
    // What the reader sees: the nodes whose boxes meet the drawing's area on screen, with their names.
    const visible = await opened.locator('#graph .node').evaluateAll((nodes) => {
      const view = document.getElementById('graph')!.getBoundingClientRect();
      return nodes
        .filter((node) => {
          const box = node.getBoundingClientRect();
          return box.right > view.left && box.left < view.right && box.bottom > view.top && box.top < view.bottom;
        })
        .map((node) => node.getAttribute('data-id'));
    });
    await opened.screenshot({ path: path.join(ARTIFACTS, 'generated-40-first-open.png') });
    assert.ok(visible.includes('step-0000'), `the first step is in view; seen: ${visible.join(', ')}`);
    assert.ok(visible.length >= 3, `several steps are in view; seen: ${visible.join(', ')}`);
  } finally {
    await opened.close();
  }
});

test('clicking a node posts a reveal of its step; clicking a data edge reveals the consuming input', async () => {
  const graph = graphOf('csv-report');
  await showGraph(graph);
  // The view keeps the zoom and pan of the previous graph; fit brings this one into sight.
  await page.locator('#fit').click();
  const before = (await posted()).length;
  await page.locator('.node[data-id="choose-focus"] .label').click();
  const node = graph.nodes.find((item) => item.id === 'choose-focus')!;
  assert.deepEqual((await posted()).slice(before), [{ type: 'reveal', range: node.range, file: node.file }]);
  const edge = graph.edges.find((item) => item.kind === 'data' && item.label === 'focus-column')!;
  // The middle of the drawn path (a bent path's bounding-box centre may lie off the line).
  const middle = await page.locator('.edge.data[data-label="focus-column"] path.hit').evaluate((element) => {
    const path = element as SVGPathElement;
    const point = path.getPointAtLength(path.getTotalLength() / 2);
    const matrix = path.getScreenCTM()!;
    return {
      x: point.x * matrix.a + point.y * matrix.c + matrix.e,
      y: point.x * matrix.b + point.y * matrix.d + matrix.f,
    };
  });
  await page.mouse.click(middle.x, middle.y);
  assert.deepEqual((await posted()).slice(before + 1), [{ type: 'reveal', range: edge.range, file: graph.skill.file }]);
});

test('the editor cursor highlights its node; search finds a node by name; arrows move between nodes', async () => {
  await page.evaluate(() =>
    (window as unknown as { __send: (m: unknown) => void }).__send({ type: 'highlight', nodeId: 'profile-columns' }),
  );
  assert.deepEqual(
    await page
      .locator('#graph .node.current')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id'))),
    ['profile-columns'],
  );
  await page.locator('#search').fill('write');
  assert.deepEqual(
    await page.locator('#graph .node.found').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id'))),
    ['write-report'],
  );
  await page.locator('#search').fill('');
  await page.locator('.node[data-id="load-table"]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-id')), 'profile-columns');
  const before = (await posted()).length;
  await page.keyboard.press('Enter');
  assert.equal((await posted())[before].type, 'reveal');
});

test('zoom and pan survive an update; unchanged structure keeps every position', async () => {
  const graph = graphOf('csv-report');
  await showGraph(graph);
  await page.locator('#zoom-in').click();
  const transform = await page.locator('#graph .viewport').getAttribute('transform');
  const positions = await page
    .locator('#graph .node')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('transform')));
  const edited = structuredClone(graph);
  // The same structure, new problems.
  edited.problems = [];
  await showGraph(edited);
  assert.equal(await page.locator('#graph .viewport').getAttribute('transform'), transform);
  assert.deepEqual(
    await page.locator('#graph .node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('transform'))),
    positions,
  );
});

test('the same graph sent again is not drawn again: a node clicked meanwhile is still the element clicked', async () => {
  const graph = graphOf('csv-report');
  await showGraph(graph);
  const node = page.locator('#graph .node[data-id="write-report"]');
  await node.evaluate((element) => element.setAttribute('data-mark', 'before'));
  await showGraph(structuredClone(graph));
  assert.equal(await node.getAttribute('data-mark'), 'before', 'an unchanged graph keeps its elements');
  const edited = structuredClone(graph);
  edited.problems = [];
  await showGraph(edited);
  await page.locator('#graph .node[data-id="write-report"]:not([data-mark])').waitFor();
});

test('direction switch posts the choice and lays out top-down', async () => {
  const before = (await posted()).length;
  await page.locator('#direction').click();
  assert.deepEqual((await posted()).slice(before), [{ type: 'direction', direction: 'DOWN' }]);
  // No named helpers inside: the test's TypeScript transform would add a `__name` call the page lacks.
  await page.waitForFunction(() => {
    const load = document.querySelector('.node[data-id="load-table"]')?.getAttribute('transform') ?? '';
    const write = document.querySelector('.node[data-id="write-report"]')?.getAttribute('transform') ?? '';
    return Number(/,([\d.]+)\)/.exec(write)?.[1] ?? 0) > Number(/,([\d.]+)\)/.exec(load)?.[1] ?? 0) + 100;
  });
  await page.screenshot({ path: path.join(ARTIFACTS, 'csv-report-top-down.png') });
  await page.locator('#direction').click();
});

test('export: an SVG document and a PNG data URL are posted to the extension', async () => {
  const before = (await posted()).length;
  await page.locator('#export-svg').click();
  await page.locator('#export-png').click();
  await page.waitForFunction(
    (count) => (window as unknown as { __posted: unknown[] }).__posted.length >= count + 2,
    before,
  );
  const [svg, png] = (await posted()).slice(before) as { type: string; format: string; data: string }[];
  assert.equal(svg.format, 'svg');
  assert.match(svg.data, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg.data, /load-table/);
  // Theme colours travel as presentation attributes (an inline style attribute would break the page's CSP).
  assert.match(svg.data, /<rect class="shape" [^>]*fill="rgb\(/);
  assert.deepEqual(errors, [], 'exporting logged errors (CSP violations included)');
  assert.equal(png.format, 'png');
  assert.match(png.data, /^data:image\/png;base64,/);
  assert.ok(png.data.length > 5000);
});

test('a large graph gets an overview; clicking it moves the view', async () => {
  const skill = writeAipSkill(mkdtempSync(path.join(tmpdir(), 'sg-large-')), 'large', 40);
  const graph = toGraphJson(analyzeSkill(new NodeFileSystem(), skill.file));
  await showGraph(graph);
  await page.locator('#fit').click();
  assert.equal(await page.locator('#overview').isVisible(), true);
  assert.equal(await page.locator('#overview .overview-node').count(), graph.nodes.length);
  const before = await page.locator('#graph .viewport').getAttribute('transform');
  const box = (await page.locator('#overview').boundingBox())!;
  await page.mouse.click(box.x + box.width - 5, box.y + 5);
  assert.notEqual(await page.locator('#graph .viewport').getAttribute('transform'), before);
  await page.screenshot({ path: path.join(ARTIFACTS, 'large-40-steps.png') });
  // The overview has a lane of its own beside the drawing, and covers no node.
  const view = (await page.locator('#graph').boundingBox())!;
  assert.ok(box.y >= view.y + view.height - 1, 'left-to-right, the overview is under the drawing');
  await showGraph(graphOf('release-digest'));
  // The view is still where the large graph left it; once fitted, a small graph is wholly in view and needs no
  // overview, and the drawing has the whole room again.
  await page.locator('#fit').click();
  assert.equal(await page.locator('#overview').isVisible(), false, 'small graphs need no overview');
  assert.equal(
    (await page.locator('#graph').boundingBox())!.height,
    (await page.locator('#canvas').boundingBox())!.height,
  );
});

test('themes: VS Code dark and high-contrast colours apply through CSS variables', async () => {
  await showGraph(graphOf('csv-report'));
  await page.evaluate(() => {
    document.body.classList.add('vscode-dark');
    document.documentElement.style.setProperty('--vscode-editor-background', '#1e1e1e');
    document.documentElement.style.setProperty('--vscode-editor-foreground', '#d4d4d4');
    document.documentElement.style.setProperty('--vscode-editorWidget-background', '#252526');
  });
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(30, 30, 30)');
  assert.equal(
    await page
      .locator('.node[data-id="load-table"] .shape')
      .first()
      .evaluate((shape) => getComputedStyle(shape).fill),
    'rgb(37, 37, 38)',
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'csv-report-dark.png') });
});

test('compact nodes: a long name wraps onto two lines, a long type is abbreviated, the full texts are on hover', async () => {
  const graph = structuredClone(graphOf('csv-report'));
  const step = graph.nodes.find((node) => node.id === 'profile-columns')!;
  step.label = 'profile-every-column-of-the-loaded-table-carefully';
  step.outputs[0].type = 'list[dict[str, ColumnStatistics]]';
  await showGraph(graph, 'DOWN');
  const node = page.locator('.node[data-id="profile-columns"]');
  assert.deepEqual(await node.locator('.label tspan').allTextContents(), [
    'profile-every-column-of-',
    'the-loaded-table-carefu…',
  ]);
  assert.equal(await node.locator('title').first().textContent(), step.label);
  const port = node.locator(`.port[data-port="${step.outputs[0].name}"]`);
  assert.equal(await port.locator('text').textContent(), `${step.outputs[0].name}: list[…]`);
  assert.equal(await port.locator('title').textContent(), `${step.outputs[0].name}: list[dict[str, ColumnStatistics]]`);
  // The node grows for the type as far as a node may, and the type is abbreviated only past that.
  const width = Number(await node.locator('.shape').first().getAttribute('width'));
  assert.equal(width, NODE_MAX_WIDTH);
  // Top-down, inputs attach to the top edge and outputs to the bottom.
  const circles = await node.locator('.port circle').evaluateAll((items) =>
    items.map((item) => ({
      input: item.closest('.port')!.classList.contains('input'),
      y: Number(item.getAttribute('cy')),
    })),
  );
  const height = Number(await node.locator('.shape').first().getAttribute('height'));
  assert.ok(
    circles.every((circle) => Math.abs(circle.y - (circle.input ? 0 : height)) <= 4),
    `${JSON.stringify(circles)} on a node ${height} px high`,
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'compact-top-down.png') });
});

test('renders a MetaSkill composition: kinds, composed skills that open, guards, substitutes and binding edges into arguments', async () => {
  const graph = graphOf('weekly-digest');
  await showGraph(graph);
  assert.equal(await page.locator('#graph .node').count(), graph.nodes.length);
  assert.equal(await page.locator('#graph .edge.fallback').count(), 1);
  assert.equal(
    await page.locator('#graph .edge.data').count(),
    graph.edges.filter((edge) => edge.kind === 'data').length,
  );
  assert.equal(await page.locator('.node[data-id="scope"]').getAttribute('class'), 'node kind-user_input judgment');
  assert.equal(await page.locator('.node[data-id="metrics"] .subtitle').textContent(), '↗ csv-report');
  assert.equal(await page.locator('.node[data-id="digest"] .subtitle').textContent(), 'llm chat');
  // Binding edges end on the argument port they feed.
  assert.deepEqual(
    await page
      .locator('.node[data-id="digest"] .port.input')
      .evaluateAll((ports) => ports.map((port) => port.getAttribute('data-port'))),
    ['with.task'],
  );
  assert.ok((await page.locator('#graph .edge-label').allTextContents()).includes('with.task'));
  await page.locator('#fit').click();
  await page.locator('.node[data-id="metrics"] .open-skill').click();
  const opened = (await posted()).filter((message) => message.type === 'openSkill');
  assert.deepEqual(opened, [{ type: 'openSkill', file: path.join(EXAMPLES, 'csv-report', 'SKILL.md') }]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'weekly-digest.png') });
  // A guard and route cases show under the step.
  const broken = toGraphJson(
    analyzeSkill(new NodeFileSystem(), path.join(EXAMPLES, 'mistakes', 'broken-composition', 'SKILL.md')),
  );
  await showGraph(broken);
  assert.equal(await page.locator('.node[data-id="summary"] .badge').textContent(), "when {{ outputs.review }} != ''");
  assert.deepEqual(errors, []);
});

test('renders a skill+ flow: stages as clusters around their nodes, node kinds, tips and rules where they fire; a node opens its line in flow.py', async () => {
  const graph = graphOf('trip-planner');
  await showGraph(graph);
  assert.deepEqual(
    await page
      .locator('#graph .cluster')
      .evaluateAll((clusters) => clusters.map((cluster) => cluster.getAttribute('data-group'))),
    ['ask', 'research', 'decide'],
  );
  // Each node is drawn inside its stage's frame.
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll('#graph .node')].map((node) => {
      const box = (node as SVGGraphicsElement).getBoundingClientRect();
      const group = (node as SVGGElement).getAttribute('data-id');
      return { id: group, x: box.x, y: box.y, right: box.right, bottom: box.bottom };
    }),
  );
  for (const node of graph.nodes.filter((item) => item.group)) {
    const frame = await page.locator(`.cluster-box[data-group="${node.group}"]`).boundingBox();
    const box = boxes.find((item) => item.id === node.id)!;
    assert.ok(
      frame &&
        box.x >= frame.x - 1 &&
        box.right <= frame.x + frame.width + 1 &&
        box.y >= frame.y - 8 &&
        box.bottom <= frame.y + frame.height + 1,
      `${node.id} inside ${node.group}`,
    );
  }
  // Every node of the graph is drawn, and `traveller`, given from outside and read in two stages, once in each of them
  // (beside `where` in ask, and `write` in decide), so no edge of it crosses the stage between.
  assert.deepEqual(
    await page
      .locator('#graph .node')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')!))
      .then((ids) => ids.sort()),
    [...graph.nodes.map((node) => node.id), 'input:traveller@decide'].sort(),
  );
  assert.equal(
    await page.locator('.node[data-id="input:traveller@decide"]').getAttribute('class'),
    await page.locator('.node[data-id="input:traveller"]').getAttribute('class'),
  );
  for (const [input, stage] of [
    ['input:traveller', 'ask'],
    ['input:traveller@decide', 'decide'],
  ]) {
    const frame = (await page.locator(`.cluster-box[data-group="${stage}"]`).boundingBox())!;
    const box = (await page.locator(`.node[data-id="${input}"]`).boundingBox())!;
    assert.ok(box.x >= frame.x && box.x + box.width <= frame.x + frame.width, `${input} inside ${stage}`);
    assert.ok(box.y >= frame.y && box.y + box.height <= frame.y + frame.height, `${input} inside ${stage}`);
  }
  assert.equal(await page.locator('.edge[data-from="input:traveller"][data-to="where"]').count(), 1);
  assert.equal(await page.locator('.edge[data-from="input:traveller@decide"][data-to="write"]').count(), 1);
  // Either copy opens the input where the original does (the copy is out of view at this zoom: the click goes to it).
  await page.locator('.node[data-id="input:traveller@decide"]').dispatchEvent('click');
  const traveller = graph.nodes.find((node) => node.id === 'input:traveller')!;
  assert.deepEqual((await posted()).at(-1), { type: 'reveal', range: traveller.range, file: traveller.file });
  assert.equal(await page.locator('.node.kind-fanout .shape.stacked').count(), 1);
  assert.deepEqual(await page.locator('.node[data-id="stop-notes"] .badge').allTextContents(), [
    'tips: budget-travel',
    'rules: cite, no-secrets!',
  ]);
  // The loop's back edge and exit, the branch's cases.
  assert.equal(await page.locator('.edge.control[data-from="fill"][data-to="refine"]').count(), 1);
  assert.ok(
    (await page.locator('#graph .edge-label').allTextContents()).some((label) => label.startsWith('until coverage')),
  );
  // Fit keeps names readable, which leaves part of this flow out of view: zoom out (the user's choice) until the last
  // stage shows.
  const title = page.locator('.cluster[data-group="decide"] .cluster-title');
  for (let step = 0; step < 10 && !(await inView(title)); step++) await page.keyboard.press('-');
  const before = (await posted()).length;
  await page.locator('.node[data-id="route"] .label').click();
  const route = graph.nodes.find((node) => node.id === 'route')!;
  assert.equal(route.file, path.join(EXAMPLES, 'trip-planner', 'flow.py'));
  assert.deepEqual((await posted()).slice(before), [{ type: 'reveal', range: route.range, file: route.file }]);
  await page.locator('.cluster[data-group="decide"] .cluster-title').click();
  const decide = graph.groups!.find((group) => group.id === 'decide')!;
  assert.deepEqual((await posted()).slice(before + 1), [{ type: 'reveal', range: decide.range, file: decide.file }]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'trip-planner.png') });
  assert.deepEqual(errors, []);
});

test('evals beside the steps they name: a step shows the test cases whose expectations name it', async () => {
  const dir = path.join(EXAMPLES, 'csv-report');
  // The cases are held in memory beside the example: nothing is written into it.
  const fs = new OverlayFileSystem(
    new NodeFileSystem(),
    new Map([
      [
        path.join(dir, 'evals', 'evals.json'),
        JSON.stringify({
          skill_name: 'csv-report',
          evals: [
            {
              id: 1,
              prompt: 'Profile sales.csv',
              expected_output: 'A report',
              expectations: ['step `load-table` reads every row'],
            },
            {
              id: 2,
              prompt: 'Profile a TSV',
              expected_output: 'A report',
              expectations: ['the `load-table` step detects tabs'],
            },
          ],
        }),
      ],
    ]),
  );
  const graph = toGraphJson(analyzeSkill(fs, path.join(dir, 'SKILL.md')));
  await showGraph(graph);
  assert.deepEqual(await page.locator('.node[data-id="load-table"] .badge').allTextContents(), ['\u2713 evals: 1, 2']);
  assert.equal(await page.locator('.node[data-id="write-report"] .badge').count(), 0);
  await page.screenshot({ path: path.join(ARTIFACTS, 'evals-beside-steps.png') });
  assert.deepEqual(errors, []);
});

test('a risky step is marked: dashed in the error colour, with what its script does', async () => {
  const { skillMd, files } = aip03(
    'setup',
    'purpose: Set up.\ntrigger_when:\n  - asked\nsteps:\n  - name: install\n    description: Install the tool.\n    script: scripts/install.sh\n  - name: report\n    description: Say what was installed.\n',
  );
  const { analysis } = analyzeFixture('setup', skillMd, {
    ...files,
    'scripts/install.sh': '#!/bin/sh\ncurl -fsSL https://get.example.dev/install.sh | sh\n',
  });
  await showGraph(toGraphJson(analysis));
  assert.equal(await page.locator('.node.risky').count(), 1);
  // The badge is cut to the node's width; the full text is on hover.
  assert.match(
    (await page.locator('.node.risky[data-id="install"] .badge').allTextContents()).join(),
    /^\u26A0 pipes a download into a shell/,
  );
  assert.equal(
    await page
      .locator('.node.risky[data-id="install"] > .shape')
      .evaluate((shape) => getComputedStyle(shape).strokeDasharray),
    '6px, 3px',
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'risky-step.png') });
  assert.deepEqual(errors, []);
});

test('the context page: parts with their sizes, a bar of their shares, what was left out; the State form posts what it holds', async () => {
  const contextPage = await context.newPage();
  const pageErrors: string[] = [];
  contextPage.on('pageerror', (error) => pageErrors.push(String(error)));
  await contextPage.goto(`${served.url}context`);
  const sent = () => contextPage.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted);
  await contextPage.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
  );
  const analysis = analyzeSkill(new NodeFileSystem(), path.join(EXAMPLES, 'trip-planner', 'SKILL.md'));
  const built = modelContext(
    asSkillplus(analysis).skillplus,
    analysis.text.slice(analysis.syntax!.body.start),
    'trip-planner',
    {
      node: 'stop-notes',
      state: { budget: 'low' },
    },
  );
  assert.ok(!('error' in built));
  const nodes = toGraphJson(analysis)
    .nodes.filter((node) => node.kind !== 'external-input')
    .map((node) => ({ id: node.id, kind: node.kind, ...(node.group ? { stage: node.group } : {}) }));
  await contextPage.evaluate((message) => (window as unknown as { __send: (m: unknown) => void }).__send(message), {
    type: 'context',
    context: built,
    nodes,
  });
  await contextPage.locator('#summary', { hasText: 'at "stop-notes"' }).waitFor();
  assert.deepEqual(
    await contextPage
      .locator('.part h2')
      .evaluateAll((headings) => headings.map((heading) => heading.firstChild!.textContent)),
    built.parts.map((part) => part.title),
  );
  assert.deepEqual(
    await contextPage.locator('.part .size').allTextContents(),
    built.parts.map((part) => `${part.chars.toLocaleString('en')} chars · ~${part.tokens} tokens`),
  );
  assert.equal(await contextPage.locator('#node').inputValue(), 'stop-notes');
  assert.deepEqual(JSON.parse(await contextPage.locator('#state').inputValue()), built.state);
  assert.deepEqual(
    await contextPage.locator('#left-out li').allTextContents(),
    built.leftOut.map((item) => `${item.kind} ${item.id}: ${item.reason}`),
  );
  // The bar's segments share its width as the parts share the characters.
  const widths = await contextPage
    .locator('#bar .segment')
    .evaluateAll((segments) => segments.map((segment) => (segment as HTMLElement).getBoundingClientRect().width));
  const total = widths.reduce((sum, width) => sum + width, 0);
  built.parts.forEach((part, index) =>
    assert.ok(Math.abs(widths[index] / total - part.chars / built.chars) < 0.01, part.title),
  );
  // A State that is not JSON is refused on the page; a good one is posted with the position.
  await contextPage.locator('#state').fill('{ budget: ');
  await contextPage.locator('#apply').click();
  assert.match((await contextPage.locator('#form-error').textContent()) ?? '', /not JSON/);
  assert.equal((await sent()).filter((message) => message.type === 'compute').length, 0);
  await contextPage.locator('#state').fill('{"budget": "high"}');
  await contextPage.locator('#round').fill('2');
  await contextPage.locator('#apply').click();
  assert.deepEqual(
    (await sent()).filter((message) => message.type === 'compute'),
    [{ type: 'compute', node: 'stop-notes', state: { budget: 'high' }, round: 2 }],
  );
  assert.equal(await contextPage.locator('#form-error').textContent(), '');
  await contextPage.locator('.part.soft-rule a.file').click();
  assert.deepEqual(
    (await sent()).filter((message) => message.type === 'open'),
    [{ type: 'open', file: 'rules/cite.md' }],
  );
  await contextPage.screenshot({ path: path.join(ARTIFACTS, 'context.png'), fullPage: true });
  await contextPage.close();
  assert.deepEqual(pageErrors, []);
});
