import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO } from './codeServer';
import {
  expectSettled,
  goTo,
  openExamplesWorkbench,
  openFile,
  previewFrame,
  runCommand,
  screenshotOnFailure,
  showProblems,
  type ExamplesWorkbench,
} from './workbench';

// The library in the real VS Code: the library view (the workspace's skills drawn with their edges and problems, a
// folder filter, the skill list a client gives the agent, a click to open), then renaming a skill across the library:
// F2 on a mention of another skill, Ctrl+Enter for the Refactor Preview listing every file the rename touches and the
// folder it moves, then Apply.

const HELPER_DESCRIPTION = 'Helps cut a release. Use when a release is due.';

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
      // Codex's folder; line 5 names ship-docs, and a skill a letter off deploy-site.
      '.agents/skills/release-helper/SKILL.md': `---\nname: release-helper\ndescription: ${HELPER_DESCRIPTION}\n---\n\nRun /ship-docs, then /deploy-sitte.\n`,
    },
  });
});

after(async () => {
  await bench?.close();
});

/** Every SKILL.md under `dir`, as the server finds the workspace's skills. */
function skillFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? skillFiles(path.join(dir, entry.name))
      : entry.name === 'SKILL.md'
        ? [path.join(dir, entry.name)]
        : [],
  );
}

test('the library view draws every skill, its edges and problems; filters by folder; shows what Codex lists', async () => {
  const { page, workspace } = bench;
  const all = skillFiles(workspace).length;
  // The extension is running (its status shows on a skill) before its command is looked for in the palette.
  await openFile(page, 'ship-docs/SKILL.md', 'name: ship-docs');
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: agent-skill' }).first().waitFor({ timeout: 60000 });
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'library-command-failed.png'), () =>
    runCommand(page, 'Skillgraph: Show Skill Library'),
  );
  const view = previewFrame(page);
  const helper = view.locator('.node[data-name="release-helper"]');
  await screenshotOnFailure(page, path.join(ARTIFACTS, 'library-failed.png'), () => helper.waitFor({ timeout: 60000 }));
  await expectSettled(() => view.locator('.node').count(), all);
  await expectSettled(() => view.locator('#status').textContent(), new RegExp(`^${all} skills · \\d+ edges · `));
  // The mention a letter off is a problem of the skill it is in, marked on its node and listed.
  assert.match((await helper.getAttribute('class')) ?? '', /has-warning/);
  await view
    .locator('#problems .problem.warning', {
      hasText: 'release-helper: No skill of the library is named `deploy-sitte`',
    })
    .waitFor();
  const helperFile = path.join(workspace, '.agents', 'skills', 'release-helper', 'SKILL.md');
  const shipDocs = path.join(workspace, 'ship-docs', 'SKILL.md');
  assert.equal(await view.locator(`.edge.invokes[data-from="${helperFile}"][data-to="${shipDocs}"]`).count(), 1);
  assert.equal(await view.locator(`.edge.link[data-from="${shipDocs}"]`).count(), 1);
  await page.screenshot({ path: path.join(ARTIFACTS, 'library-view.png') });

  // One folder: only its skills.
  await view.locator('#folder').selectOption('.agents/skills');
  await expectSettled(() => view.locator('.node').count(), 1);
  await expectSettled(() => view.locator('#status').textContent(), '1 skill · 0 edges · 1 problem');

  // Codex reads .agents/skills: one entry here, its size that of its name and description; every skill when asked.
  await view.locator('#client').selectOption('Codex');
  const size = 'release-helper'.length + HELPER_DESCRIPTION.length;
  await expectSettled(
    () => view.locator('#list-summary').textContent(),
    `Codex lists 1 skill as installed here: ${size} of 8,000 characters (1%, about 2% of the context window).`,
  );
  assert.deepEqual(await view.locator('#list .entry .entry-name').allTextContents(), ['release-helper']);
  assert.equal(await view.locator('#list .entry .entry-size').first().textContent(), `${size} · ${size}`);
  await view.locator('#every').check();
  await expectSettled(() => view.locator('#list .entry').count(), all);
  await page.screenshot({ path: path.join(ARTIFACTS, 'library-list.png') });

  // A click on a skill opens it with its name selected; one on a problem, at the mention.
  await helper.click();
  await page.locator('.statusbar-item', { hasText: /Ln 2, Col 21 \(14 selected\)/ }).waitFor({ timeout: 30000 });
  await view.locator('#problems .problem.warning').first().click();
  await page.locator('.statusbar-item', { hasText: /Ln 6, Col 35 \(12 selected\)/ }).waitFor({ timeout: 30000 });

  // The view follows the editor: a word typed into the description (unsaved) changes the entry's size.
  await goTo(page, 3, 14);
  await page.keyboard.type('Quickly ');
  const helperEntry = view.locator('#list .entry', { hasText: 'release-helper' }).locator('.entry-size');
  await expectSettled(async () => (await helperEntry.textContent())?.split(' · ')[0], String(size + 'Quickly '.length));
  await page.keyboard.press('Control+S');
  await runCommand(page, 'View: Close All Editors');
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
