import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO } from './codeServer';
import { compileTo, openFile, openExamplesWorkbench, tickAndApply, type ExamplesWorkbench } from './workbench';

/**
 * Skillgraph: Compile Skill… in the real VS Code: a target picked, the files previewed as a refactoring, written only
 * when applied.
 */
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-compile');
let workbench: ExamplesWorkbench;
let page: Page;

before(async () => {
  workbench = await openExamplesWorkbench({ artifacts: ARTIFACTS, port: 18396, folder: 'release-notes' });
  page = workbench.page;
  await openFile(page, 'release-notes/SKILL.md', 'name: release-notes');
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: agent-skill' }).waitFor({ timeout: 60000 });
});

after(async () => {
  await workbench?.close();
});

test('a plain skill compiles to AIP through the refactor preview: nothing is written until Apply, then the package is there and opens', async () => {
  const out = path.join(workbench.workspace, 'compiled-aip', 'release-notes');
  const offered = await compileTo(page, 'AIP 0.5 package', ARTIFACTS);
  // Only the targets that fit a plain skill: no plain, no MetaSkill forms; AIP in the current format and the older one.
  assert.deepEqual(
    offered.map((label) => label.split(/,|\s{2}/)[0].trim()),
    [
      'Graph IR (JSON)',
      'AIP 0.5 package',
      'AIP 0.3 package (older runtimes)',
      'Mermaid diagram',
      'Graphviz DOT diagram',
    ],
  );
  // While the preview waits, the status bar says what to do there (no notification stacks over the editor).
  await page
    .locator('.statusbar-item', { hasText: 'tick the files to write into release-notes in the Refactor Preview' })
    .waitFor({ timeout: 30000 });
  // The preview lists each file it would create; none is on disk yet.
  const created = await tickAndApply(
    page,
    () => assert.ok(!existsSync(out), 'nothing is written before Apply'),
    path.join(ARTIFACTS, 'refactor-preview.png'),
  );
  // SKILL.md, the four steps' templates, source/original-SKILL.md and its README, the style guide it cites.
  assert.equal(created.length, 8);
  for (const file of ['SKILL.md', 'original-SKILL.md', 'find-previous-tag.md', 'style.md'])
    assert.ok(
      created.some((row) => row.startsWith(file)),
      created.join(' | '),
    );
  await page
    .locator('.monaco-editor .view-line', { hasText: 'AIP runtime — format 0.5a1' })
    .first()
    .waitFor({ timeout: 30000 });
  const skillMd = readFileSync(path.join(out, 'SKILL.md'), 'utf8');
  assert.match(
    skillMd,
    /^---\nname: release-notes\n[\s\S]*\n {2}aip-version: "?0\.5a1"?\n---\n\n# AIP runtime — format 0\.5a1\n/,
  );
  assert.equal(
    readFileSync(path.join(out, 'source', 'original-SKILL.md'), 'utf8'),
    readFileSync(path.join(workbench.workspace, 'release-notes', 'SKILL.md'), 'utf8'),
  );
  // The compiled skill is read as AIP 0.5 by the same extension, with no error.
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: aip-0.5' }).waitFor({ timeout: 60000 });
  assert.equal(
    await page.locator('.statusbar-item', { hasText: 'Skillgraph: aip-0.5' }).locator('.codicon-error').count(),
    0,
  );
  // The outcome in one notification: where, what to review, and (no language model in this editor) how it was made.
  const outcome = page.locator('.notifications-toasts .notification-toast', { hasText: 'Skillgraph:' });
  await outcome
    .filter({ hasText: 'TODO to review; the deterministic scaffold (no language model is available in this editor).' })
    .waitFor({ timeout: 30000 });
  assert.equal(await outcome.count(), 1, (await outcome.allTextContents()).join(' | '));
  await page.screenshot({ path: path.join(ARTIFACTS, 'compiled-aip.png') });
});

test('compiling again asks before replacing a file there, and Cancel leaves it as it was', async () => {
  const out = path.join(workbench.workspace, 'compiled-aip', 'release-notes');
  writeFileSync(path.join(out, 'SKILL.md'), 'edited by hand\n');
  await openFile(page, 'release-notes/SKILL.md', 'name: release-notes');
  await compileTo(page, 'AIP 0.5 package', ARTIFACTS);
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'already exist' });
  await dialog.waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'replace-question.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(readFileSync(path.join(out, 'SKILL.md'), 'utf8'), 'edited by hand\n');
});
