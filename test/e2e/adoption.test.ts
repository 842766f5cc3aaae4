import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO } from './codeServer';
import {
  expectSettled,
  goTo,
  openExamplesWorkbench,
  openFile,
  showProblems,
  type ExamplesWorkbench,
} from './workbench';

/**
 * A team's configuration in the real VS Code: its baseline hides the findings it accepts, a quick fix suppresses one
 * where it is wrong, the safe fixes run on save, and a mistake in the configuration file is shown in it.
 */
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e-adoption');
let workbench: ExamplesWorkbench;
let page: Page;

const NOTES = [
  '---',
  'name: notes',
  'description: Use when: writing release notes',
  '---',
  // Code spans the sentence ties to the skill: missing_file, and nothing VS Code's own Markdown link check reports.
  "Read this skill's `references/old.md` first.",
  '',
  "Then read this skill's `references/new.md`.",
  '',
].join('\n');

before(async () => {
  workbench = await openExamplesWorkbench({
    artifacts: ARTIFACTS,
    port: 18399,
    folder: 'team',
    files: {
      'team/.skillgraph.yaml': 'baseline: accepted.json\nrules:\n  nested_refrence: off\n',
      'team/accepted.json': JSON.stringify({
        version: 1,
        findings: [{ file: 'notes/SKILL.md', code: 'missing_file', text: 'references/old.md', count: 1 }],
      }),
      'team/notes/SKILL.md': NOTES,
    },
    settings: { 'editor.codeActionsOnSave': { 'source.fixAll.skillgraph': 'explicit' } },
  });
  page = workbench.page;
  await openFile(page, 'team/notes/SKILL.md', 'name: notes');
  await page.locator('.statusbar-item', { hasText: 'Skillgraph: agent-skill' }).waitFor({ timeout: 60000 });
});

after(async () => {
  await workbench?.close();
});

/** The texts of the Problems panel's rows. */
const problemRows = () => page.locator('.markers-panel .monaco-list-row').allInnerTexts();

test('the baseline hides the finding it accepts; the new one is shown, and the status bar counts the hidden one', async () => {
  await showProblems(page);
  await expectSettled(async () => (await problemRows()).join('\n'), /references\/new\.md/);
  const rows = (await problemRows()).join('\n');
  assert.doesNotMatch(rows, /references\/old\.md/);
  await expectSettled(
    () => page.locator('.statusbar-item', { hasText: 'Skillgraph: agent-skill' }).getAttribute('aria-label'),
    /1 finding is in the baseline, not shown/,
  );
  await page.screenshot({ path: path.join(ARTIFACTS, '1-baseline.png') });
});

test('a quick fix suppresses a finding on its line, and the row goes', async () => {
  await goTo(page, 7, 30);
  const bulb = page.locator('.lightBulbWidget, .codicon-light-bulb, .codicon-lightbulb-autofix').first();
  await bulb.waitFor({ timeout: 30000 });
  await bulb.click();
  const item = page.locator('.action-widget .monaco-list-row', { hasText: 'Suppress missing_file on this line' });
  await item.first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(ARTIFACTS, '2-suppress-menu.png') });
  await item.first().click();
  await page
    .locator('.monaco-editor .view-line', { hasText: '<!-- skillgraph-disable-next-line missing_file -->' })
    .first()
    .waitFor({ timeout: 30000 });
  await expectSettled(async () => (await problemRows()).some((row) => row.includes('references/new.md')), false);
});

test('on save, the safe fixes are applied: the value YAML could not read is quoted on disk', async () => {
  await page.keyboard.press('Control+S');
  const file = path.join(workbench.workspace, 'team', 'notes', 'SKILL.md');
  await expectSettled(async () => readFileSync(file, 'utf8'), /\ndescription: "Use when: writing release notes"\n/);
  const saved = readFileSync(file, 'utf8');
  assert.match(
    saved,
    /<!-- skillgraph-disable-next-line missing_file -->\nThen read this skill's `references\/new\.md`\./,
  );
  await expectSettled(async () => (await problemRows()).some((row) => row.includes('unquoted_colon')), false);
  await page.screenshot({ path: path.join(ARTIFACTS, '3-fixed-on-save.png') });
});

test('a mistake in the configuration file is shown in it, with the code it most likely means', async () => {
  await openFile(page, 'team/.skillgraph.yaml', 'baseline: accepted.json');
  await showProblems(page);
  await expectSettled(
    async () => (await problemRows()).join('\n'),
    /No rule has the code `nested_refrence`; did you mean `nested_reference`\?[\s\S]*invalid_config/,
  );
  await page.screenshot({ path: path.join(ARTIFACTS, '4-config.png') });
});
