import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { analyzeSkill } from '../../server/src/analyze';
import { toGraphJson } from '../../server/src/forms/graphJson';
import { toDot, toMermaid } from '../../server/src/forms/graphText';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { openBrowser } from '../support/browser';
import { servePreview } from '../support/previewPage';
import type { GraphJson } from '../../server/src/protocol';

// The Mermaid and DOT exports rendered by the real renderers (Mermaid in Chromium, as a Markdown viewer draws it;
// Graphviz compiled to WebAssembly), and every line compared with the preview's own drawing of the same graph: a
// wrong export fails to parse, or draws a line in another colour or dash than the preview.

const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'exports');
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const SKILLS = [
  'csv-report',
  'ticket-triage',
  'weekly-digest',
  'trip-planner',
  'mistakes/broken-procedure',
  'mistakes/broken-composition',
  'mistakes/broken-flow',
];

/** A drawn line as the eye sees it: between which nodes, in which colour, dashed or not, thick or not. */
interface Line {
  from: string;
  to: string;
  look: string;
}

let served: Awaited<ReturnType<typeof servePreview>>;
let context: BrowserContext;
let page: Page;
/** A page of its own for the renders: the preview's Content-Security-Policy allows no other script. */
let plain: Page;
let graphviz: { dot: (text: string) => string };

function graphOf(skill: string): GraphJson {
  return toGraphJson(analyzeSkill(new NodeFileSystem(), path.join(EXAMPLES, skill, 'SKILL.md')));
}

/**
 * The lines of an SVG in the page, with what names their ends (the preview's `data-from`/`data-to`, Mermaid's edge
 * id, Graphviz's title), and their look read from the computed style (so a style attribute or a class counts).
 */
async function linesIn(on: Page, selector: string): Promise<{ ends: string[]; look: string }[]> {
  return on.locator(selector).evaluateAll((paths) =>
    paths.map((item) => {
      const style = getComputedStyle(item);
      const dashed = style.strokeDasharray !== 'none' && !/^0(px)?$/.test(style.strokeDasharray);
      const thick = parseFloat(style.strokeWidth) >= 2.5;
      const group = item.closest('g.edge');
      return {
        ends: [
          group?.getAttribute('data-from') ?? '',
          group?.getAttribute('data-to') ?? '',
          item.getAttribute('data-id') ?? '',
          group?.querySelector(':scope > title')?.textContent ?? '',
        ],
        look: `${style.stroke}${dashed ? ' dashed' : ''}${thick ? ' thick' : ''}`,
      };
    }),
  );
}

const sorted = (lines: Line[]) => lines.map((line) => `${line.from} → ${line.to}: ${line.look}`).sort();

/** The preview's own lines for the graph, in its light theme. */
async function previewLines(graph: GraphJson): Promise<Line[]> {
  await page.goto(served.url);
  await page.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'),
  );
  await page.evaluate((message) => (window as unknown as { __send: (m: unknown) => void }).__send(message), {
    type: 'graph',
    graph,
    direction: 'RIGHT',
  });
  await page.locator('#graph .edge').first().waitFor({ state: 'attached' });
  // An outside value read in several stages is drawn once in each (`id@stage`): one node of the graph.
  const node = (id: string) => id.replace(/^(input:.*)@[^@]*$/, '$1');
  return (await linesIn(page, '#graph .edge path.line')).map(({ ends: [from, to], look }) => ({
    from: node(from),
    to,
    look,
  }));
}

/** Mermaid's rendering, in the page; its edge ids name the ends by their index in the export. */
async function mermaidLines(graph: GraphJson, skill: string): Promise<Line[]> {
  await plain.setContent('<!doctype html><body><div id="out"></div></body>');
  await plain.addScriptTag({ path: require.resolve('mermaid/dist/mermaid.min.js') });
  const svg = await plain.evaluate(async (text) => {
    const mermaid = (
      window as unknown as {
        mermaid: { initialize: (o: object) => void; render: (id: string, text: string) => Promise<{ svg: string }> };
      }
    ).mermaid;
    mermaid.initialize({ startOnLoad: false });
    const { svg } = await mermaid.render('exported', text);
    document.getElementById('out')!.innerHTML = svg;
    return svg;
  }, toMermaid(graph));
  writeFileSync(path.join(ARTIFACTS, `${path.basename(skill)}.mermaid.svg`), svg);
  return (await linesIn(plain, '#out path.flowchart-link')).map(({ ends, look }) => {
    const [, from, to] = /^L_n(\d+)_n(\d+)_/.exec(ends[2])!;
    return { from: graph.nodes[Number(from)].id, to: graph.nodes[Number(to)].id, look };
  });
}

/** Graphviz's rendering, shown in the page to read its lines as the eye would; its titles name the ends. */
async function dotLines(graph: GraphJson, skill: string): Promise<Line[]> {
  const svg = graphviz.dot(toDot(graph));
  writeFileSync(path.join(ARTIFACTS, `${path.basename(skill)}.dot.svg`), svg);
  await plain.setContent(`<!doctype html><body><div id="out">${svg.slice(svg.indexOf('<svg'))}</div></body>`);
  return (await linesIn(plain, '#out g.edge > path')).map(({ ends, look }) => {
    const [from, to] = ends[3].split('->');
    return { from, to, look };
  });
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  graphviz = await Graphviz.load();
  served = await servePreview();
  ({ context, page } = await openBrowser(served.url));
  plain = await context.newPage();
});
after(async () => {
  await context?.close();
  await served?.close();
});

test('Mermaid and Graphviz render every example, each line in the colour, dash and width the preview draws it', async () => {
  for (const skill of SKILLS) {
    const graph = graphOf(skill);
    const preview = await previewLines(graph);
    const drawn = new Set(preview.map((line) => `${line.from}>${line.to}`));
    // The preview draws a misspelt input as a stub at its port, not as an edge: it is compared below.
    const comparable = (lines: Line[]) => sorted(lines.filter((line) => drawn.has(`${line.from}>${line.to}`)));
    const mermaid = await mermaidLines(graph, skill);
    const dot = await dotLines(graph, skill);
    assert.equal(mermaid.length, graph.edges.length, `${skill}: Mermaid draws every edge`);
    assert.equal(dot.length, graph.edges.length, `${skill}: Graphviz draws every edge`);
    assert.deepEqual(comparable(mermaid), sorted(preview), `${skill}: Mermaid's lines`);
    assert.deepEqual(comparable(dot), sorted(preview), `${skill}: Graphviz's lines`);
  }
});

test('broken-procedure: the findings are marked in both renders, the legend opens both, no self-loop', async () => {
  const graph = graphOf('mistakes/broken-procedure');
  const red = 'rgb(229, 20, 0)';
  for (const [name, lines] of [
    ['Mermaid', await mermaidLines(graph, 'broken-procedure')],
    ['Graphviz', await dotLines(graph, 'broken-procedure')],
  ] as const) {
    assert.deepEqual(
      lines.filter((line) => line.from === line.to),
      [],
      `${name}: the duplicate publish is no edge`,
    );
    assert.deepEqual(
      sorted(lines.filter((line) => line.look.startsWith(red))),
      [
        `input:raw_data → clean-data: ${red} dashed`,
        `publish → summarise: ${red} thick`,
        `reveiw → publish: ${red} dashed`,
        `summarise → publish: ${red} thick`,
      ],
      `${name}: the cycle thick, the dangling edge and the misspelt input dashed, all red`,
    );
  }
  // The marked nodes, as rendered: Mermaid keeps the class on the node's group, Graphviz the colour on its outline.
  await mermaidLines(graph, 'broken-procedure');
  const classes = await plain
    .locator('#out g.node')
    .evaluateAll((nodes) => nodes.map((node) => `${node.textContent?.trim()}: ${node.getAttribute('class')}`));
  assert.ok(classes.includes('? reveiw: node default missing'), classes.join('\n'));
  assert.ok(classes.includes('✕ raw_data: node default misspelt'), classes.join('\n'));
  assert.ok(classes.includes('publish: node default error'), classes.join('\n'));
  const svg = graphviz.dot(toDot(graph));
  assert.match(svg, /<title>reveiw<\/title>\n<path fill="none" stroke="#e51400" stroke-dasharray="5,2"/);
  assert.match(svg, /<title>reveiw&#45;&gt;publish<\/title>\n<path [^\n]*\n<polygon fill="none" stroke="#e51400"/);
  for (const text of [toMermaid(graph), toDot(graph)]) {
    assert.match(text, /(%%|\/\/) Legend \(as the Skillgraph preview draws it\):/);
    assert.match(text, /(%%|\/\/) {3}thick red line {26}finding: an edge of a dependency cycle/);
  }
});
