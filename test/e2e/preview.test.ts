import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO } from './codeServer';
import { openFile as openIn, previewFrame, runCommand as runIn, openExamplesWorkbench, type ExamplesWorkbench } from './workbench';

const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-preview');
let workbench: ExamplesWorkbench;
let page: Page;
const openFile = (relative: string, firstLine: string) => openIn(page, relative, firstLine);
const runCommand = (title: string) => runIn(page, title);
const preview = () => previewFrame(page);

before(async () => {
  workbench = await openExamplesWorkbench({ artifacts: ARTIFACTS, port: 18393, folder: 'csv-report' });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
});

test('the preview opens beside an example and draws its graph', async () => {
  await openFile('csv-report/SKILL.md', 'name: csv-report');
  await runCommand('Skillgraph: Open Graph Preview to the Side');
  await preview().locator('.node[data-id="load-table"]').waitFor({ timeout: 60000 });
  assert.equal(await preview().locator('.node').count(), 5);
  assert.equal(await preview().locator('#status').textContent(), '4 steps · 10 edges');
  await page.screenshot({ path: path.join(ARTIFACTS, 'csv-report.png') });
});

test('clicking a node moves the editor selection to that step', async () => {
  await preview().locator('#fit').click();
  await preview().locator('.node[data-id="write-report"] .label').click();
  await page.locator('.statusbar-item', { hasText: /Ln 60, Col 23 \(12 selected\)/ }).waitFor({ timeout: 30000 });
});

test('moving the cursor in the editor highlights the node under it', async () => {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(':40:5');
  await page.keyboard.press('Enter');
  await preview().locator('.node.current[data-id="profile-columns"]').waitFor({ timeout: 30000 });
});

test('typing a new step makes it appear; its misspelt input shows as broken', async () => {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(':72:1');
  await page.keyboard.press('Enter');
  const lines = ['  - name: publish-report', '    description: Publish the report.', '    inputs:', '      - name: report-pth', '        type: string', ''];
  for (const line of lines) {
    // Clear the editor's auto-indent, then type the line as written.
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Delete');
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
  await preview().locator('.node[data-id="publish-report"]').waitFor({ timeout: 30000 });
  await preview().locator('.node[data-id="publish-report"] .port[data-port="report-pth"] .broken-stub').waitFor({ timeout: 30000 });
  // Typing sends a graph per pause; wait for the one of the finished text.
  const expected = ['load-table', 'profile-columns', 'choose-focus', 'write-report', 'publish-report', 'input:csv-path'];
  const ids = () => preview().locator('.node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')));
  const deadline = Date.now() + 30000;
  while (JSON.stringify(await ids()) !== JSON.stringify(expected) && Date.now() < deadline) await page.waitForTimeout(200);
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
  assert.equal(await preview().locator('.edge.cycle').count(), 2);
});
