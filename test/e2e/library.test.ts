import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO } from './codeServer';
import { goTo, openExamplesWorkbench, openFile, runCommand, showProblems, type ExamplesWorkbench } from './workbench';

// Renaming a skill across the library in the real VS Code: F2 on a mention of another skill, Ctrl+Enter for the
// Refactor Preview listing every file the rename touches and the folder it moves, then Apply.

const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-library');
let bench: ExamplesWorkbench;

before(async () => {
  bench = await openExamplesWorkbench({
    artifacts: ARTIFACTS,
    port: 18400,
    folder: 'ship-docs',
    files: {
      'deploy-site/SKILL.md':
        '---\nname: deploy-site\ndescription: Deploys the site to the host. Use when the site must go live.\n---\n\nUpload it.\n',
      'ship-docs/SKILL.md':
        '---\nname: ship-docs\ndescription: Ships the docs. Use when docs changed.\n---\n\nRun /deploy-site once built.\nSee [it](../deploy-site/SKILL.md).\n',
    },
  });
});

after(async () => {
  await bench?.close();
});

test('F2 on a mention renames the skill everywhere, through the Refactor Preview', async () => {
  const { page, workspace } = bench;
  await openFile(page, 'ship-docs/SKILL.md', 'name: ship-docs');
  // The server has analysed the skill (its status shows) before the rename is asked of it.
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: agent-skill' }).first().waitFor({ timeout: 60000 });
  await goTo(page, 6, 9);
  const input = page.locator('.rename-box input, .rename-input').first();
  // F2 before the rename provider has answered once can be lost on a loaded machine: press it until the box shows.
  for (let attempt = 0; attempt < 5 && !(await input.isVisible()); attempt++) {
    await page.keyboard.press('F2');
    await input.waitFor({ timeout: 5000 }).catch(() => undefined);
  }
  await input.waitFor({ timeout: 30000 });
  assert.equal(await input.inputValue(), 'deploy-site');
  await input.fill('publish-site');
  // Ctrl+Enter: VS Code shows the edits first, each file and the folder's move, under the rename's label.
  await page.keyboard.press('Control+Enter');
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  await apply.waitFor({ timeout: 60000 });
  for (const row of ['deploy-site → publish-site', 'name: deploy-sitepublish-site', 'Run /deploy-sitepublish-site'])
    await page.locator('.monaco-list-row', { hasText: row }).first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'rename-preview.png') });
  assert.ok(existsSync(path.join(workspace, 'deploy-site', 'SKILL.md')), 'nothing is applied before Apply');
  await apply.click();
  const moved = path.join(workspace, 'publish-site', 'SKILL.md');
  const deadline = Date.now() + 30000;
  while (!existsSync(moved) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  // The folder moves on disk; the edits land in editors, dirty until saved (Save All).
  await page.locator('.monaco-editor .view-lines').first().click();
  await runCommand(page, 'File: Save All');
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const shipDocs = path.join(workspace, 'ship-docs', 'SKILL.md');
  while (
    !(read(shipDocs).includes('/publish-site') && read(moved).includes('name: publish-site')) &&
    Date.now() < deadline + 30000
  )
    await new Promise((resolve) => setTimeout(resolve, 200));
  await showProblems(page);
  await page.screenshot({ path: path.join(ARTIFACTS, 'rename-applied.png') });
  assert.ok(!existsSync(path.join(workspace, 'deploy-site')), 'the old folder is gone');
  assert.match(read(moved), /^name: publish-site$/m);
  assert.equal(
    read(shipDocs),
    '---\nname: ship-docs\ndescription: Ships the docs. Use when docs changed.\n---\n\nRun /publish-site once built.\nSee [it](../publish-site/SKILL.md).\n',
  );
});
