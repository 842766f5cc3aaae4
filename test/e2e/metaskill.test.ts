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
  showProblems,
  type ExamplesWorkbench,
} from './workbench';

/** A MetaSkill in the real VS Code: highlighting, binding completion, a quick fix, the composition drawn. */
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-metaskill');
let workbench: ExamplesWorkbench;
let page: Page;

const line = (text: string) => page.locator('.monaco-editor .view-line', { hasText: text }).first();

before(async () => {
  workbench = await openExamplesWorkbench({ artifacts: ARTIFACTS, port: 18394, folder: 'weekly-digest' });
  page = workbench.page;
  await openFile(page, 'weekly-digest/SKILL.md', 'name: weekly-digest');
});

after(async () => {
  await workbench?.close();
});

test('Jinja in the frontmatter is highlighted apart from the YAML string around it', async () => {
  await goTo(page, 48, 1);
  // VS Code reads SKILL.md as its own `skill` language (a Markdown grammar); the grammar is injected there too.
  const tokens = () =>
    line('metrics {{ outputs.metrics')
      .locator('span > span')
      .evaluateAll((spans) => spans.map((span) => [span.textContent ?? '', span.className] as const));
  const classOf = (found: (readonly [string, string])[], text: string) =>
    found.find(([content]) => content.includes(text))?.[1];
  // Tokenizing runs in the background: wait until the line is split into tokens.
  const deadline = Date.now() + 30000;
  let found = await tokens();
  while (found.length < 4 && Date.now() < deadline) {
    await page.waitForTimeout(200);
    found = await tokens();
  }
  assert.ok(
    found.some(([content]) => content === 'outputs'),
    JSON.stringify(found),
  );
  assert.notEqual(classOf(found, 'outputs'), classOf(found, 'metrics '), JSON.stringify(found));
  assert.notEqual(classOf(found, 'truncate'), classOf(found, 'outputs'), JSON.stringify(found));
  await page.screenshot({ path: path.join(ARTIFACTS, 'jinja-highlighting.png') });
});

test('completion after outputs. ranks the steps in scope first; picking another adds it to depends_on', async () => {
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, 38, 52);
  await page.keyboard.type(' {{ outputs.');
  const rows = page.locator('.suggest-widget .monaco-list-row');
  await rows.first().waitFor({ timeout: 30000 });
  const labels = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
  // "shipped" depends on "scope" only: that is the one step in scope.
  assert.match(labels[0], /^scope\b/, labels.join(' | '));
  assert.ok(
    labels.some((label) => /^metrics\b/.test(label)),
    labels.join(' | '),
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'binding-completion.png') });
  await page.keyboard.type('metr');
  await page.locator('.suggest-widget .monaco-list-row.focused', { hasText: 'metrics' }).waitFor();
  await page.keyboard.press('Enter');
  await line('depends_on: [scope, metrics]').waitFor({ timeout: 30000 });
  await line('Release notes for what shipped this week. {{ outputs.metrics').waitFor();
});

test('a quick fix adds the missing depends_on and the binding diagnostic goes', async () => {
  await openFile(page, 'mistakes/broken-composition/SKILL.md', 'name: broken-composition');
  await showProblems(page);
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'not among the steps "review" depends on' });
  await row.first().waitFor({ timeout: 60000 });
  await page.locator('.monaco-editor .view-lines').first().click();
  await goTo(page, 18, 36);
  const bulb = page.locator('.lightBulbWidget, .codicon-light-bulb, .codicon-lightbulb-autofix').first();
  await bulb.waitFor({ timeout: 30000 });
  await bulb.click();
  const item = page.locator('.action-widget .monaco-list-row', {
    hasText: 'Add "collect" to the depends_on of "review"',
  });
  await item.first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'add-depends-on.png') });
  await item.first().click();
  await line('depends_on: [collect]').waitFor({ timeout: 30000 });
  await row.first().waitFor({ state: 'detached', timeout: 30000 });
  // The rest of the file's findings stay.
  await page.locator('.markers-panel .monaco-list-row', { hasText: 'depend_on' }).first().waitFor();
});

test('the preview draws the composition: kinds, composed skills, the substitute edge', async () => {
  await openFile(page, 'weekly-digest/SKILL.md', 'name: weekly-digest');
  await runCommand(page, 'Skillgraph: Open Graph Preview to the Side');
  const preview = previewFrame(page);
  await preview.locator('.node[data-id="digest"]').waitFor({ timeout: 60000 });
  await expectSettled(() => preview.locator('.node').count(), 7);
  await expectSettled(() => preview.locator('.edge.fallback').count(), 1);
  await expectSettled(() => preview.locator('.node[data-id="metrics"] .subtitle').textContent(), '↗ csv-report');
  await expectSettled(() => preview.locator('.node.kind-user_input').count(), 1);
  await page.screenshot({ path: path.join(ARTIFACTS, 'weekly-digest-preview.png') });
});
