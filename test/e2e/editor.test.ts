import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser } from '../support/browser';
import { packageExtension, REPO, startCodeServer, stopCodeServer, type CodeServer } from './codeServer';
import { expectSettled, goTo as goToIn, showProblems } from './workbench';

/** Screenshots of each step, kept as test artifacts. */
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e');
const workspace = mkdtempSync(path.join(tmpdir(), 'sg-e2e-ws-'));
const skillFile = path.join(workspace, 'mistakes', 'broken-procedure', 'SKILL.md');
let server: CodeServer;
let context: BrowserContext;
let page: Page;

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

const goTo = (line: number, column: number) => goToIn(page, line, column);

async function problemRow(text: string) {
  return page.locator('.markers-panel .monaco-list-row', { hasText: text });
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  cpSync(path.join(REPO, 'examples'), workspace, { recursive: true });
  const vsix = packageExtension();
  server = await startCodeServer({ vsix: [vsix], workspace, port: 18391 });
  ({ context, page } = await openBrowser(server.url));
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'csv-report' }).waitFor({ timeout: 120000 });
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill('broken-procedure/SKILL.md');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'SKILL.md' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-line', { hasText: 'name: broken-procedur' }).waitFor();
});

after(async () => {
  if (page) await shot('final').catch(() => undefined);
  await context?.close();
  stopCodeServer(server, ARTIFACTS);
  rmSync(workspace, { recursive: true, force: true });
});

test('opening a skill shows the squiggle and the Problems row', async () => {
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 60000 });
  await showProblems(page);
  const row = await problemRow('did you mean "raw-data"');
  await row.first().waitFor({ timeout: 30000 });
  assert.match(
    await row.first().innerText(),
    /No step produces "raw_data"; did you mean "raw-data", produced upstream\?[\s\S]*skillgraph[\s\S]*input_name_typo[\s\S]*Ln 34, Col 15/,
  );
  await shot('1-diagnostics');
});

test('hovering an input shows its type and producer', async () => {
  // The input is declared string on purpose (a type_mismatch in the example); its producer gives list[object].
  const expected = 'input rows: string\n\nProduced by clean-data as list[object]';
  // The hover on screen: VS Code can keep an earlier hover widget, hidden, with the same text (whose innerText then
  // loses its paragraphs).
  const hover = page.locator('.monaco-hover', { hasText: 'Produced by' }).filter({ visible: true });
  // The chord (Ctrl+K Ctrl+I) can be lost on a loaded machine, as can the focus it needs, and a hover shown can close
  // before it is read (seen in CI; perhaps the workbench's own notices on a fresh profile): ask again, from the
  // editor, until the hover shows and reads whole.
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.locator('.monaco-editor .view-lines').first().click();
    await goTo(47, 17);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    try {
      await expectSettled(() => hover.first().innerText({ timeout: 10000 }), expected, 10000);
      break;
    } catch (error) {
      // The last attempt fails the test with what it read.
      if (attempt === 3) throw error;
    }
  }
  await shot('2-hover');
  await page.keyboard.press('Escape');
});

test('go to definition from an input lands on the producing output', async () => {
  await goTo(47, 17);
  await page.keyboard.press('F12');
  await page.locator('.statusbar-item', { hasText: /Ln 39, Col 1[5-9]/ }).waitFor({ timeout: 30000 });
  await shot('3-definition');
});

test('a quick fix from the light bulb removes its diagnostic', async () => {
  await goTo(34, 17);
  const bulb = page.locator('.lightBulbWidget, .codicon-light-bulb, .codicon-lightbulb-autofix').first();
  await bulb.waitFor({ timeout: 30000 });
  await bulb.click();
  const item = page.locator('.action-widget .monaco-list-row', { hasText: 'Change to "raw-data"' });
  await item.first().waitFor({ timeout: 30000 });
  await shot('4-quick-fix-menu');
  await item.first().click();
  await page.locator('.monaco-editor .view-line', { hasText: '- name: raw-data' }).first().waitFor();
  await page.waitForFunction(
    () =>
      ![...document.querySelectorAll('.markers-panel .monaco-list-row')].some((row) =>
        row.textContent?.includes('raw_data'),
      ),
    null,
    { timeout: 30000 },
  );
  await shot('5-quick-fix-applied');
});

test('renaming a step updates its references', async () => {
  await goTo(31, 12);
  await page.keyboard.press('F2');
  const input = page.locator('.rename-box input, .rename-input').first();
  await input.waitFor({ timeout: 30000 });
  await input.fill('tidy-data');
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-line', { hasText: '- name: tidy-data' }).first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Control+S');
  const deadline = Date.now() + 30000;
  let saved = readFileSync(skillFile, 'utf8');
  while (!saved.includes('depends_on: [tidy-data, publish]') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    saved = readFileSync(skillFile, 'utf8');
  }
  assert.match(saved, /  - name: tidy-data\n/);
  assert.match(saved, /depends_on: \[tidy-data, publish\]/);
  assert.doesNotMatch(saved, /clean-data/);
  await shot('6-rename');
});
