import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { packageTestExtension, REPO } from './codeServer';
import {
  compileTo,
  openFile,
  openExamplesWorkbench,
  runCommand,
  tickAndApply,
  type ExamplesWorkbench,
} from './workbench';

/**
 * Compile Skill… to AIP refined by a language model of the editor. No real
 * model can be reached here, so a fake one is registered in the real VS
 * Code through the same Language Model Chat Provider API a real provider
 * uses (test/e2e/fakeModel): the only fake, at that boundary.
 */
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-compile-model');
const LOG = path.join(mkdtempSync(path.join(tmpdir(), 'sg-fake-model-')), 'requests.jsonl');
let workbench: ExamplesWorkbench;
let page: Page;

before(async () => {
  workbench = await openExamplesWorkbench({
    artifacts: ARTIFACTS,
    port: 18397,
    folder: 'release-notes',
    vsix: [
      await packageTestExtension(
        path.join(__dirname, 'fakeModel', 'fakeModelPackage.json'),
        path.join(__dirname, 'fakeModel', 'fakeModel.ts'),
        "# Fake Skill Model\n\nA fixed chat model for Skillgraph's tests only.",
      ),
    ],
    env: { SKILLGRAPH_FAKE_MODEL_LOG: LOG },
    settings: { 'chat.disableAIFeatures': false },
  });
  page = workbench.page;
  await openFile(page, 'release-notes/SKILL.md', 'name: release-notes');
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: agent-skill' }).waitFor({ timeout: 60000 });
});

after(async () => {
  await workbench?.close();
});

test("AIP refined by the editor's model: its first answer is sent back with Skillgraph's error, its second checks clean and is what gets written", async () => {
  const out = path.join(workbench.workspace, 'compiled-aip', 'release-notes');
  // The fake model answers in the 0.3 form: the older format stays on offer, and refines the same way.
  await compileTo(page, 'AIP 0.3 package (older runtimes)', ARTIFACTS);
  const refine = page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Refine with Fake Skill Model' })
    .first();
  await refine.waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'refine-choice.png') });
  await refine.click();
  // VS Code asks the author once whether Skillgraph may use the model.
  const allow = page.locator('.monaco-dialog-box').getByRole('button', { name: /^Allow/ });
  if (
    await allow.waitFor({ timeout: 15000 }).then(
      () => true,
      () => false,
    )
  )
    await allow.click();
  await tickAndApply(page, () => assert.ok(!existsSync(out)), path.join(ARTIFACTS, 'refactor-preview.png'));
  await page
    .locator('.monaco-editor .view-line', { hasText: 'name: group-changes' })
    .first()
    .waitFor({ timeout: 30000 });
  const skillMd = readFileSync(path.join(out, 'SKILL.md'), 'utf8');
  assert.match(
    skillMd,
    /\n {2}- name: group-changes\n[\s\S]*\n {4}outputs:\n {6}- name: grouped-changes\n {8}type: object\n {2}- name: write-line\n {4}inputs:\n {6}- name: grouped-changes\n/,
  );
  assert.ok(!skillMd.includes('sort-changes'), 'the answer with an error was not written');
  // Two requests: the second carries the error Skillgraph found in the first answer.
  const requests = readFileSync(LOG, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { messages: number; last: string });
  assert.equal(requests.length, 2);
  assert.match(requests[0].last, /=== FILE: source\/original-SKILL\.md ===\n---\nname: release-notes\n/);
  assert.match(requests[0].last, /=== FILE: SKILL\.md ===\n---\nname: release-notes\n/);
  assert.equal(requests[1].messages, 3);
  assert.match(
    requests[1].last,
    /Skillgraph found 1 error in your answer[\s\S]*sort-changes[\s\S]*\[unknown_dependency\]/,
  );
  // The outcome is reported in a notification (shown in the notification centre while the preview held the panel).
  await runCommand(page, 'Notifications: Show Notifications');
  await page
    .locator('.notifications-center', {
      hasText: 'Fake Skill Model refined the package; its answer 2 checked without errors',
    })
    .waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'refined.png') });
});

test('AIP 0.5 refined the same way: an answer whose edge names no step goes back with the error; the refined package is written', async () => {
  const out = path.join(workbench.workspace, 'compiled-aip', 'release-notes');
  rmSync(out, { recursive: true, force: true });
  const before = readFileSync(LOG, 'utf8').trim().split('\n').length;
  // The prose skill again (the last test left its compiled package open).
  await openFile(page, 'release-notes/SKILL.md', 'name: release-notes');
  await compileTo(page, 'AIP 0.5 package', ARTIFACTS);
  const refine = page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Refine with Fake Skill Model' })
    .first();
  await refine.waitFor({ timeout: 30000 });
  await refine.click();
  await tickAndApply(page, () => assert.ok(!existsSync(out)), path.join(ARTIFACTS, 'refactor-preview-05.png'));
  // The package opens at its runtime block, far above the steps: its file says what was written.
  for (let waited = 0; !existsSync(path.join(out, 'SKILL.md')) && waited < 30000; waited += 250)
    await new Promise((resolve) => setTimeout(resolve, 250));
  await page.screenshot({ path: path.join(ARTIFACTS, 'refined-05.png') });
  const skillMd = readFileSync(path.join(out, 'SKILL.md'), 'utf8');
  assert.match(skillMd, /\n {2}aip-version: "?0\.5a1"?\n---\n\n# AIP runtime — format 0\.5a1\n/);
  assert.match(skillMd, /\n {4}inputs_to: group-changes\n {2}- name: group-changes\n/);
  assert.match(
    skillMd,
    /\n {2}- name: write-line\n[^]*?\n {4}inputs:\n {6}- name: grouped-changes\n {8}type: object\n/,
  );
  const requests = readFileSync(LOG, 'utf8')
    .trim()
    .split('\n')
    .slice(before)
    .map((line) => JSON.parse(line) as { messages: number; last: string });
  assert.equal(requests.length, 2);
  // The 0.5 prompt asks for the runtime block kept word for word.
  assert.match(requests[0].last, /# AIP runtime — format 0\.5a1/);
  assert.match(
    requests[1].last,
    /Skillgraph found \d+ errors in your answer[\s\S]*group-them[\s\S]*\[unknown_step_reference\]/,
  );
});
