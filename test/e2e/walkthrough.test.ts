import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO } from './codeServer';
import { goTo, previewFrame, runCommand, openExamplesWorkbench, type ExamplesWorkbench } from './workbench';

// The Getting started walkthrough in the real VS Code: each step's button
// does what the step says, on an example the extension copies into its own
// storage (the workspace is left alone).

const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-walkthrough');
let workbench: ExamplesWorkbench;
let page: Page;

before(async () => {
  workbench = await openExamplesWorkbench({ artifacts: ARTIFACTS, port: 18398, folder: 'csv-report' });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
});

/**
 * Clicks a button of the walkthrough's current step (the walkthrough's tab first, when the editor beside it has the
 * focus).
 */
async function stepButton(step: string, button: string): Promise<void> {
  await page.locator('.getting-started-step', { hasText: step }).first().click();
  await page.getByRole('button', { name: button }).click();
}

test('the walkthrough opens the example, shows a problem made in it, its graph and the compile targets', async () => {
  await runCommand(page, 'Welcome: Open Walkthrough...');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Skillgraph' }).first().click();
  await page.locator('.getting-started-step', { hasText: 'Open an example skill' }).first().waitFor({ timeout: 30000 });
  // Each step shows a drawing of what it does beside its text (an SVG in VS Code's theme colours).
  for (const [step, drawn] of [
    ['Open an example skill', 'load_table.py'],
    ['Make a mistake, see it at once', 'did you mean'],
    ['See the graph beside the file', 'focus-column: string'],
    ['Compile it to another form', 'Refactor Preview'],
  ]) {
    await page.locator('.getting-started-step', { hasText: step }).first().click();
    const media = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
    await media.locator('svg', { hasText: drawn }).waitFor({ timeout: 30000 });
    const box = (await media.locator('svg').first().boundingBox())!;
    assert.ok(box.width > 200 && box.height > 100, `${step}: its drawing is ${box.width}×${box.height}`);
  }
  await page.locator('.getting-started-step', { hasText: 'Open an example skill' }).first().click();
  await page.screenshot({ path: path.join(ARTIFACTS, '1-walkthrough.png') });

  await stepButton('Open an example skill', 'Open the Example');
  const editor = page.locator('.monaco-editor .view-line', { hasText: 'name: csv-report' }).first();
  await editor.waitFor({ timeout: 30000 });
  // The copy lives in the extension's storage, not in the workspace.
  const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').textContent()) ?? '';
  assert.match(crumbs, /globalStorage.*examples.*csv-report.*SKILL\.md/i);
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: aip-0.3' }).waitFor({ timeout: 60000 });

  // Step 2: misspell an input, as the step asks.
  await page.locator('.monaco-editor .view-lines').last().click();
  await goTo(page, 41, 15);
  await page.keyboard.press('Control+Shift+ArrowRight');
  await page.keyboard.type('tabel');
  await stepButton('Make a mistake', 'Show the Problems');
  await page
    .locator('.markers-panel .monaco-list-row', { hasText: 'No step produces "tabel"' })
    .first()
    .waitFor({ timeout: 60000 });
  await page.screenshot({ path: path.join(ARTIFACTS, '2-problem.png') });

  await stepButton('See the graph beside the file', 'Open the Graph Preview');
  await previewFrame(page).locator('.node[data-id="profile-columns"]').waitFor({ timeout: 60000 });
  await previewFrame(page)
    .locator('.node[data-id="profile-columns"] .port[data-port="tabel"] .broken-stub')
    .waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, '3-preview.png') });

  await stepButton('Compile it to another form', 'Compile the Skill');
  // The skill is the preview's (the editor beside the walkthrough is behind it now): its targets are offered.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'plain' }).first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, '4-compile.png') });
  await page.keyboard.press('Escape');
});
