import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { writeAipSkill, type GeneratedSkill } from '../support/generate';
import { analyzeSkill } from '../../server/src/analyze';
import { toGraphJson } from '../../server/src/forms/graphJson';
import { NodeFileSystem } from '../../server/src/workspace/fileSystem';
import { REPO } from './codeServer';
import {
  expectSettled,
  goTo,
  openFile as openIn,
  previewFrame,
  runCommand as runIn,
  openExamplesWorkbench,
  screenshotOnFailure,
  type ExamplesWorkbench,
} from './workbench';

const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-preview');
let workbench: ExamplesWorkbench;
let page: Page;
const openFile = (relative: string, firstLine: string) => openIn(page, relative, firstLine);
const runCommand = (title: string) => runIn(page, title);
const preview = () => previewFrame(page);

before(async () => {
  workbench = await openExamplesWorkbench({
    artifacts: ARTIFACTS,
    port: 18393,
    folder: 'csv-report',
    // These tests type YAML and watch the preview follow it; no suggestion opens while they type, so none can be
    // accepted in place of the text (a key completion once replaced a typed line on a busy machine).
    settings: {
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      'editor.suggestOnTriggerCharacters': false,
      'editor.acceptSuggestionOnEnter': 'off',
    },
  });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
});

test('the preview opens beside an example and draws its graph', async () => {
  await openFile('csv-report/SKILL.md', 'name: csv-report');
  await runCommand('Skillgraph: Open Graph Preview to the Side');
  await preview().locator('.node[data-id="load-table"]').waitFor({ timeout: 60000 });
  await expectSettled(() => preview().locator('.node').count(), 5);
  await expectSettled(() => preview().locator('#status').textContent(), '4 steps · 10 edges');
  await page.screenshot({ path: path.join(ARTIFACTS, 'csv-report.png') });
});

test('clicking a node moves the editor selection to that step', async () => {
  await preview().locator('#fit').click();
  await preview().locator('.node[data-id="write-report"] .label').click();
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'click-failed.png'), () =>
    page.locator('.statusbar-item', { hasText: /Ln 60, Col 23 \(12 selected\)/ }).waitFor({ timeout: 30000 }),
  );
});

test('moving the cursor in the editor highlights the node under it', async () => {
  await goTo(page, 40, 5);
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'follow-cursor-failed.png'), () =>
    preview().locator('.node.current[data-id="profile-columns"]').waitFor({ timeout: 30000 }),
  );
});

test('typing a new step makes it appear; its misspelt input shows as broken', async () => {
  // Typed only once the cursor is there: typed at once, under load the first line went into Go to Line's box before it
  // closed.
  await goTo(page, 72, 1);
  const lines = [
    '  - name: publish-report',
    '    description: Publish the report.',
    '    inputs:',
    '      - name: report-pth',
    '        type: string',
    '',
  ];
  for (const line of lines) {
    // Clear the editor's auto-indent, then type the line as written.
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Delete');
    await page.keyboard.type(line);
    // A suggestion list may have opened on the last character (completion triggers on space, `-` and `:`); on a busy
    // machine it is still open here, and Enter would accept a suggestion instead of ending the line.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
  }
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'new-step-failed.png'), () =>
    preview().locator('.node[data-id="publish-report"]').waitFor({ timeout: 30000 }),
  );
  await preview()
    .locator('.node[data-id="publish-report"] .port[data-port="report-pth"] .broken-stub')
    .waitFor({ timeout: 30000 });
  // Typing sends a graph per pause; wait for the one of the finished text.
  const expected = [
    'load-table',
    'profile-columns',
    'choose-focus',
    'write-report',
    'publish-report',
    'input:csv-path',
  ];
  const ids = () =>
    preview()
      .locator('.node')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')));
  const deadline = Date.now() + 30000;
  while (JSON.stringify(await ids()) !== JSON.stringify(expected) && Date.now() < deadline)
    await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(ARTIFACTS, 'csv-report-new-step.png') });
  assert.deepEqual(await ids(), expected);
});

test('previews of the other examples', async () => {
  for (const [relative, first, id] of [
    ['ticket-triage/SKILL.md', 'name: ticket-triage', 'by-kind'],
    ['mistakes/broken-procedure/SKILL.md', 'name: broken-procedur', 'summarise'],
  ] as const) {
    await openFile(relative, first);
    await runCommand('Skillgraph: Open Graph Preview to the Side');
    await preview().locator(`.node[data-id="${id}"]`).waitFor({ timeout: 60000 });
    await page.screenshot({ path: path.join(ARTIFACTS, `${path.basename(path.dirname(relative))}.png`) });
  }
  await expectSettled(() => preview().locator('.edge.cycle').count(), 2);
});

/** The on-screen height (px) of every line of every step name drawn in the preview, measured from the page's boxes. */
async function nameHeights(): Promise<number[]> {
  return preview()
    .locator('.node .label tspan')
    .evaluateAll((lines) => lines.map((line) => line.getBoundingClientRect().height).filter((height) => height > 0));
}

/**
 * Moves the mouse off the tabs (a tab's hover, left by a Quick Open pick, would cover the preview's toolbar) and waits
 * for hovers to close.
 */
async function clickInPreview(selector: string): Promise<void> {
  await page.mouse.move(800, 995);
  await page.locator('.context-view .hover-contents').waitFor({ state: 'hidden' });
  await preview().locator(selector).click();
}

/** The nodes of the preview that the reader sees: their boxes meet the preview's own view. */
async function visibleNodes(): Promise<string[]> {
  return preview()
    .locator('.node')
    .evaluateAll((nodes) => {
      const view = document.getElementById('graph')!.getBoundingClientRect();
      return nodes
        .filter((node) => {
          const box = node.getBoundingClientRect();
          return box.right > view.left && box.left < view.right && box.bottom > view.top && box.top < view.bottom;
        })
        .map((node) => node.getAttribute('data-id')!);
    });
}

/** Whether a node of the preview lies wholly inside the preview's own view. */
async function nodeInView(id: string): Promise<boolean> {
  return preview()
    .locator(`.node[data-id="${id}"]`)
    .evaluate((node) => {
      const box = node.getBoundingClientRect();
      const view = document.getElementById('graph')!.getBoundingClientRect();
      return box.left >= view.left && box.top >= view.top && box.right <= view.right && box.bottom <= view.bottom;
    });
}

/** The skills whose previews are measured: every example with a graph, then generated procedures of 12 and 40 steps. */
const READABLE_SKILLS = [
  'csv-report',
  'ticket-triage',
  'weekly-digest',
  'release-digest',
  'trip-planner',
  'mistakes/broken-procedure',
  'mistakes/broken-composition',
  'mistakes/broken-flow',
  'generated-12',
  'generated-40',
];
const heights: Record<string, { direction: string; open: number; fit: number; steps: number; seen: number }> = {};
let forty: GeneratedSkill;

test('step names are at least 11 px high beside the file, after opening and after Fit, for every example and for 12- and 40-step procedures', async () => {
  writeAipSkill(workbench.workspace, 'generated-12', 12);
  forty = writeAipSkill(workbench.workspace, 'generated-40', 40);
  // Start from an empty editor area: the edit of an earlier test is reverted, every preview closed.
  await openFile('csv-report/SKILL.md', 'name: csv-report');
  await runCommand('View: Revert and Close Editor');
  await runCommand('View: Close All Editors');
  for (const skill of READABLE_SKILLS) {
    const relative = `${skill}/SKILL.md`;
    const firstName = /^name: .*$/m.exec(readFileSync(path.join(workbench.workspace, relative), 'utf8'))![0];
    await openFile(relative, firstName);
    await runCommand('Skillgraph: Open Graph Preview to the Side');
    await preview().locator('.node .label').first().waitFor({ timeout: 60000 });
    // The first fit happens once the graph is drawn; let a resize of the new panel settle.
    await page.waitForTimeout(500);
    const open = Math.min(...(await nameHeights()));
    // Names drawn readably may still all lie outside the view (a 40-step preview once opened on an empty canvas).
    const seen = (await visibleNodes()).length;
    await page.screenshot({ path: path.join(ARTIFACTS, `readable-${path.basename(skill)}.png`) });
    await clickInPreview('#fit');
    const fit = Math.min(...(await nameHeights()));
    const steps = Number(/^(\d+) step/.exec((await preview().locator('#status').textContent()) ?? '')?.[1] ?? 0);
    heights[skill] = { direction: (await preview().locator('#direction').textContent()) ?? '', open, fit, steps, seen };
    // Written before asserting, so a failing run still records what it measured.
    writeFileSync(path.join(ARTIFACTS, 'name-heights.json'), JSON.stringify(heights, null, 2));
    // Close the file and its preview: the next skill's open in the same places.
    await runCommand('View: Close All Editors');
  }
  for (const [skill, measured] of Object.entries(heights)) {
    assert.ok(measured.open >= 11, `${skill}: names ${measured.open.toFixed(1)} px high after opening`);
    assert.ok(measured.fit >= 11, `${skill}: names ${measured.fit.toFixed(1)} px high after Fit`);
    assert.ok(measured.steps > 0, `${skill}: its steps are drawn`);
    assert.ok(measured.seen >= Math.min(3, measured.steps), `${skill}: ${measured.seen} nodes in view after opening`);
    // The panel beside the file is tall and narrow: top-down.
    assert.equal(measured.direction, 'Auto ↕', `${skill}: direction`);
  }
});

test('moving the cursor to a step out of view scrolls it into view; focus shows exactly its producers and consumers', async () => {
  await openFile('generated-40/SKILL.md', 'name: generated-40');
  await runCommand('Skillgraph: Open Graph Preview to the Side');
  await preview().locator('.node[data-id="step-0035"]').waitFor({ timeout: 60000 });
  await page.waitForTimeout(500);
  assert.equal(await nodeInView('step-0035'), false, 'a step near the end starts out of view');
  const line = (id: string) => forty.text.split('\n').indexOf(`  - name: ${id}`) + 1;
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, line('step-0035'), 5);
  await preview().locator('.node.current[data-id="step-0035"]').waitFor({ timeout: 30000 });
  const deadline = Date.now() + 10000;
  while (!(await nodeInView('step-0035')) && Date.now() < deadline) await page.waitForTimeout(100);
  assert.equal(await nodeInView('step-0035'), true, 'the cursor’s step is scrolled into view');
  assert.ok(Math.min(...(await nameHeights())) >= 11, 'scrolling, not zooming out');
  await page.screenshot({ path: path.join(ARTIFACTS, 'follow-cursor.png') });

  const graph = toGraphJson(
    analyzeSkill(new NodeFileSystem(), path.join(workbench.workspace, 'generated-40', 'SKILL.md')),
  );
  const neighbourhood = (id: string) =>
    [
      ...new Set([
        id,
        ...graph.edges.filter((edge) => edge.from === id || edge.to === id).flatMap((edge) => [edge.from, edge.to]),
      ]),
    ].sort();
  const drawn = () =>
    preview()
      .locator('.node')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')!).sort());
  await clickInPreview('#focus');
  await preview().locator('#status', { hasText: 'Focus: step-0035' }).waitFor({ timeout: 30000 });
  assert.deepEqual(await drawn(), neighbourhood('step-0035'));
  assert.ok(neighbourhood('step-0035').length >= 3, 'the step has producers and consumers to show');
  await page.screenshot({ path: path.join(ARTIFACTS, 'focus-step-0035.png') });
  // The focus follows the cursor.
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, line('step-0010'), 5);
  await preview().locator('#status', { hasText: 'Focus: step-0010' }).waitFor({ timeout: 30000 });
  assert.deepEqual(await drawn(), neighbourhood('step-0010'));
  await page.screenshot({ path: path.join(ARTIFACTS, 'focus-step-0010.png') });
  await clickInPreview('#focus');
  await preview()
    .locator('#status', { hasText: /^40 steps/ })
    .waitFor({ timeout: 30000 });
});

test('widening the panel switches the layout to left-to-right', async () => {
  const placed = () =>
    preview()
      .locator('.node')
      .evaluateAll((nodes) =>
        Object.fromEntries(
          nodes.map((node) => [
            node.getAttribute('data-id'),
            /translate\(([-\d.]+),([-\d.]+)\)/
              .exec(node.getAttribute('transform') ?? '')!
              .slice(1)
              .map(Number),
          ]),
        ),
      );
  const before = await placed();
  assert.ok(before['step-0005'][1] > before['step-0000'][1] + 100, 'top-down to begin with');
  // Make the preview's group wide: hide the side bar, then drag the sash between the groups to the left.
  await runCommand('View: Toggle Primary Side Bar Visibility');
  const sash = page.locator('.part.editor .monaco-sash.vertical').first();
  const box = (await sash.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(260, box.y + box.height / 2, { steps: 10 });
  await page.mouse.up();
  await preview().locator('#direction', { hasText: 'Auto ↔' }).waitFor({ timeout: 30000 });
  const deadline = Date.now() + 10000;
  let after = await placed();
  while (!(after['step-0005'][0] > after['step-0000'][0] + 100) && Date.now() < deadline) {
    await page.waitForTimeout(200);
    after = await placed();
  }
  assert.ok(after['step-0005'][0] > after['step-0000'][0] + 100, 'left to right once wide');
  assert.ok(Math.min(...(await nameHeights())) >= 11, 'still readable once wide');
  await page.screenshot({ path: path.join(ARTIFACTS, 'wide-left-to-right.png') });
});
