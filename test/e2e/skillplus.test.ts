import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO } from './codeServer';
import {
  expectSettled,
  goTo,
  openFile,
  previewFrame,
  runCommand,
  openExamplesWorkbench,
  screenshotOnFailure,
  showProblems,
  type ExamplesWorkbench,
} from './workbench';

/**
 * A skill+ package in the real VS Code: predicate completion and highlighting in a tip, a rename in state.py flagged in
 * flow.py, the flow drawn, the model's context.
 */
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-skillplus');
let workbench: ExamplesWorkbench;
let page: Page;

const line = (text: string) => page.locator('.monaco-editor .view-line', { hasText: text }).first();

before(async () => {
  workbench = await openExamplesWorkbench({ artifacts: ARTIFACTS, port: 18395, folder: 'trip-planner' });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
});

test('in a tip: completion after a Literal field and = offers its values; the predicate is highlighted', async () => {
  await openFile(page, 'trip-planner/references/budget-travel.md', 'when: stage=research');
  // The language server has read the package once the status bar names its format.
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: skillplus' }).waitFor({ timeout: 60000 });
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, 2, 36);
  await page.keyboard.type(' or stage=decide and budget=');
  const rows = page.locator('.suggest-widget .monaco-list-row');
  await rows.first().waitFor({ timeout: 30000 });
  const labels = await rows.evaluateAll((items) =>
    items.map((item) => (item.getAttribute('aria-label') ?? '').split(',')[0]),
  );
  assert.deepEqual(labels, ['low', 'mid', 'high']);
  await page.screenshot({ path: path.join(ARTIFACTS, 'literal-completion.png') });
  await page.keyboard.press('Escape');
  // At the start of a path: the State's fields and the built-ins.
  await page.keyboard.type('high and ');
  await page.keyboard.press('Control+Space');
  await page.locator('.suggest-widget .monaco-list-row', { hasText: 'coverage' }).first().waitFor({ timeout: 30000 });
  const fields = await rows.evaluateAll((items) =>
    items.map((item) => (item.getAttribute('aria-label') ?? '').split(',')[0]),
  );
  // The widget renders the rows in view: the fields come first, the built-ins after them.
  for (const expected of ['traveller', 'budget', 'stops', 'coverage', 'event'])
    assert.ok(fields.includes(expected), fields.join(' | '));
  await page.keyboard.press('Escape');
  // The grammar splits the predicate: a path, an operator and a keyword are told apart.
  // The editor draws spaces as no-break spaces.
  const tokens = () =>
    line('when: stage=research')
      .locator('span > span')
      .evaluateAll((spans) =>
        spans.map((span) => [(span.textContent ?? '').replace(/\u00a0/g, ' '), span.className] as const),
      );
  const deadline = Date.now() + 30000;
  let found = await tokens();
  while (!found.some(([text]) => text === 'budget') && Date.now() < deadline) {
    await page.waitForTimeout(200);
    found = await tokens();
  }
  const classOf = (text: string) => found.find(([content]) => content === text)?.[1];
  // A built-in, a State path and a value each get their own scope, apart from the plain text around them (colours
  // depend on the theme; classes tell scopes apart).
  const [builtin, field, value, plain] = [classOf('stage'), classOf('budget'), classOf('low'), classOf(' and ')];
  assert.ok(builtin && field && value && plain, JSON.stringify(found));
  assert.equal(new Set([builtin, field, value, plain]).size, 4, JSON.stringify(found));
  // Undo until the line reads as saved: how many steps that takes depends on how the editor grouped the typing (by
  // timing).
  const saved = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.monaco-editor .view-line')].some(
        (row) => row.textContent?.replace(/\u00a0/g, ' ') === 'when: stage=research and budget=low',
      ),
    );
  for (let attempt = 0; attempt < 12 && !(await saved()); attempt++) {
    await page.keyboard.press('Control+Z');
    await page.waitForTimeout(250);
  }
  assert.ok(await saved(), 'the tip reads as saved again');
});

test('renaming a State field in state.py flags its use in flow.py before anything is saved', async () => {
  await openFile(page, 'trip-planner/state.py', 'What the trip planner knows');
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, 14, 5);
  // Select "budget" and type over it.
  await page.keyboard.press('Control+Shift+ArrowRight');
  await page.keyboard.type('spend');
  await line('spend: Literal').waitFor();
  await openFile(page, 'trip-planner/flow.py', 'Trip: ask, research');
  await showProblems(page);
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'is not a field of the State' });
  await row.first().waitFor({ timeout: 60000 });
  await expectSettled(() => row.first().textContent(), /into="budget"` of node "money"/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'renamed-field.png') });
  // Put the name back: the finding goes.
  await openFile(page, 'trip-planner/state.py', 'What the trip planner knows');
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, 14, 5);
  await page.keyboard.press('Control+Shift+ArrowRight');
  await page.keyboard.type('budget');
  await openFile(page, 'trip-planner/flow.py', 'Trip: ask, research');
  await row.first().waitFor({ state: 'detached', timeout: 60000 });
});

test('the flow preview opens from flow.py: stages as clusters, nodes by kind; a node opens its line', async () => {
  await openFile(page, 'trip-planner/flow.py', 'Trip: ask, research');
  await runCommand(page, 'Skillgraph: Open Graph Preview to the Side');
  const preview = previewFrame(page);
  await preview.locator('.node[data-id="stop-notes"]').waitFor({ timeout: 60000 });
  assert.deepEqual(
    await preview.locator('.cluster').evaluateAll((items) => items.map((item) => item.getAttribute('data-group'))),
    ['ask', 'research', 'decide'],
  );
  await expectSettled(() => preview.locator('.node.kind-fanout').count(), 1);
  await expectSettled(() => preview.locator('.node.kind-loop').count(), 1);
  await page.screenshot({ path: path.join(ARTIFACTS, 'flow-preview.png') });
  // The flow is taller than the panel at a readable zoom: find the node first, which scrolls it into view.
  await preview.locator('#search').fill('write');
  await preview.locator('.node[data-id="write"] .label').click();
  // The node's id is selected in flow.py (line 20, columns 29-33). The status bar shows a selection only while its
  // editor has focus, which a late focus report of the webview can take back on a loaded machine; its tab gives it
  // focus again without moving the selection.
  await page
    .getByRole('tab', { name: /^flow\.py/ })
    .first()
    .click();
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'flow-preview-click-failed.png'), () =>
    page.locator('.statusbar-item', { hasText: 'Ln 20, Col 34 (5 selected)' }).waitFor({ timeout: 30000 }),
  );
});

test('what the model sees at a node chosen in the preview: the tips for that node and State, with sizes', async () => {
  const preview = previewFrame(page);
  await preview.locator('#search').fill('route');
  await preview.locator('.node[data-id="route"] .label').click();
  await preview.locator('#context').click();
  const panel = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
  await panel.locator('#summary', { hasText: 'at "route"' }).waitFor({ timeout: 60000 });
  // With the default budget ("mid") the budget tip does not apply; with "low" it does.
  await expectSettled(() => panel.locator('#left-out').textContent(), /tip budget-travel: its when is false here/);
  await panel.locator('#state').fill('{"budget": "low"}');
  await panel.locator('#apply').click();
  await panel.locator('.part.tip h2', { hasText: 'Tip budget-travel' }).waitFor({ timeout: 30000 });
  await expectSettled(() => panel.locator('.part.tip .size').textContent(), /^64 chars · ~16 tokens$/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'model-context.png') });
});
