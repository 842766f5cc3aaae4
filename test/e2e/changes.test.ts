import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { gitIn } from '../support/cliRun';
import { replaceChooseFocus } from '../support/csvReportChange';
import { REPO } from './codeServer';
import {
  expectSettled,
  openExamplesWorkbench,
  openFile,
  previewFrame,
  runCommand,
  screenshotOnFailure,
  type ExamplesWorkbench,
} from './workbench';

// The preview's "changes since HEAD" in a real VS Code, on a git repository of the examples whose csv-report has an
// uncommitted change: choose-focus replaced by chart-column. The preview marks what the change added, removed and
// touched; a click on a mark shows it; the Source Control view's diff of SKILL.md opens the same marks.

const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-changes');
let workbench: ExamplesWorkbench;
let page: Page;
const preview = () => previewFrame(page);
/** The changed SKILL.md's line (1-based) that names `step`. */
let lineOf: (step: string) => number;

before(async () => {
  workbench = await openExamplesWorkbench({
    artifacts: ARTIFACTS,
    port: 18401,
    folder: 'csv-report',
    settings: { 'git.enabled': true, 'git.openRepositoryInParentFolders': 'always', 'scm.defaultViewMode': 'list' },
    prepare(workspace) {
      gitIn(workspace, 'init', '-q', '-b', 'main');
      gitIn(workspace, 'add', '.');
      gitIn(workspace, 'commit', '-q', '-m', 'the examples');
      const skill = path.join(workspace, 'csv-report', 'SKILL.md');
      const changed = replaceChooseFocus(readFileSync(skill, 'utf8'));
      writeFileSync(skill, changed);
      const lines = changed.split('\n');
      lineOf = (step) => lines.indexOf(`  - name: ${step}`) + 1;
    },
  });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
});

/** Waits for the preview to mark node `id` as `change`. */
const marked = (id: string, change: string) =>
  preview().locator(`.node.change-${change}[data-id="${id}"]`).waitFor({ timeout: 30000 });

test('Changes marks the steps added and removed since HEAD, their edges, and lists each change', async () => {
  await openFile(page, 'csv-report/SKILL.md', 'name: csv-report');
  await runCommand(page, 'Skillgraph: Open Graph Preview to the Side');
  await preview().locator('.node[data-id="chart-column"]').waitFor({ timeout: 60000 });
  // Before Changes is pressed, the preview draws the skill as it is: no removed step, no mark.
  assert.equal(await preview().locator('.node[data-id="choose-focus"]').count(), 0);
  await preview().locator('#changes').click();
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'marks-failed.png'), async () => {
    await marked('chart-column', 'added');
    await marked('choose-focus', 'removed');
  });
  await expectSettled(() => preview().locator('#changes').getAttribute('aria-pressed'), 'true');
  await expectSettled(() => preview().locator('#changes').textContent(), 'Changes since HEAD');
  const head = gitIn(workbench.workspace, 'rev-parse', '--short=7', 'HEAD');
  await expectSettled(
    () => preview().locator('#changes-list .changes-heading').textContent(),
    `Changes since HEAD (${head}): 2 added · 1 removed · 8 edges`,
  );
  // The removed step's edges are drawn again, marked removed; the added step's, added.
  await preview()
    .locator('.edge.change-removed[data-from="choose-focus"][data-to="write-report"][data-label="focus-column"]')
    .waitFor();
  await preview()
    .locator('.edge.change-added[data-from="profile-columns"][data-to="chart-column"][data-label="stats"]')
    .waitFor();
  // Steps the change did not touch carry no mark.
  assert.equal(await preview().locator('.node.changed-node[data-id="load-table"]').count(), 0);
  const lines = await preview().locator('#changes-list li').allTextContents();
  assert.ok(lines.includes('! write-report input "focus-column" has no producer any more (it was choose-focus)'));
  // The tooltip of a mark says what changed.
  await preview().locator('.node[data-id="chart-column"] .label').hover();
  await expectSettled(() => preview().locator('#tooltip').textContent(), /^added step chart-column/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'changes-since-head.png') });
});

test('clicking a step the change added selects it in the editor', async () => {
  await preview().locator('#fit').click();
  await preview().locator('.node[data-id="chart-column"] .label').click();
  const line = lineOf('chart-column');
  assert.ok(line > 0);
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'added-click-failed.png'), () =>
    page.locator('.statusbar-item', { hasText: `Ln ${line}, Col 23 (12 selected)` }).waitFor({ timeout: 30000 }),
  );
});

test('clicking a step the change removed opens the diff of SKILL.md against HEAD', async () => {
  await preview().locator('.node[data-id="choose-focus"] .label').click();
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'removed-click-failed.png'), async () => {
    await page.locator('.tab', { hasText: 'SKILL.md (HEAD) ↔ now' }).waitFor({ timeout: 30000 });
    // The left side is the committed text, which has the removed step.
    await page
      .locator('.editor.original .view-line', { hasText: '- name: choose-focus' })
      .first()
      .waitFor({ timeout: 30000 });
  });
  await page.screenshot({ path: path.join(ARTIFACTS, 'removed-step-diff.png') });
});

test("the Source Control view's diff of SKILL.md opens the same graph changes", async () => {
  // Off first, so the marks that follow come from the diff editor's command.
  await preview().locator('#changes').click();
  await expectSettled(() => preview().locator('.node.changed-node').count(), 0);
  // The activity bar, not the palette: the preview had the keyboard.
  await page.locator('.activitybar .action-item:has(a[aria-label^="Source Control"])').first().click();
  const row = page.locator('.scm-view .monaco-list-row', { hasText: 'SKILL.md' }).first();
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'scm-failed.png'), () => row.waitFor({ timeout: 60000 }));
  // Its context menu offers the graph changes (a SKILL.md in a git repository).
  await row.click({ button: 'right' });
  await page.locator('.context-view .action-label', { hasText: 'Show Graph Changes Since…' }).waitFor();
  await page.keyboard.press('Escape');
  // Opened as a diff, its title bar has the action.
  await row.click();
  await page.locator('.tab', { hasText: 'SKILL.md (Working Tree)' }).waitFor({ timeout: 30000 });
  await page.locator('.editor-actions .action-label[aria-label="Show Graph Changes Since…"]').first().click();
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'scm-marks-failed.png'), async () => {
    await marked('choose-focus', 'removed');
    await marked('chart-column', 'added');
  });
  await expectSettled(() => preview().locator('#changes').getAttribute('aria-pressed'), 'true');
  await page.screenshot({ path: path.join(ARTIFACTS, 'scm-diff-graph-changes.png') });
});
